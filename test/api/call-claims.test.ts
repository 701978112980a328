import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { findCallByCarrierId } from '../../shared/calls/call-store.js';
import { db } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useGateway } from '../fixtures/gateway.js';
import { callFields, carrierPost, dialOf, newCallSid, offerWithBuyers, showBuyer, VOICE_BASE } from '../fixtures/voice.js';

/**
 * A buyer is claimed inside the transaction that saves the call (shared/routing/claim.ts,
 * claimInSave), at call start and on a fall-through. Two calls that read a buyer with one free
 * concurrent call race for it: the transactions are held until both were sent, so both decided
 * from the same counters; exactly one gets the buyer, the other's save is cancelled by the
 * claim's condition, and it goes on to the next buyer naming the cap that stopped it.
 */
const gateway = useGateway();
usePinnedClockForAll(midDayTomorrow);

const GATE = 'testClaimRaceGate';

/**
 * Holds every TransactWriteItems that writes `sk` (a buyer's counter item) until `size` of them
 * were sent, then lets them all go at once; counts those cancelled.
 */
function gateTransactions(sk: string, size: number): { cancelled: () => number } {
  let held: Array<() => void> = [];
  let open = false;
  let cancelled = 0;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const writesItem = context.commandName === 'TransactWriteItemsCommand' && JSON.stringify(args.input).includes(`"sk":"${sk}"`);
      if (writesItem && !open) {
        await new Promise<void>((release) => {
          held.push(release);
          if (held.length >= size) {
            open = true;
            held.forEach((go) => go());
            held = [];
          }
        });
      }
      try {
        return await next(args);
      } catch (error) {
        if (writesItem && error instanceof TransactionCanceledException) cancelled += 1;
        throw error;
      }
    },
    { step: 'initialize', name: GATE },
  );
  return { cancelled: () => cancelled };
}

afterEach(() => {
  db.middlewareStack.remove(GATE);
});

async function setup(buyerFields: Array<Record<string, unknown>>): Promise<{ company: TestCompany; buyers: Array<Record<string, any>>; number: string }> {
  const company = await createTestCompany('call-claims');
  return { company, ...(await offerWithBuyers(gateway, company, buyerFields)) };
}

async function routingOf(sid: string): Promise<Record<string, any>[]> {
  const found = await findCallByCarrierId('twilio', sid);
  return (found!.call.timeline as Array<Record<string, any>>).filter((entry) => entry.type === 'routing');
}

describe('two calls racing for a buyer with one free concurrent call', () => {
  it('at call start: exactly one dials it, the other the next buyer, naming the cap', async () => {
    const { company, buyers, number } = await setup([{ number: '+12125553000', concurrency_cap_limit: 1 }, { number: '+12125553001' }]);
    const gate = gateTransactions(keys.buyerStats(company.id, buyers[0]!.id).sk, 2);
    const calls = [newCallSid(), newCallSid()].map((sid, index) => ({ sid, from: `+1415555${4000 + index}` }));
    const answers = await Promise.all(calls.map((c) => carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(c.sid, c.from, number), CallStatus: 'ringing' })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const targets = answers.map((answer) => dialOf(answer.text)?.target);
    expect([...targets].sort()).toEqual(['+12125553000', '+12125553001']);
    // Both decided from the same counters: one transaction was cancelled by the claim's condition.
    expect(gate.cancelled()).toBeGreaterThanOrEqual(1);

    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ concurrency_cap_used: 1, attempt_daily_used: 1 });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 1, attempt_daily_used: 1 });
    const loser = calls[targets.indexOf('+12125553001')]!;
    expect((await routingOf(loser.sid))[0]!.excluded).toContainEqual({ buyer_id: buyers[0]!.id, reason: 'concurrency_cap_limit' });
  });

  it('a retried incoming webhook racing the first: one call, one claim, the same Dial for both', async () => {
    const { company, buyers, number } = await setup([{ number: '+12125553200', concurrency_cap_limit: 1 }, { number: '+12125553201' }]);
    const gate = gateTransactions(keys.buyerStats(company.id, buyers[0]!.id).sk, 2);
    const fields = { ...callFields(newCallSid(), '+14155554200', number), CallStatus: 'ringing' };
    const answers = await Promise.all([carrierPost(gateway, `${VOICE_BASE}/incoming`, fields), carrierPost(gateway, `${VOICE_BASE}/incoming`, fields)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers.map((answer) => dialOf(answer.text)?.target)).toEqual(['+12125553200', '+12125553200']);
    expect(gate.cancelled()).toBeGreaterThanOrEqual(1);
    // The lost write held no claim: nothing counted twice, nothing to give back, the next buyer untouched.
    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ concurrency_cap_used: 1, attempt_daily_used: 1 });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 0, attempt_daily_used: 0 });
  });

  it('on a fall-through: exactly one falls through to it, the other to the buyer after it', async () => {
    const { company, buyers, number } = await setup([{ number: '+12125553100' }, { number: '+12125553101', concurrency_cap_limit: 1 }, { number: '+12125553102' }]);
    const calls = [newCallSid(), newCallSid()].map((sid, index) => ({ sid, from: `+1415555${4100 + index}` }));
    // Both ring the first buyer (no cap), one after the other.
    const dials: NonNullable<ReturnType<typeof dialOf>>[] = [];
    for (const c of calls) {
      const dial = dialOf((await carrierPost(gateway, `${VOICE_BASE}/incoming`, { ...callFields(c.sid, c.from, number), CallStatus: 'ringing' })).text)!;
      expect(dial.target).toBe('+12125553100');
      dials.push(dial);
    }
    // Neither answers; both fall through at once.
    const gate = gateTransactions(keys.buyerStats(company.id, buyers[1]!.id).sk, 2);
    const answers = await Promise.all(calls.map((c, index) => carrierPost(gateway, dials[index]!.action, { ...callFields(c.sid, c.from, number), DialCallStatus: 'no-answer', DialCallDuration: '0' })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    const targets = answers.map((answer) => dialOf(answer.text)?.target);
    expect([...targets].sort()).toEqual(['+12125553101', '+12125553102']);
    expect(gate.cancelled()).toBeGreaterThanOrEqual(1);

    expect(await showBuyer(gateway, company, buyers[0]!.id)).toMatchObject({ concurrency_cap_used: 0, attempt_daily_used: 2 });
    expect(await showBuyer(gateway, company, buyers[1]!.id)).toMatchObject({ concurrency_cap_used: 1, attempt_daily_used: 1 });
    expect(await showBuyer(gateway, company, buyers[2]!.id)).toMatchObject({ concurrency_cap_used: 1, attempt_daily_used: 1 });
    const loser = calls[targets.indexOf('+12125553102')]!;
    const found = await findCallByCarrierId('twilio', loser.sid);
    expect((found!.call.attempts as Array<Record<string, unknown>>).map((attempt) => attempt.buyer_id)).toEqual([buyers[0]!.id, buyers[2]!.id]);
    expect(found!.call.queue).toEqual([]);
  });
});
