import { html } from 'htm/preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError } from './api.js';
import { errorMessages } from './logic.js';

/** The pieces every view uses: data loading with its states, the error box, the empty and loading lines. */
export { html };

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** True until the first answer (later reloads keep the last data on screen: no flicker). */
  loading: boolean;
  reload: () => Promise<void>;
}

/** GETs `path` (null: nothing yet) and again whenever it changes, or every `refreshMs`. */
export function useApi<T = any>(path: string | null, refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: path !== null });
  const current = useRef(path);
  current.current = path;
  const reload = useCallback(async () => {
    if (path === null) return;
    try {
      const data = await api<T>(path);
      if (current.current === path) setState({ data, loading: false });
    } catch (error) {
      if (current.current === path) setState((previous) => ({ data: previous.data, error: error as ApiError, loading: false }));
    }
  }, [path]);
  useEffect(() => {
    setState((previous) => ({ data: previous.data, loading: path !== null }));
    void reload();
    if (!refreshMs) return undefined;
    // The next refresh waits for the last answer, so a slow service is never asked twice at once.
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      timer = setTimeout(async () => {
        await reload();
        if (!stopped) tick();
      }, refreshMs);
    };
    tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [path, refreshMs, reload]);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Several loads as one: loading until each has answered once (a view that joins them shows no half-made rows), the first error. */
export function allLoaded(first: Loaded<any>, ...others: Array<Loaded<any>>): Loaded<any> {
  const all = [first, ...others];
  const ready = all.every((load) => load.data !== undefined || load.error !== undefined);
  return {
    data: ready ? first.data : undefined,
    error: all.find((load) => load.error)?.error,
    loading: !ready,
    reload: async () => {
      await Promise.all(all.map((load) => load.reload()));
    },
  };
}

/** An action's state: running, and the API's errors if it failed. */
export function useAction(): { busy: boolean; error: ApiError | undefined; run: (work: () => Promise<unknown>) => Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError(0, { base: [String(caught)] }));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

export function ErrorBox({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return html`<div class="error" role="alert">
    <strong>${error.status ? `Error ${error.status}` : 'Error'}</strong>
    <ul>${errorMessages(error.errors, error.status).map((message) => html`<li>${message}</li>`)}</ul>
  </div>`;
}

export function Loading({ what }: { what: string }) {
  return html`<p class="loading" role="status" aria-live="polite">Loading ${what}…</p>`;
}

export function Empty({ children }: { children: unknown }) {
  return html`<p class="empty">${children}</p>`;
}

/** A view's frame: its heading, then loading, error or the content. */
export function Section({ title, loaded, what, children, actions }: { title: string; loaded?: Loaded<unknown>; what?: string; children?: unknown; actions?: unknown }) {
  return html`<section aria-labelledby="view-title">
    <div class="view-head"><h1 id="view-title" tabindex="-1">${title}</h1>${actions ?? null}</div>
    ${loaded?.error ? html`<${ErrorBox} error=${loaded.error} />` : null}
    ${loaded?.loading && !loaded.data ? html`<${Loading} what=${what ?? title.toLowerCase()} />` : children}
  </section>`;
}

/** The rows of a list answer (`{ <root>: [...] }`). */
export function rowsOf(data: any, root: string): Array<Record<string, any>> {
  return Array.isArray(data?.[root]) ? data[root] : [];
}

/** Names by id from a list answer, for showing ids as names. */
export function namesById(data: any, root: string): Map<number, string> {
  return new Map(rowsOf(data, root).map((row) => [Number(row.id), String(row.name ?? row.number ?? row.id)]));
}
