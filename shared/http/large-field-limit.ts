// Alone (no imports) so that the route facts declaring it stay below the request handling that enforces it (input-limits.ts).

/**
 * A route that takes one large field (a sound file's base64 audio): its body may be larger than
 * `bodyBytes` above, and that one top-level field (or the same field inside the resource's root
 * node) longer than `stringChars`. Declared on the route (shared/http/routes/<group>.ts), nowhere else.
 */
export interface LargeFieldLimit {
  field: string;
  bodyBytes: number;
  chars: number;
}
