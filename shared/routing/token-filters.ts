/**
 * Record token filters: the `record_token_filter_list` of buyers, the `current_conversion_token_values`
 * of offer conversions and the filter lists of schedule actions, plus the `record_token_additional_list`
 * of tokens to add to a record.
 *
 * Pure functions, no I/O and no valibot: a list is parsed (and validated) once with
 * {@link parseTokenFilterList}, stored in canonical form with {@link formatTokenFilter}, and matched
 * against a call's or lead's tokens with {@link matchesFilters} / {@link explainMismatch}.
 *
 * Filter syntax: `key:value`, `key:>=value`, `key:<=value`, `key:!=value`.
 * - The text is split at the FIRST colon, so values may contain colons (`time:>=10:30`).
 * - The key is trimmed and must consist of letters, digits, `_`, `-` and `.`.
 * - The value is trimmed, then an optional operator prefix (`>=`, `<=`, `!=`) is taken off and the rest
 *   is trimmed again (`age: >= 21` is `age:>=21`). The value must not be empty.
 * - For `eq` (no operator) and `ne` (`!=`) the value may list alternatives separated by `|`:
 *   `state:CA|NY` matches CA or NY, `state:!=CA|NY` matches anything but CA and NY. Alternatives are
 *   trimmed and none may be empty. A literal `|` therefore cannot be matched with eq/ne.
 *   For `gte`/`lte` a `|` has no special meaning.
 * - A value (or an eq/ne alternative) that still starts with `>`, `<`, `=` or `!` is rejected as an
 *   unsupported operator: `age:>21`, `state:=CA`, `age:>==21` and `state:!CA` are almost certainly
 *   mistakes that would otherwise silently never match.
 */

export type TokenFilterOperator = 'eq' | 'ne' | 'gte' | 'lte';

export interface TokenFilter {
  key: string;
  operator: TokenFilterOperator;
  /** Trimmed value without the operator prefix; for eq/ne, alternatives joined by `|` without spaces. */
  value: string;
}

/** A call's or lead's tokens: a flat map of keys to scalar values. null/undefined count as absent. */
export type TokenValues = Readonly<Record<string, string | number | boolean | null | undefined>>;

export type ParseTokenFilterResult = { ok: true; filter: TokenFilter } | { ok: false; error: string };
export type ParseTokenFilterListResult = { ok: true; filters: TokenFilter[] } | { ok: false; errors: string[] };
export type ParseTokenListResult = { ok: true; tokens: Record<string, string> } | { ok: false; errors: string[] };

const KEY_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** Operator prefixes as written in a filter. */
const OPERATOR_PREFIXES: ReadonlyArray<readonly [string, TokenFilterOperator]> = [
  ['>=', 'gte'],
  ['<=', 'lte'],
  ['!=', 'ne'],
];

const PREFIX_BY_OPERATOR: Readonly<Record<TokenFilterOperator, string>> = { eq: '', ne: '!=', gte: '>=', lte: '<=' };

/** Characters that may not start a value once the supported operator (if any) has been taken off. */
const STRAY_OPERATOR_START = /^[<>=!]/;

type EntryResult<T> = { ok: true; value: T } | { ok: false; reason: string };

// ---------------------------------------------------------------------------------------------
// Shared entry parsing
// ---------------------------------------------------------------------------------------------

/** Splits `key:rest` at the first colon and validates the key; `rest` is trimmed. */
function splitEntry(text: string): EntryResult<{ key: string; rest: string }> {
  if (text.trim() === '') return { ok: false, reason: 'is empty' };
  const colon = text.indexOf(':');
  if (colon === -1) return { ok: false, reason: 'is missing a ":" between key and value (expected key:value)' };
  const key = text.slice(0, colon).trim();
  if (key === '') return { ok: false, reason: 'is missing a key' };
  if (!KEY_PATTERN.test(key)) {
    return { ok: false, reason: `has an invalid key ${quote(key)} (use only letters, digits, "_", "-" and ".")` };
  }
  return { ok: true, value: { key, rest: text.slice(colon + 1).trim() } };
}

function parseFilterEntry(text: string): EntryResult<TokenFilter> {
  const split = splitEntry(text);
  if (!split.ok) return split;
  const { key, rest } = split.value;
  if (rest === '') return { ok: false, reason: 'is missing a value' };

  let operator: TokenFilterOperator = 'eq';
  let value = rest;
  for (const [prefix, op] of OPERATOR_PREFIXES) {
    if (rest.startsWith(prefix)) {
      operator = op;
      value = rest.slice(prefix.length).trim();
      if (value === '') return { ok: false, reason: `is missing a value after "${prefix}"` };
      break;
    }
  }

  if (operator === 'eq' || operator === 'ne') {
    const alternatives = value.split('|').map((alternative) => alternative.trim());
    if (alternatives.some((alternative) => alternative === '')) {
      return { ok: false, reason: 'has an empty alternative in its "|" list' };
    }
    if (alternatives.some((alternative) => STRAY_OPERATOR_START.test(alternative))) {
      return { ok: false, reason: 'has an unsupported operator (use >=, <= or != right after the colon)' };
    }
    value = alternatives.join('|');
  } else if (STRAY_OPERATOR_START.test(value)) {
    return { ok: false, reason: 'has an unsupported operator (use >=, <= or != right after the colon)' };
  }

  return { ok: true, value: { key, operator, value } };
}

