import { randomInt, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { callKey, createCall, findCallByCarrierId, getCall, getCallByUuid, saveCall, type CallRecord } from '../../shared/calls/call-store.js';
import { callOfUuid, callUuid } from '../../shared/calls/call-uuid.js';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { timeOfId, timeSortableId } from '../../shared/db/ids.js';

const rawItem = async (key: Record<string, unknown>) => (await db.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item;

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

  it('gives a call whose uuid names it no uuid lookup, finds it by uuid, and moves the uuid with a redrawn id', async () => {
    const companyId = 5_000_000 + randomInt(1_000_000);
    const id = timeSortableId(Date.now());
    expect(await createCall(companyId, newCall(id))).toBe(true);
    const second = { ...newCall(id), uuid: callUuid(companyId, id) };
    expect(await createCall(companyId, second)).toBe(true);
    expect(second.id).not.toBe(id);
    expect(callOfUuid(second.uuid)).toEqual({ companyId, callId: second.id });
    expect(await rawItem(keys.globalLookup('calls', 'uuid', second.uuid))).toBeUndefined();
    expect((await getCallByUuid(second.uuid))?.call.id).toBe(second.id);
    // A uuid of the same layout naming this call but not carried by it finds nothing.
    expect(await getCallByUuid(callUuid(companyId, second.id, (Number.parseInt(second.uuid.slice(-2), 16) + 1) % 256))).toBeUndefined();
  });

  it('appends a save\'s timeline entries as one more stored chunk and leaves out a column saved as null', async () => {
    const companyId = 6_000_000 + randomInt(1_000_000);
    const call = { ...newCall(timeSortableId(Date.now())), buyer: 'Acme', timeline: [{ at: new Date().toISOString(), type: 'incoming' }] };
    expect(await createCall(companyId, call)).toBe(true);
    const before = (await getCall(companyId, call.id))!;
    const after = { ...before, buyer: null, timeline: [...(before.timeline as unknown[]), { at: new Date().toISOString(), type: 'dial', attempt: 1 }], version: 1 };
    expect(await saveCall(companyId, after, 0, [], before)).toBe(true);
    const item = (await rawItem(callKey(companyId, call.id)))!;
    expect(item.timeline).toHaveLength(2);
    expect(item).not.toHaveProperty('buyer');
    expect(await getCall(companyId, call.id)).toMatchObject({ buyer: null, timeline: after.timeline, version: 1 });
  });
});
