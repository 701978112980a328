import { describe, expect, it } from 'vitest';
import { twilioSignature, validTwilioSignature } from '../../shared/voice/twilio-signature.js';

// Twilio's published example ("Validating requests"): auth token 12345, this URL and these fields.
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const TOKEN = '12345';
const FIELDS = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
const SIGNATURE = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';
// The older edition of the same example (also in twilio-python's tests), with caller +14158675309.
const OLDER_FIELDS = { ...FIELDS, Caller: '+14158675309', From: '+14158675309' };
const OLDER_SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

describe('twilioSignature', () => {
  it('matches both editions of Twilio\'s published example', () => {
    expect(twilioSignature(TOKEN, URL, FIELDS)).toBe(SIGNATURE);
    expect(twilioSignature(TOKEN, URL, OLDER_FIELDS)).toBe(OLDER_SIGNATURE);
  });

  it('sorts the fields by name, whatever order they come in', () => {
    const reversed = Object.fromEntries(Object.entries(FIELDS).reverse());
    expect(twilioSignature(TOKEN, URL, reversed)).toBe(SIGNATURE);
  });
});

describe('validTwilioSignature', () => {
  it('accepts the published signature', () => {
    expect(validTwilioSignature(TOKEN, URL, FIELDS, SIGNATURE)).toBe(true);
  });

  it('refuses a changed field, URL, query string, token, or a missing or truncated signature', () => {
    expect(validTwilioSignature(TOKEN, URL, { ...FIELDS, Digits: '9999' }, SIGNATURE)).toBe(false);
    expect(validTwilioSignature(TOKEN, URL, { ...FIELDS, Extra: '' }, SIGNATURE)).toBe(false);
    expect(validTwilioSignature(TOKEN, 'https://mycompany.com/myapp.php?foo=1&bar=3', FIELDS, SIGNATURE)).toBe(false);
    expect(validTwilioSignature(TOKEN, 'http://mycompany.com/myapp.php?foo=1&bar=2', FIELDS, SIGNATURE)).toBe(false);
    expect(validTwilioSignature('54321', URL, FIELDS, SIGNATURE)).toBe(false);
    expect(validTwilioSignature(TOKEN, URL, FIELDS, undefined)).toBe(false);
    expect(validTwilioSignature(TOKEN, URL, FIELDS, '')).toBe(false);
    expect(validTwilioSignature(TOKEN, URL, FIELDS, SIGNATURE.slice(0, -1))).toBe(false);
  });
});
