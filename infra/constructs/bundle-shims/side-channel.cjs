'use strict';

/**
 * Bundled instead of the `side-channel` package (bundling-options.ts, `aliases`): qs keeps its
 * bookkeeping in side channels, and the package reaches them through get-intrinsic, call-bind and
 * object-inspect (~30 KB of every API bundle) to support engines without WeakMap and to describe a
 * missing key in its error. Same interface and behaviour on Node: object keys held weakly,
 * primitives in a Map; only the error's wording is shorter.
 */
module.exports = function getSideChannel() {
  var weak;
  var strong;
  var storeOf = function (key, create) {
    if (key !== null && (typeof key === 'object' || typeof key === 'function')) {
      if (!weak && create) weak = new WeakMap();
      return weak;
    }
    if (!strong && create) strong = new Map();
    return strong;
  };
  var channel = {
    assert: function (key) {
      if (!channel.has(key)) throw new TypeError('Side channel does not contain the given key');
    },
    delete: function (key) {
      var store = storeOf(key, false);
      return !!store && store.delete(key);
    },
    get: function (key) {
      var store = storeOf(key, false);
      return store && store.get(key);
    },
    has: function (key) {
      var store = storeOf(key, false);
      return !!store && store.has(key);
    },
    set: function (key, value) {
      storeOf(key, true).set(key, value);
    },
  };
  return channel;
};
