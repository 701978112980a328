import { describe, expect, it } from 'vitest';
import { hashSecret, mintKeyPair, parseBasicAuthorization, secretMatches } from '../../shared/auth/credentials.js';

const encode = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('credentials', () => {
  it('mints distinct pairs of the documented sizes', () => {
    const a = mintKeyPair();
    const b = mintKeyPair();
    expect(a.publicKey).toMatch(/^[0-9a-f]{32}$/);
    expect(a.privateKey).toMatch(/^[0-9a-f]{64}$/);
    expect(a.privateKey).not.toBe(b.privateKey);
  });

  it('matches a secret only against its own hash', () => {
    const stored = hashSecret('right');
    expect(secretMatches('right', stored)).toBe(true);
    expect(secretMatches('wrong', stored)).toBe(false);
    expect(secretMatches('right', 'abcd')).toBe(false);
  });

  it('parses Basic credentials, splitting at the first colon', () => {
    expect(parseBasicAuthorization(encode('pub:priv:with:colons'))).toEqual({ publicKey: 'pub', privateKey: 'priv:with:colons' });
    expect(parseBasicAuthorization(`basic ${Buffer.from('a:b').toString('base64')}`)).toEqual({ publicKey: 'a', privateKey: 'b' });
  });

  it('rejects malformed headers', () => {
    for (const header of [undefined, '', 'Bearer abc', encode('nocolon'), encode(':priv'), encode('pub:'), 'Basic !!!']) {
      expect(parseBasicAuthorization(header)).toBeUndefined();
    }
  });
});