function parseTokenEntry(text: string): EntryResult<{ key: string; value: string }> {
  const split = splitEntry(text);
  if (!split.ok) return split;
  const { key, rest } = split.value;
  if (rest === '') return { ok: false, reason: 'is missing a value' };
  const prefix = OPERATOR_PREFIXES.find(([candidate]) => rest.startsWith(candidate))?.[0];
  if (prefix !== undefined) {
    return { ok: false, reason: `has an operator ("${prefix}"), which is not allowed in a token list (use key:value)` };
  }
  return { ok: true, value: { key, value: rest } };
}

/**
 * Turns the accepted list shapes into raw entries:
 * - null, undefined or a blank string: no entries;
 * - an array: each element is one entry (so values may contain commas); non-strings are errors;
 * - a string starting with `[`: a JSON array of strings, handled like an array;
 * - any other string: entries separated by commas and/or newlines. Blank segments (trailing commas,
 *   blank lines) are skipped, so values cannot contain commas in this form.
 * Entries are numbered from 1 in the order they appear (after skipping blank segments).
 */
function collectEntries(input: unknown, what: string): { ok: true; entries: string[] } | { ok: false; errors: string[] } {
  if (input === null || input === undefined) return { ok: true, entries: [] };
  let list: unknown[];
  if (Array.isArray(input)) {
    list = input;
  } else if (typeof input === 'string') {
    const text = input.trim();
    if (text === '') return { ok: true, entries: [] };
    if (text.startsWith('[')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        return { ok: false, errors: [`looks like a JSON array but is not valid JSON`] };
      }
      if (!Array.isArray(parsed)) return { ok: false, errors: [`looks like a JSON array but is not valid JSON`] };
      list = parsed;
    } else {
      return { ok: true, entries: text.split(/,|\r?\n|\r/).filter((segment) => segment.trim() !== '') };
    }
  } else {
    return { ok: false, errors: [`must be ${what} (an array of strings or a comma-separated string)`] };
  }

  const errors: string[] = [];
  const entries: string[] = [];
  list.forEach((element, index) => {
    if (typeof element === 'string') entries.push(element);
    else errors.push(`entry ${index + 1} is not a string (got ${describeType(element)})`);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, entries };
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function quote(text: string): string {
  return JSON.stringify(text);
}

// ---------------------------------------------------------------------------------------------
// Filters: parsing and formatting
// ---------------------------------------------------------------------------------------------

/** Parses one `key:value` / `key:>=value` / `key:<=value` / `key:!=value` filter. */
export function parseTokenFilter(text: string): ParseTokenFilterResult {
  const result = parseFilterEntry(text);
  return result.ok ? { ok: true, filter: result.value } : { ok: false, error: `${quote(text)} ${result.reason}` };
}

/**
 * Parses a filter list given as an array of strings, a JSON array string, or a comma/newline separated
 * string (null, undefined and '' are the empty list). Every bad entry is reported, e.g.
 * `entry 2 ("x") is missing a ":" between key and value (expected key:value)`.
 */
export function parseTokenFilterList(input: unknown): ParseTokenFilterListResult {
  const collected = collectEntries(input, 'a list of filters');
  if (!collected.ok) return collected;
  const filters: TokenFilter[] = [];
  const errors: string[] = [];
  collected.entries.forEach((entry, index) => {
    const result = parseFilterEntry(entry);
    if (result.ok) filters.push(result.value);
    else errors.push(`entry ${index + 1} (${quote(entry.trim())}) ${result.reason}`);
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, filters };
}

/** The canonical text of a filter (`state:CA`, `age:>=21`, `state:!=NY`, `state:CA|NY`); parses back to the same filter. */
export function formatTokenFilter(filter: TokenFilter): string {
  return `${filter.key}:${PREFIX_BY_OPERATOR[filter.operator]}${filter.value}`;
}

// ---------------------------------------------------------------------------------------------
// Filters: matching
// ---------------------------------------------------------------------------------------------

/** Strict decimal number text (no hex, no `Infinity`, no blank — unlike `Number()`). */
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Starts like an ISO 8601 date: YYYY-MM-DD, optionally followed by a time. */
const ISO_DATE_TEXT = /^\d{4}-\d{2}-\d{2}/;

function toNumber(text: string): number | undefined {
  if (!NUMBER_TEXT.test(text)) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/**
 * Orders token value against filter value for gte/lte: negative, zero or positive, or undefined when
 * they are not comparable. Numbers compare numerically (`9` < `10`, `21` == `21.0`); otherwise, if both
 * start like ISO dates, they compare as strings (upper-cased, so `t`/`z` equal `T`/`Z`; time zones
 * are not normalised, and `2024-01-01` sorts before `2024-01-01T00:00`).
 */
function compareOrdered(tokenValue: string, filterValue: string): number | undefined {
  const tokenNumber = toNumber(tokenValue);
  const filterNumber = toNumber(filterValue);
  if (tokenNumber !== undefined && filterNumber !== undefined) return tokenNumber - filterNumber;
  if (ISO_DATE_TEXT.test(tokenValue) && ISO_DATE_TEXT.test(filterValue)) {
    const a = tokenValue.toUpperCase();
    const b = filterValue.toUpperCase();
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return undefined;
}

/**
 * Looks a key up case-insensitively. An exact-case key wins; otherwise the first key (in the object's
 * order) equal ignoring case. Values are stringified and trimmed; null, undefined and blank values
 * count as absent (undefined).
 */
function lookupToken(tokens: TokenValues, key: string): string | undefined {
  let raw: TokenValues[string];
  if (Object.hasOwn(tokens, key)) {
    raw = tokens[key];
  } else {
    const lower = key.toLowerCase();
    const found = Object.keys(tokens).find((candidate) => candidate.toLowerCase() === lower);
    raw = found === undefined ? undefined : tokens[found];
  }
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).trim();
  return text === '' ? undefined : text;
}

/**
 * Whether one filter holds for the tokens:
 * - `eq`: the token is present and equals the value (or one of its `|` alternatives), ignoring case.
 *   Comparison is textual: `age:21` does not match `21.0`.
 * - `ne`: the token is absent, or equals none of the `|` alternatives (ignoring case).
 * - `gte` / `lte`: the token is present and, compared numerically if both are finite numbers, else as
 *   strings if both start like ISO dates (YYYY-MM-DD...), is >= / <= the value. Anything else
 *   (absent token, non-numeric text, number vs date) does not match.
 */
export function matchesFilter(filter: TokenFilter, tokens: TokenValues): boolean {
  const tokenValue = lookupToken(tokens, filter.key);
  switch (filter.operator) {
    case 'eq':
    case 'ne': {
      const isOneOf =
        tokenValue !== undefined &&
        filter.value.split('|').some((alternative) => alternative.trim().toLowerCase() === tokenValue.toLowerCase());
      return filter.operator === 'eq' ? isOneOf : !isOneOf;
    }
    case 'gte':
    case 'lte': {
      if (tokenValue === undefined) return false;
      const order = compareOrdered(tokenValue, filter.value.trim());
      if (order === undefined) return false;
      return filter.operator === 'gte' ? order >= 0 : order <= 0;
    }
  }
}

/**
 * Whether ALL filters hold for the tokens (an empty list matches everything). Filters on the same key
 * are independent, so `age:>=21` and `age:<=65` together express a range.
 */
export function matchesFilters(filters: readonly TokenFilter[], tokens: TokenValues): boolean {
  return filters.every((filter) => matchesFilter(filter, tokens));
}

/** The canonical text of the first filter that does not hold, or undefined when all hold. */
export function explainMismatch(filters: readonly TokenFilter[], tokens: TokenValues): string | undefined {
  const failing = filters.find((filter) => !matchesFilter(filter, tokens));
  return failing === undefined ? undefined : formatTokenFilter(failing);
}

// ---------------------------------------------------------------------------------------------
// Token lists (record_token_additional_list)
// ---------------------------------------------------------------------------------------------

/**
 * Parses `record_token_additional_list`: `key:value` entries (same input shapes as
 * {@link parseTokenFilterList}) into a map of tokens to add. Keys and values are trimmed; values are
 * literal (a value starting with `>=`, `<=` or `!=` is an error; `|` has no meaning). A key given twice
 * (ignoring case) is an error. null, undefined and '' give `{}`.
 */
export function parseTokenList(input: unknown): ParseTokenListResult {
  const collected = collectEntries(input, 'a list of tokens');
  if (!collected.ok) return collected;
  const entries: Array<[string, string]> = [];
  const seen = new Set<string>();
  const errors: string[] = [];
  collected.entries.forEach((entry, index) => {
    const label = `entry ${index + 1} (${quote(entry.trim())})`;
    const result = parseTokenEntry(entry);
    if (!result.ok) {
      errors.push(`${label} ${result.reason}`);
      return;
    }
    const { key, value } = result.value;
    const lower = key.toLowerCase();
    if (seen.has(lower)) {
      errors.push(`${label} repeats the key ${quote(key)}`);
      return;
    }
    seen.add(lower);
    entries.push([key, value]);
  });
  // Object.fromEntries defines own properties, so a key such as `__proto__` is kept as a token.
  return errors.length > 0 ? { ok: false, errors } : { ok: true, tokens: Object.fromEntries(entries) };
}
