import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../shared/http/cursor.js';

// Contract (shared/http/cursor.ts): a cursor is bound to the company and resource and signed with
// the deployment's key; anything malformed, tampered with or from elsewhere decodes to undefined.
const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const HERE = { companyId: 41, resource: 'calls' };
const position = { ...HERE, lastId: 1_234_567 };

const parts = (token: string) => {
  const [payload, signature] = token.split('.') as [string, string];
  return { payload, signature };
};

/** The same text with character `index` replaced by another base64url character. */
function flip(text: string, index: number): string {
  const swapped = text[index] === 'A' ? 'B' : 'A';
  return `${text.slice(0, index)}${swapped}${text.slice(index + 1)}`;
}

describe('cursor', () => {
  it('round-trips a position for the same company and resource', () => {
    expect(decodeCursor(encodeCursor(position, KEY), KEY, HERE)).toEqual(position);
    expect(decodeCursor(encodeCursor({ ...HERE, lastId: 0 }, KEY), KEY, HERE)).toEqual({ ...HERE, lastId: 0 });
  });

  it('refuses a cursor whose signature was cut short, down to a single character', () => {
    const { payload, signature } = parts(encodeCursor(position, KEY));
    for (const length of [1, 2, signature.length - 1]) {
      expect(decodeCursor(`${payload}.${signature.slice(0, length)}`, KEY, HERE), `signature of ${length} chars`).toBeUndefined();
    }
    // A longer one too: the whole MAC, nothing more and nothing less.
    expect(decodeCursor(`${payload}.${signature}A`, KEY, HERE)).toBeUndefined();
  });

  it('refuses a forged cursor that differs from a valid one only in one character of its signature', () => {
    const { payload, signature } = parts(encodeCursor(position, KEY));
    for (const index of [0, Math.floor(signature.length / 2), signature.length - 1]) {
      expect(decodeCursor(`${payload}.${flip(signature, index)}`, KEY, HERE), `character ${index}`).toBeUndefined();
    }
  });

  it('refuses a payload carrying the signature of another payload', () => {
    const mine = parts(encodeCursor(position, KEY));
    const other = parts(encodeCursor({ ...position, lastId: 99 }, KEY));
    expect(decodeCursor(`${other.payload}.${mine.signature}`, KEY, HERE)).toBeUndefined();
    expect(decodeCursor(`${mine.payload}.${other.signature}`, KEY, HERE)).toBeUndefined();
  });

  it('refuses a cursor signed with another key', () => {
    expect(decodeCursor(encodeCursor(position, OTHER_KEY), KEY, HERE)).toBeUndefined();
  });

  it('refuses another company\'s cursor and a cursor of another resource, though correctly signed', () => {
    expect(decodeCursor(encodeCursor({ ...position, companyId: 42 }, KEY), KEY, HERE)).toBeUndefined();
    expect(decodeCursor(encodeCursor({ ...position, resource: 'leads' }, KEY), KEY, HERE)).toBeUndefined();
  });

  it.each([
    ['an empty token', ''],
    ['no signature', 'abc'],
    ['an empty signature', 'abc.'],
    ['an empty payload', '.abc'],
    ['a third part', `${encodeCursor(position, KEY)}.x`],
  ])('refuses %s', (_label, token) => {
    expect(decodeCursor(token, KEY, HERE)).toBeUndefined();
  });

  it('refuses a correctly signed cursor whose last id is not a safe non-negative integer', () => {
    // Signed with the real key, so only the payload checks can refuse them.
    for (const lastId of [-1, 1.5, 2 ** 53, '7', null] as unknown as number[]) {
      expect(decodeCursor(encodeCursor({ ...HERE, lastId }, KEY), KEY, HERE), String(lastId)).toBeUndefined();
    }
    expect(decodeCursor(encodeCursor({ ...HERE, lastId: Number.MAX_SAFE_INTEGER }, KEY), KEY, HERE)).toEqual({ ...HERE, lastId: Number.MAX_SAFE_INTEGER });
  });
});
