import { describe, expect, it } from 'vitest';
import { TwilioCallControl } from '../../shared/adapters/aws/twilio-call-control.js';

/** Outbound calls of offers with an answering machine flow ask Twilio to detect machines, synchronously. */
describe('Twilio call control: machine detection', () => {
  const placing = async (machineDetection?: boolean) => {
    const bodies: string[] = [];
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      bodies.push(String(init.body));
      return new Response('{"sid":"CA1"}', { status: 201 });
    }) as unknown as typeof fetch;
    const placed = await new TwilioCallControl({ accountSid: 'AC1', authToken: 'secret' }, fakeFetch).placeCall({
      to: '+14155552671',
      from: '+14155550100',
      answerUrl: 'https://api.test/answer',
      statusUrl: 'https://api.test/status',
      timeoutSeconds: 30,
      ...(machineDetection === undefined ? {} : { machineDetection }),
    });
    expect(placed).toEqual({ carrierCallId: 'CA1' });
    return new URLSearchParams(bodies[0]);
  };

  it('sends MachineDetection=DetectMessageEnd with AsyncAmd off, so the answer webhook carries AnsweredBy after the greeting', async () => {
    const fields = await placing(true);
    expect(fields.get('MachineDetection')).toBe('DetectMessageEnd');
    expect(fields.get('AsyncAmd')).toBe('false');
    expect(fields.get('Url')).toBe('https://api.test/answer');
  });

  it('sends no detection fields otherwise', async () => {
    for (const fields of [await placing(), await placing(false)]) {
      expect(fields.has('MachineDetection')).toBe(false);
      expect(fields.has('AsyncAmd')).toBe(false);
    }
  });
});
