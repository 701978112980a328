import { describe, expect, it } from 'vitest';
import { matchKeyPressFlow } from '../../shared/call-config/key-presses.js';
import { decideMenu, matchAnswer, type MenuAnswer } from '../../shared/call-config/router-matching.js';
import { transferTwiml, twimlFor } from '../../shared/voice/twiml.js';

const answers: MenuAnswer[] = [
  { id: 1, digits: '1', speech_keywords: ['sales', 'buy something'] },
  { id: 2, digits: '2', speech_keywords: ['support'] },
  { id: 3, digits: '22', speech_keywords: [] },
  { id: 4, digits: '3', speech_keywords: ['billing'], enabled: false },
];
const input = (digits: string, speech = '') => ({ digits, speech });

describe('matchAnswer', () => {
  it('matches keys exactly, a trailing # not counting', () => {
    expect(matchAnswer(answers, input('2'))?.id).toBe(2);
    expect(matchAnswer(answers, input('22'))?.id).toBe(3);
    expect(matchAnswer(answers, input('22#'))?.id).toBe(3);
    expect(matchAnswer(answers, input('#'))).toBeUndefined();
    expect(matchAnswer(answers, input('9'))).toBeUndefined();
  });

  it('matches spoken keywords as whole words, case and punctuation aside', () => {
    expect(matchAnswer(answers, input('', 'I want SUPPORT, please.'))?.id).toBe(2);
    expect(matchAnswer(answers, input('', 'I would like to buy something'))?.id).toBe(1);
    expect(matchAnswer(answers, input('', 'supporting act'))).toBeUndefined();
    expect(matchAnswer(answers, input('', ''))).toBeUndefined();
  });

  it('skips disabled answers and prefers keys over words', () => {
    expect(matchAnswer(answers, input('3', 'billing'))).toBeUndefined();
    expect(matchAnswer(answers, input('1', 'support'))?.id).toBe(1);
  });
});

describe('decideMenu', () => {
  const fallback: MenuAnswer = { id: 9, digits: null };
  it('answers a match, repeats within max_repeats, then takes the default or hangs up', () => {
    expect(decideMenu(answers, fallback, input('2'), 0, 2)).toMatchObject({ kind: 'answer', by: 'input', answer: { id: 2 } });
    expect(decideMenu(answers, fallback, input('7'), 0, 2)).toEqual({ kind: 'repeat', repeats: 1, reason: 'invalid_input' });
    expect(decideMenu(answers, fallback, input(''), 1, 2)).toEqual({ kind: 'repeat', repeats: 2, reason: 'no_input' });
    expect(decideMenu(answers, fallback, input(''), 2, 2)).toMatchObject({ kind: 'answer', by: 'default', answer: { id: 9 } });
    expect(decideMenu(answers, undefined, input('7'), 0, 0)).toEqual({ kind: 'hangup', reason: 'invalid_input' });
    expect(decideMenu(answers, { id: 9, enabled: false } as MenuAnswer, input(''), 0, 0)).toEqual({ kind: 'hangup', reason: 'no_input' });
  });
});

describe('matchKeyPressFlow', () => {
  it('takes the first enabled flow with the same digits', () => {
    const flows = [
      { id: 1, digits: '9', enabled: false },
      { id: 2, digits: '9' },
      { id: 3, digits: '9' },
      { id: 4, digits: '*1' },
    ];
    expect(matchKeyPressFlow(flows, '9')?.id).toBe(2);
    expect(matchKeyPressFlow(flows, '*1#')?.id).toBe(4);
    expect(matchKeyPressFlow(flows, '8')).toBeUndefined();
  });
});

describe('gather and transfer TwiML', () => {
  it('gathers keys and words with the prompt, falling through to the same action without input', () => {
    const twiml = twimlFor(
      { kind: 'gather', companyId: 3, callId: 44, step: 2, say: ['Sorry & again', 'Press 1'], playUrls: ['https://sounds.test/a.mp3'], numDigits: 2, timeoutSeconds: 7, speech: true },
      { base: 'https://api.test/api/v1/voice/twilio' },
    );
    const action = 'https://api.test/api/v1/voice/twilio/router_answer?company=3&amp;call=44&amp;step=2';
    expect(twiml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Gather input="dtmf speech" numDigits="2" timeout="7" speechTimeout="auto" action="${action}" method="POST">` +
        '<Say>Sorry &amp; again</Say><Say>Press 1</Say><Play>https://sounds.test/a.mp3</Play></Gather>' +
        `<Redirect method="POST">${action}</Redirect></Response>`,
    );
  });

  it('transfers to a number or a SIP address', () => {
    expect(transferTwiml('+14155550100')).toContain('<Dial timeLimit="14400"><Number>+14155550100</Number></Dial>');
    expect(transferTwiml('sip:desk@pbx.test')).toContain('<Sip>sip:desk@pbx.test</Sip>');
  });
});
