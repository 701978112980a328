/**
 * Facts the secrets' declarations (secrets-resource.ts) and their behaviours both read, apart so
 * that a behaviour never imports the declaration that loads it.
 */

/** Characters of a secret shown back, and the shortest secret that shows them (a short one would be shown whole). */
export const SHOWN_LAST_CHARACTERS = 4;
export const SHORTEST_VALUE_SHOWING_LAST = 12;

/** The tokens of a connection: write-only, encrypted like secret values. */
export const OAUTH_TOKEN_FIELDS = ['access_token', 'refresh_token'] as const;
