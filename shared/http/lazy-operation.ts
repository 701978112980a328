import type { Operation } from './request.js';

/**
 * An operation whose module is evaluated on its first call, not when the function loads (issue
 * 12). esbuild (bundle, no splitting) keeps a dynamically imported module in the bundle and
 * evaluates it on the first `import()`, so a cold start evaluates the Middy stack and the route
 * table only, and the first request of a route the modules its operation needs (once per
 * container; modules shared with an operation already loaded are not evaluated again).
 *
 *   'calls.list': lazyOperation(async () => (await import('./list.js')).listCalls),
 *
 * A failed load is not kept: the next request tries again.
 */
export function lazyOperation(load: () => Promise<Operation>): Operation {
  let loaded: Promise<Operation> | undefined;
  return async (request) => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return (await loaded)(request);
  };
}
