import { basicAuthorization, errorMessages, type ApiErrors } from './logic.js';

/**
 * The console's only way to the service: the public `/api/v1` routes, with the credentials the
 * operator signed in with. They are kept in this tab's sessionStorage (gone when the tab closes,
 * never in localStorage or a cookie) and sent as Basic auth, or as the `auth_token` parameter for
 * a user's token. A 401 forgets them and returns to the sign-in form.
 */
export type Credentials = { kind: 'keys'; publicKey: string; privateKey: string } | { kind: 'token'; authToken: string };

const STORAGE_KEY = 'console.credentials';

export function storedCredentials(): Credentials | undefined {
  try {
    const text = sessionStorage.getItem(STORAGE_KEY);
    return text ? (JSON.parse(text) as Credentials) : undefined;
  } catch {
    return undefined;
  }
}

export function storeCredentials(credentials: Credentials | undefined): void {
  if (credentials) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(credentials));
  else sessionStorage.removeItem(STORAGE_KEY);
}

/** An answer other than 2xx, with the API's `errors`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ApiErrors,
  ) {
    super(errorMessages(errors, status).join(' '));
  }
}

let signedOut: () => void = () => undefined;

/** What a 401 does (the app returns to the sign-in form). */
export function onUnauthorized(handler: () => void): void {
  signedOut = handler;
}

function withCredentials(path: string, credentials: Credentials): { url: string; headers: Record<string, string> } {
  if (credentials.kind === 'keys') return { url: path, headers: { authorization: basicAuthorization(credentials.publicKey, credentials.privateKey) } };
  const separator = path.includes('?') ? '&' : '?';
  return { url: `${path}${separator}auth_token=${encodeURIComponent(credentials.authToken)}`, headers: {} };
}

/** One request to `/api/v1` + `path`; the parsed JSON, or an ApiError. `as` sends these credentials instead of the stored ones (signing in). */
export async function api<T = any>(path: string, options: { method?: string; body?: unknown; as?: Credentials } = {}): Promise<T> {
  const credentials = options.as ?? storedCredentials();
  if (!credentials) {
    signedOut();
    throw new ApiError(401, { base: ['Sign in first'] });
  }
  const { url, headers } = withCredentials(`/api/v1${path}`, credentials);
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? 'GET',
      headers: { accept: 'application/json', ...headers, ...(options.body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, { base: ['The service could not be reached.'] });
  }
  const text = await response.text();
  let parsed: any;
  try {
    parsed = text ? JSON.parse(text) : {};
  } catch {
    parsed = {};
  }
  if (response.status === 401 && !options.as) {
    storeCredentials(undefined);
    signedOut();
  }
  if (!response.ok) throw new ApiError(response.status, (parsed?.errors as ApiErrors) ?? {});
  return parsed as T;
}

/** A CSV answer (`/calls.csv`) saved as a file, through the same credentials. */
export async function downloadCsv(path: string, fileName: string): Promise<void> {
  const credentials = storedCredentials();
  if (!credentials) return signedOut();
  const { url, headers } = withCredentials(`/api/v1${path}`, credentials);
  const response = await fetch(url, { headers });
  if (response.status === 401) {
    storeCredentials(undefined);
    signedOut();
  }
  if (!response.ok) {
    const parsed = await response.json().catch(() => ({}));
    throw new ApiError(response.status, parsed?.errors ?? {});
  }
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}
