import { describe, expect, it } from 'vitest';
import { callbackId, callbackIds, carrierCallId, secondsField, textField } from '../../shared/voice/callback-fields.js';

describe('carrier callback fields', () => {
  it('reads ids only as positive safe integers of at most 16 digits', () => {
    expect(callbackId('42')).toBe(42);
    expect(callbackId('9007199254740991')).toBe(9007199254740991);
    for (const bad of ['0', '-1', '1.5', '1e3', ' 1', '', '9007199254740993', '12345678901234567', 'abc', undefined, 7, ['1'], { a: '1' }]) {
      expect(callbackId(bad), String(bad)).toBeUndefined();
    }
  });

  it('needs all three ids of a dial callback', () => {
    expect(callbackIds({ company: '1', call: '2', attempt: '3' })).toEqual({ companyId: 1, callId: 2, attempt: 3 });
    expect(callbackIds({ company: '1', call: '2' })).toBeUndefined();
    expect(callbackIds({ company: '1', call: '0', attempt: '1' })).toBeUndefined();
  });

  it('takes carrier call ids of printable characters up to 128 long', () => {
    expect(carrierCallId('CA0123456789abcdef0123456789abcdef')).toBe('CA0123456789abcdef0123456789abcdef');
    expect(carrierCallId('v3:abc-DEF_123')).toBe('v3:abc-DEF_123');
    expect(carrierCallId('x'.repeat(128))).toBe('x'.repeat(128));
    for (const bad of ['', 'x'.repeat(129), 'has space', 'tab\t', 'é', 12]) expect(carrierCallId(bad), String(bad)).toBeUndefined();
  });

  it('drops text over its limit and reads durations as whole seconds up to a day', () => {
    expect(textField({ To: '+13125550100' }, 'To')).toBe('+13125550100');
    expect(textField({ To: '1'.repeat(65) }, 'To')).toBe('');
    expect(textField({ To: ['a'] }, 'To')).toBe('');
    expect(secondsField({ d: '75' }, 'd')).toBe(75);
    expect(secondsField({ d: '999999' }, 'd')).toBe(86_400);
    for (const bad of ['-5', '1.5', 'x', '', '1234567']) expect(secondsField({ d: bad }, 'd'), bad).toBe(0);
  });
});
