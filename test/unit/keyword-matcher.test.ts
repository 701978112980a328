import { describe, expect, it } from 'vitest';
import { containsKeyword, matchingGroups, tagsOf, type KeywordGroup } from '../../shared/call-config/keyword-matcher.js';
import { carrierRecording, isAllowedRecording } from '../../shared/voice/recording-media.js';

const group = (id: number, keywords: string[], extra: Partial<KeywordGroup> = {}): KeywordGroup => ({ id, keywords, match_mode: 'any', ...extra });

describe('keyword matcher', () => {
  it('matches whole words and phrases, case and punctuation aside', () => {
    expect(containsKeyword('I want a REFUND!', 'refund')).toBe(true);
    expect(containsKeyword('I was refunded', 'refund')).toBe(false);
    expect(containsKeyword('prefund', 'refund')).toBe(false);
    expect(containsKeyword('Give me my money-back, now.', 'money back')).toBe(true);
    expect(containsKeyword('money, back', 'money back')).toBe(true);
    expect(containsKeyword('money, then back', 'money back')).toBe(false);
    expect(containsKeyword('money is back', 'money back')).toBe(false);
    expect(containsKeyword("I don't know", "don't")).toBe(true);
    expect(containsKeyword('Ça coûte trop cher', 'coûte')).toBe(true);
    expect(containsKeyword('anything', '   ')).toBe(false);
    expect(containsKeyword('a (b) c', '(b)')).toBe(true);
  });

  it("takes any or all of a group's keywords, and only groups of the call's offer or of none", () => {
    const groups = [
      group(1, ['cancel', 'refund']),
      group(2, ['gold plan', 'credit card'], { match_mode: 'all' }),
      group(3, ['cancel'], { offer_id: 7 }),
      group(4, []),
    ];
    expect(matchingGroups('Cancel it', groups, 7).map((g) => g.id)).toEqual([1, 3]);
    expect(matchingGroups('Cancel it', groups, 8).map((g) => g.id)).toEqual([1]);
    expect(matchingGroups('Cancel it', groups, null).map((g) => g.id)).toEqual([1]);
    expect(matchingGroups('the gold plan', groups).map((g) => g.id)).toEqual([]);
    expect(matchingGroups('the gold plan on my credit card', groups).map((g) => g.id)).toEqual([2]);
    expect(matchingGroups('', groups)).toEqual([]);
  });

  it('tags with the tag name, else the name, each once', () => {
    expect(tagsOf([group(1, ['a'], { tag_name: 'churn', name: 'Churn group' }), group(2, ['b'], { name: 'Sale' }), group(3, ['c'], { tag_name: 'churn' }), group(4, ['d'])])).toEqual(['churn', 'Sale']);
  });

  it('stays linear on long input', () => {
    const long = 'word '.repeat(20_000);
    const started = performance.now();
    expect(matchingGroups(long, [group(1, Array.from({ length: 50 }, (_, i) => `phrase number ${i}`))])).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('recordings a standalone transcription may name', () => {
  it("are the carrier's recording URLs and recordings/ keys, nothing else", () => {
    const sid = 'a'.repeat(32);
    expect(isAllowedRecording(`https://api.twilio.com/2010-04-01/Accounts/AC${sid}/Recordings/RE${sid}`)).toBe(true);
    expect(isAllowedRecording(`https://api.twilio.com/2010-04-01/Accounts/AC${sid}/Recordings/RE${sid}.mp3?transcript=hi+there`)).toBe(true);
    expect(isAllowedRecording('recordings/2026/11/call-1.wav')).toBe(true);
    for (const refused of [
      `http://api.twilio.com/2010-04-01/Accounts/AC${sid}/Recordings/RE${sid}`,
      `https://api.twilio.com.evil.example/2010-04-01/Accounts/AC${sid}/Recordings/RE${sid}`,
      `https://api.twilio.com@169.254.169.254/2010-04-01/Accounts/AC${sid}/Recordings/RE${sid}`,
      'https://169.254.169.254/latest/meta-data/',
      'recordings/../etc/passwd',
      'recordings//x',
      '/recordings/x.wav',
      'other/x.wav',
      `recordings/${'a'.repeat(2000)}`,
    ]) {
      expect(isAllowedRecording(refused), refused).toBe(false);
    }
  });
});

describe('carrier recordings (the only media ever fetched, to copy them for Transcribe)', () => {
  it("give their account and recording ids; nothing else is a carrier recording", () => {
    const account = `AC${'a'.repeat(32)}`;
    const recording = `RE${'b'.repeat(32)}`;
    const url = `https://api.twilio.com/2010-04-01/Accounts/${account}/Recordings/${recording}`;
    expect(carrierRecording(url)).toEqual({ accountSid: account, recordingSid: recording });
    expect(carrierRecording(`${url}.wav?transcript=x`)).toEqual({ accountSid: account, recordingSid: recording });
    for (const other of [`https://api.twilio.com.evil.example/2010-04-01/Accounts/${account}/Recordings/${recording}`, `${url}/../x`, 'recordings/call-1.wav', `${url}?${'a'.repeat(1100)}`]) {
      expect(carrierRecording(other), other).toBeUndefined();
    }
  });
});
