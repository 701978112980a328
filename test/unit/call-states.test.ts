import { describe, expect, it } from 'vitest';
import { CALL_MOVES, ENDED, endedStatus, type LiveStatus } from '../../shared/calls/call-states.js';

describe('the call state machine', () => {
  it('ends each live status in an ended status its moves allow', () => {
    const cases: Array<[LiveStatus, string | undefined, string]> = [
      ['ringing', undefined, 'completed'],
      ['in_progress', undefined, 'completed'],
      ['ivr', undefined, 'canceled'],
      ['dialing', 'busy', 'busy'],
      ['dialing', 'failed', 'failed'],
      ['dialing', 'canceled', 'canceled'],
      ['dialing', 'no-answer', 'no_answer'],
      ['dialing', undefined, 'no_answer'],
    ];
    for (const [status, carrier, ended] of cases) {
      expect(endedStatus(status, carrier)).toBe(ended);
      expect(CALL_MOVES[status]).toContain(ended);
      expect(ENDED.has(ended)).toBe(true);
    }
  });

  it('keeps an ended status as it is', () => {
    for (const status of ENDED) expect(endedStatus(status, 'busy')).toBe(status);
  });
});
