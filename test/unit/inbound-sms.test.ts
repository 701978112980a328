import { describe, expect, it } from 'vitest';
import { MAX_BODY_CHARS, MAX_MEDIA, optOutKeyword, readInboundSms } from '../../shared/messaging/inbound-sms.js';

describe('reading the carrier’s inbound-SMS fields', () => {
  const base = { MessageSid: 'SM0123456789abcdef0123456789abcdef', From: '+14155552671', To: '+14155550100', Body: 'hi', NumMedia: '0' };

  it('takes the message id, numbers and body as sent', () => {
    expect(readInboundSms(base)).toEqual({ messageSid: base.MessageSid, from: base.From, to: base.To, body: 'hi', mediaUrls: [] });
  });

  it('falls back to SmsSid and drops a message without a usable id', () => {
    expect(readInboundSms({ ...base, MessageSid: undefined, SmsSid: 'SMabc' })?.messageSid).toBe('SMabc');
    expect(readInboundSms({ ...base, MessageSid: undefined })).toBeUndefined();
    expect(readInboundSms({ ...base, MessageSid: 'x'.repeat(129) })).toBeUndefined();
    expect(readInboundSms({ ...base, MessageSid: 'has space' })).toBeUndefined();
  });

  it('trims the body by characters (not UTF-16 units) and bounds the media', () => {
    expect(readInboundSms({ ...base, Body: '😀'.repeat(MAX_BODY_CHARS + 1) })!.body).toBe('😀'.repeat(MAX_BODY_CHARS));
    const media = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`MediaUrl${index}`, `https://m.example/${index}`]));
    expect(readInboundSms({ ...base, NumMedia: '12', ...media })!.mediaUrls).toHaveLength(MAX_MEDIA);
    expect(readInboundSms({ ...base, NumMedia: '2', MediaUrl0: 'javascript:alert(1)', MediaUrl1: `https://m.example/${'a'.repeat(1000)}` })!.mediaUrls).toEqual([]);
    expect(readInboundSms({ ...base, NumMedia: '999', MediaUrl0: 'https://m.example/0' })!.mediaUrls).toEqual([]);
    expect(readInboundSms({ ...base, Body: ['not', 'text'] })!.body).toBe('');
  });

  it('keeps numbers only when they are short text', () => {
    expect(readInboundSms({ ...base, From: 'x'.repeat(65) })!.from).toBe('');
  });
});

describe('opt-out keywords', () => {
  it('are the whole message, in any case, blanks around ignored', () => {
    expect(optOutKeyword('STOP')).toBe('stop');
    expect(optOutKeyword('  Unsubscribe\n')).toBe('unsubscribe');
    expect(optOutKeyword('stopall')).toBe('stopall');
    expect(optOutKeyword('please stop')).toBeNull();
    expect(optOutKeyword('stopped')).toBeNull();
    expect(optOutKeyword('')).toBeNull();
  });
});
