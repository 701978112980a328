import { addFieldError, HttpError, ValidationError, type FieldErrors } from './errors.js';
import type { Params } from './request.js';

import type { LargeFieldLimit } from './large-field-limit.js';

export type { LargeFieldLimit };

/**
 * The limits every request is held to before any operation sees it, checked once here so that
 * a new route inherits them. They sit well inside DynamoDB's own (2,048-byte partition keys,
 * 1,024-byte sort keys, 400 KB items, 38-digit numbers between 1e-130 and 1e126) and
 * JavaScript's (safe integers), so nothing a client sends can make a write fail later.
 * docs/limits.md lists them for clients.
 */
export const INPUT_LIMITS = {
  /** Largest request body read at all (API Gateway allows 10 MB; no endpoint needs more than this). */
  bodyBytes: 1_000_000,
  /** Largest body parsed before credentials are known (for an `auth_token` sent in a small form). */
  unauthenticatedBodyBytes: 16_384,
  /** Nesting of objects and arrays in a body or `qs` parameters (`a[b][c]` is depth 3). */
  depth: 8,
  /** Keys and array items in all parameters together. */
  entries: 2_000,
  /** Characters of one parameter name. */
  keyChars: 256,
  /** Characters of one string value (free text such as notes and templates included). */
  stringChars: 10_000,
  /** Characters of one path parameter: ids, uuids, tokens, vanity names and numbers are all far shorter. */
  pathParamChars: 256,
  /** Largest magnitude of a number: money in cents and counters stay safe integers. */
  numberMagnitude: 1e15,
  /** Smallest non-zero magnitude of a number (DynamoDB refuses below 1e-130). */
  numberPrecision: 1e-9,
} as const;

/** Keys that could reach an object's prototype when copied with assignment: dropped wherever they appear. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export class PayloadTooLargeError extends HttpError {
  constructor(field: string, message: string) {
    super(413, message, { [field]: [message] });
  }
}

/**
 * The deepest nesting of `[` and `{` in JSON text, outside strings; stops counting past `limit`.
 * One linear pass, so a megabyte of brackets is refused before JSON.parse builds it.
 */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92 /* \ */) i++;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 91 /* [ */ || char === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (char === 93 /* ] */ || char === 125 /* } */) depth--;
  }
  return false;
}

function describeNumberProblem(value: number): string | undefined {
  if (!Number.isFinite(value)) return 'is not a finite number';
  const magnitude = Math.abs(value);
  if (magnitude > INPUT_LIMITS.numberMagnitude) return `must be between -${INPUT_LIMITS.numberMagnitude} and ${INPUT_LIMITS.numberMagnitude}`;
  if (magnitude !== 0 && magnitude < INPUT_LIMITS.numberPrecision) return `must be 0 or at least ${INPUT_LIMITS.numberPrecision} in magnitude`;
  return undefined;
}

/**
 * Checks parsed parameters against the limits without recursion (hostile nesting cannot
 * overflow the stack) and returns a copy without prototype keys. Problems are collected per
 * field path and thrown together as one 422.
 */
export function boundParams(input: Params, largeField?: LargeFieldLimit): Params {
  const errors: FieldErrors = {};
  const fail = (path: string, message: string) => addFieldError(errors, path || 'base', message, 3);
  const root: Params = {};
  let entries = 0;
  // Each frame copies one container's members into its already-created copy.
  const stack: Array<{ source: unknown; target: Record<string, unknown> | unknown[]; path: string; depth: number }> = [
    { source: input, target: root, path: '', depth: 0 },
  ];
  while (stack.length) {
    const { source, target, path, depth } = stack.pop()!;
    const members: Array<[string, unknown]> = Array.isArray(source)
      ? source.map((value, index) => [String(index), value])
      : Object.keys(source as object).map((key) => [key, (source as Record<string, unknown>)[key]]);
    for (const [key, value] of members) {
      // Prototype keys could reach an object's prototype; an empty name names nothing (and DynamoDB refuses it).
      if (!Array.isArray(source) && (PROTOTYPE_KEYS.has(key) || key === '')) continue;
      entries++;
      if (entries > INPUT_LIMITS.entries) throw new PayloadTooLargeError('base', `has more than ${INPUT_LIMITS.entries} parameters`);
      const shownKey = key.length > 40 ? `${key.slice(0, 40)}…` : key;
      const fieldPath = path ? `${path}.${shownKey}` : shownKey;
      if (key.length > INPUT_LIMITS.keyChars) {
        fail(path || 'base', `has a parameter name longer than ${INPUT_LIMITS.keyChars} characters`);
        continue;
      }
      let copy: unknown = value;
      if (typeof value === 'string') {
        const chars = largeField && key === largeField.field && depth <= 1 ? largeField.chars : INPUT_LIMITS.stringChars;
        if (value.length > chars) fail(fieldPath, `is too long (maximum is ${chars} characters)`);
      } else if (typeof value === 'number') {
        const problem = describeNumberProblem(value);
        if (problem) fail(fieldPath, problem);
      } else if (value !== null && typeof value === 'object') {
        if (depth + 1 > INPUT_LIMITS.depth) {
          fail(fieldPath, `is nested more than ${INPUT_LIMITS.depth} levels deep`);
          continue;
        }
        copy = Array.isArray(value) ? [] : {};
        stack.push({ source: value, target: copy as Record<string, unknown>, path: fieldPath, depth: depth + 1 });
      }
      if (Array.isArray(target)) target.push(copy);
      else target[key] = copy;
    }
  }
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return root;
}

/** A path parameter longer than any real id, token or name cannot name anything: 404. */
export function pathParamTooLong(value: string | undefined): boolean {
  return value !== undefined && value.length > INPUT_LIMITS.pathParamChars;
}
