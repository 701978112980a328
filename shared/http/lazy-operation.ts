import type { Operation } from './request.js';

/** Every lazy operation's and module's loader, so the tests and bench:bundles can load them all (loadEveryOperation). */
const loaders = new Set<() => Promise<unknown>>();

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
  const ensureLoaded = lazyModule(load);
  return async (request) => (await ensureLoaded())(request);
}

/**
 * A module evaluated on first use, for functions that serve no route (the lead runner's step
 * runner): `const stepRunner = lazyModule(() => import('./step-runner.js'))`, then
 * `(await stepRunner()).runLeadStep(...)`. Kept once loaded; a failed load is tried again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  const ensureLoaded = (): Promise<T> =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
  loaders.add(ensureLoaded);
  return ensureLoaded;
}

/**
 * Loads every lazy operation made so far (the modules of every route of the functions imported):
 * the tests check that each loads, and bench:bundles times what a cold start no longer evaluates.
 */
export async function loadEveryOperation(): Promise<void> {
  await Promise.all([...loaders].map((load) => load()));
}

/**
 * Loads one lazy operation or module: the one at `share` (0 to 1) of those made, in the order
 * they were made. bench:bundles times it in a fresh process after the import, as a cold start's
 * first request pays for its own route's modules. Answers how many there are.
 */
export async function loadOneOperation(share: number): Promise<number> {
  const all = [...loaders];
  if (all.length) await all[Math.min(all.length - 1, Math.max(0, Math.floor(share * all.length)))]!();
  return all.length;
}
