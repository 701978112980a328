import { describe, expect, it } from 'vitest';
import { EmptyNameError, ItemTooLargeError, KeyTooLongError, checkCommandInput, itemSize, UnstorableNumberError } from '../../shared/db/item-limits.js';
import { ValidationError } from '../../shared/http/errors.js';
import { boundParams, INPUT_LIMITS, jsonDepthExceeds, PayloadTooLargeError, pathParamTooLong } from '../../shared/http/input-limits.js';
import { redactParams, redactUrl } from '../../shared/http/redact.js';
import { RESPONSE_BUDGET_BYTES, rowsWithinBudget } from '../../shared/http/response-budget.js';

function errorsOf(run: () => unknown): Record<string, string[]> {
  try {
    run();
  } catch (error) {
    if (error instanceof ValidationError || error instanceof PayloadTooLargeError) return error.errors;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('boundParams', () => {
  it('drops prototype keys and empty names at any depth and keeps everything else', () => {
    const input = JSON.parse('{"a":1,"__proto__":{"x":1},"":2,"b":{"constructor":{"prototype":{"y":1}},"c":[1,{"__proto__":3,"d":"e"}],"":4}}');
    expect(boundParams(input)).toEqual({ a: 1, b: { c: [1, { d: 'e' }] } });
    expect(Object.getPrototypeOf(boundParams(input))).toBe(Object.prototype);
  });

  it('refuses nesting past the limit, naming the field, and counts arrays as levels', () => {
    let deep: unknown = 1;
    for (let i = 0; i < INPUT_LIMITS.depth + 1; i++) deep = [deep];
    expect(Object.keys(errorsOf(() => boundParams({ data: deep })))).toEqual([`data${'.0'.repeat(INPUT_LIMITS.depth)}`]);
    let ok: unknown = 1;
    for (let i = 0; i < INPUT_LIMITS.depth; i++) ok = [ok];
    expect(boundParams({ data: ok })).toEqual({ data: ok });
  });

  it('refuses more entries than the limit with 413', () => {
    const wide = Object.fromEntries(Array.from({ length: INPUT_LIMITS.entries + 1 }, (_, i) => [`k${i}`, i]));
    expect(() => boundParams(wide)).toThrow(PayloadTooLargeError);
    expect(() => boundParams(Object.fromEntries(Array.from({ length: INPUT_LIMITS.entries }, (_, i) => [`k${i}`, i])))).not.toThrow();
  });

  it('refuses long strings and names, and numbers outside the range, per field', () => {
    expect(errorsOf(() => boundParams({ name: 'x'.repeat(INPUT_LIMITS.stringChars + 1) }))).toEqual({ name: [`is too long (maximum is ${INPUT_LIMITS.stringChars} characters)`] });
    expect(boundParams({ name: 'x'.repeat(INPUT_LIMITS.stringChars) }).name).toHaveLength(INPUT_LIMITS.stringChars);
    expect(Object.keys(errorsOf(() => boundParams({ a: 1e16, b: -1e16, c: 1e-12, d: Number.NaN })))).toEqual(['a', 'b', 'c', 'd']);
    expect(boundParams({ a: 1e15, b: 0, c: -0.5, d: 1e-9 })).toEqual({ a: 1e15, b: 0, c: -0.5, d: 1e-9 });
    expect(Object.keys(errorsOf(() => boundParams({ ['k'.repeat(INPUT_LIMITS.keyChars + 1)]: 1 })))).toEqual(['base']);
  });

  it('names inherited property names as fields like any other', () => {
    expect(errorsOf(() => boundParams({ toString: 'x'.repeat(INPUT_LIMITS.stringChars + 1), hasOwnProperty: 1e20 }))).toEqual({
      toString: [`is too long (maximum is ${INPUT_LIMITS.stringChars} characters)`],
      hasOwnProperty: [`must be between -${INPUT_LIMITS.numberMagnitude} and ${INPUT_LIMITS.numberMagnitude}`],
    });
  });

  it('handles hostile nesting without recursion', () => {
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 100_000; i++) deep = deep.a = {} as Record<string, unknown>;
    expect(() => boundParams(top)).toThrow(ValidationError);
  });
});

describe('jsonDepthExceeds', () => {
  it('measures nesting outside strings in one pass', () => {
    expect(jsonDepthExceeds('{"a":[[1]]}', 3)).toBe(false);
    expect(jsonDepthExceeds('{"a":[[[1]]]}', 3)).toBe(true);
    expect(jsonDepthExceeds('{"a":"[[[[[[\\"[[["}', 1)).toBe(false);
    expect(jsonDepthExceeds('['.repeat(1_000_000), 8)).toBe(true);
  });
});

describe('path parameters', () => {
  it('are too long past the limit only', () => {
    expect(pathParamTooLong('x'.repeat(INPUT_LIMITS.pathParamChars))).toBe(false);
    expect(pathParamTooLong('x'.repeat(INPUT_LIMITS.pathParamChars + 1))).toBe(true);
    expect(pathParamTooLong(undefined)).toBe(false);
  });
});

describe('the storage guard', () => {
  it('refuses long keys, unstorable numbers, empty names and items over the budget', () => {
    expect(() => checkCommandInput({ Key: { pk: 'p'.repeat(2_048), sk: 's' } })).toThrow(KeyTooLongError);
    expect(() => checkCommandInput({ TransactItems: [{ Put: { Item: { pk: 'p', sk: 's'.repeat(1_024) } } }] })).toThrow(KeyTooLongError);
    expect(() => checkCommandInput({ RequestItems: { t: { Keys: [{ pk: 'p'.repeat(3_000), sk: 's' }] } } })).toThrow(KeyTooLongError);
    expect(() => checkCommandInput({ ExpressionAttributeValues: { ':pk': 'p'.repeat(3_000) } })).toThrow(KeyTooLongError);
    expect(() => checkCommandInput({ Item: { pk: 'p', sk: 's', nested: { list: [1, 1e130] } } })).toThrow(UnstorableNumberError);
    expect(() => checkCommandInput({ Item: { pk: 'p', sk: 's', nested: { '': 1 } } })).toThrow(EmptyNameError);
    expect(() => checkCommandInput({ Item: { pk: 'p', sk: 's', text: 'x'.repeat(400_000) } })).toThrow(ItemTooLargeError);
    expect(() => checkCommandInput({ Item: { pk: 'p'.repeat(2_000), sk: 's'.repeat(1_000), n: 1e100, text: 'x'.repeat(250_000) } })).not.toThrow();
  });

  it('sizes items by UTF-8 bytes and names the largest attribute', () => {
    expect(itemSize({ a: 'é' }).bytes).toBe(1 + 2);
    expect(itemSize({ small: 'x', large: 'y'.repeat(100) }).largest).toBe('large');
  });
});

describe('redaction', () => {
  it('replaces secret-named parameters at any depth and in URLs', () => {
    expect(redactParams({ auth_token: 'abc', zip: '1', nested: { secret: 's', list: [{ password: 'p' }] } })).toEqual({
      auth_token: '[redacted]',
      zip: '1',
      nested: { secret: '[redacted]', list: [{ password: '[redacted]' }] },
    });
    expect(redactUrl('/api/v1/offers?auth_token=abc&page=2')).toBe('/api/v1/offers?auth_token=[redacted]&page=2');
    expect(redactUrl('/api/v1/offers?Auth_Token=abc')).toBe('/api/v1/offers?Auth_Token=[redacted]');
    expect(redactUrl('/api/v1/offers')).toBe('/api/v1/offers');
  });
});

describe('the response budget', () => {
  it('keeps rows while they fit, and always at least one', () => {
    const row = { text: 'x'.repeat(1_000_000) };
    expect(rowsWithinBudget([row, row, row, row, row, row, row])).toBe(4);
    expect(rowsWithinBudget([{ text: 'x'.repeat(RESPONSE_BUDGET_BYTES + 1) }])).toBe(1);
    expect(rowsWithinBudget([])).toBe(0);
    expect(rowsWithinBudget([{ a: 1 }, { a: 2 }])).toBe(2);
  });
});
