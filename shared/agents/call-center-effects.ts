import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import type { ResourceBehaviour } from '../resources/define.js';

/**
 * What a call center's writes do beyond its own record (docs/resources.md, "Agents and call
 * centers"): each offer keeps, in a stored attribute the API does not show, the ids of the enabled
 * call centers serving it. An inbound call reads its offer anyway, so an offer without call
 * centers costs its calls no read at all to learn that no agent can take them.
 */

/** The offer's attribute: a number set of the enabled call centers listing the offer. */
export const OFFER_CENTERS_ATTRIBUTE = 'agent_call_center_ids';

/** The enabled call centers serving an offer, from its stored record (empty when none). */
export function servingCenterIds(offer: Record<string, unknown> | undefined): number[] {
  const stored = offer?.[OFFER_CENTERS_ATTRIBUTE];
  const ids = stored instanceof Set ? [...(stored as Set<unknown>)] : Array.isArray(stored) ? stored : [];
  return ids.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0).sort((left, right) => left - right);
}

const listed = (center: Record<string, unknown> | undefined): number[] => (Array.isArray(center?.offer_ids) ? (center.offer_ids as unknown[]).map(Number) : []);

/** For each offer the change touches, whether the center serves it afterwards. Pure. */
export function offerMembership(before: Record<string, unknown> | undefined, after: Record<string, unknown> | undefined): Map<number, boolean> {
  const serves = new Set(after && after.enabled !== false ? listed(after) : []);
  const changes = new Map<number, boolean>();
  for (const offerId of new Set([...listed(before), ...listed(after)])) changes.set(offerId, serves.has(offerId));
  return changes;
}

/** Adds the center to (or takes it out of) the offer's set; an offer deleted meanwhile is left alone. */
async function setMembership(companyId: number, offerId: number, centerId: number, serves: boolean): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.record(companyId, 'offers', offerId),
        UpdateExpression: `${serves ? 'ADD' : 'DELETE'} #centers :center`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#centers': OFFER_CENTERS_ATTRIBUTE },
        ExpressionAttributeValues: { ':center': new Set([centerId]) },
      }),
    );
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
  }
}

async function applyMembership(companyId: number, centerId: number, changes: Map<number, boolean>): Promise<void> {
  await Promise.all([...changes].map(([offerId, serves]) => setMembership(companyId, offerId, centerId, serves)));
}

/**
 * After the center's write (an ADD or DELETE of its id per offer it lists or listed: idempotent,
 * so saving the center again repairs an offer a failed effect missed).
 */
export const callCenterBehaviour: ResourceBehaviour = {
  async afterWrite(context, { before, after }) {
    await applyMembership(context.companyId, Number(after.id), offerMembership(before, after));
  },
  async afterDelete(context, record) {
    await applyMembership(context.companyId, Number(record.id), offerMembership(record, undefined));
  },
};
