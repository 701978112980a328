import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCall, findCallByCarrierId, getCall, type CallRecord } from '../../shared/calls/call-store.js';
import { timeOfId, timeSortableId } from '../../shared/db/ids.js';

type NewCall = CallRecord & { carrier: string; carrier_call_id: string };

function newCall(id: number, carrierCallId = `CA${randomUUID()}`): NewCall {
  const at = new Date(timeOfId(id)).toISOString();
  return {
    id,
    uuid: randomUUID(),
    created_at: at,
    updated_at: at,
    carrier: 'twilio',
    carrier_call_id: carrierCallId,
    status: 'ringing',
    in_progress: true,
    caller_number: '+14155550123',
    offer_id: null,
    version: 0,
  };
}

describe('createCall', () => {
  it('draws a new id in the same millisecond when another call of the company has this one', async () => {
    const companyId = 3_000_000 + randomInt(1_000_000);
    const id = timeSortableId(Date.now());
    const first = newCall(id);
    const second = newCall(id);
    expect(await createCall(companyId, first)).toBe(true);
    expect(await createCall(companyId, second)).toBe(true);
    expect(second.id).not.toBe(id);
    expect(timeOfId(second.id)).toBe(timeOfId(id));
    expect((await getCall(companyId, id))?.uuid).toBe(first.uuid);
    expect((await getCall(companyId, second.id))?.uuid).toBe(second.uuid);
    expect((await findCallByCarrierId('twilio', second.carrier_call_id))?.call.id).toBe(second.id);
  });

  it('answers false for a carrier call that already has a record (a retried webhook)', async () => {
    const companyId = 4_000_000 + randomInt(1_000_000);
    const sid = `CA${randomUUID()}`;
    const first = newCall(timeSortableId(Date.now()), sid);
    expect(await createCall(companyId, first)).toBe(true);
    // The retry has its own id, or even the same one: either way it is the same carrier call.
    expect(await createCall(companyId, newCall(timeSortableId(Date.now()), sid))).toBe(false);
    expect(await createCall(companyId, newCall(first.id, sid))).toBe(false);
    expect((await findCallByCarrierId('twilio', sid))?.call.uuid).toBe(first.uuid);
  });
});
