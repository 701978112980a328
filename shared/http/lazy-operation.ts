import type { Operation } from './request.js';

/** Every lazy operation's loader, so the tests and bench:bundles can load them all (loadEveryOperation). */
const loaders = new Set<() => Promise<Operation>>();

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
  const ensureLoaded = (): Promise<Operation> =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
  loaders.add(ensureLoaded);
  return async (request) => (await ensureLoaded())(request);
}

/**
 * Loads every lazy operation made so far (the modules of every route of the functions imported):
 * the tests check that each loads, and bench:bundles times what a cold start no longer evaluates.
 */
export async function loadEveryOperation(): Promise<void> {
  await Promise.all([...loaders].map((load) => load()));
}
