import { randomUUID } from 'node:crypto';
import { getRecord, queryAllRecords } from '../db/records.js';
import { updateWithChangeLog } from '../resources/change-log.js';
import { ValidationError } from '../http/errors.js';
import { BUYER_WRITABLE_FIELDS } from './buyer-field-names.js';
import type { HookContext } from '../resources/define.js';
import type { QueueMessage } from '../ports/events.js';
import { resetTotalCounters } from './counters.js';

/** The buyer resource's write hooks beyond the buyer record (its shown counters: buyer-enrich.ts). */

/**
 * `copy_another_buyer` with `copy_buyer_id`: the new buyer starts from that buyer's settings
 * (everything writable but `user_buyer_id`, which is unique), overlaid with the fields sent.
 */
export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { copy_another_buyer: copy, copy_buyer_id: sourceId, ...rest } = fields;
  if (!copy) return rest;
  if (typeof sourceId !== 'number') throw new ValidationError({ copy_buyer_id: ["can't be blank when copy_another_buyer is set"] });
  const source = await getRecord(context.companyId, 'buyers', sourceId);
  if (!source) throw new ValidationError({ copy_buyer_id: [`does not exist: ${sourceId}`] });
  const copied = Object.fromEntries(BUYER_WRITABLE_FIELDS.filter((field) => field !== 'user_buyer_id' && field in source).map((field) => [field, source[field]]));
  return { ...copied, name: source.name ? `${String(source.name)} (copy)` : null, ...rest };
}

/**
 * An invitation per team e-mail the write added, sent through the outbox: written with the
 * buyer, so an invitation exists exactly when the buyer change does, and sent by the delivery
 * function (retried like webhooks), never lost to a crash after the write.
 */
export async function messages(
  context: HookContext,
  change: { before?: Record<string, unknown>; after: Record<string, unknown>; fields: Record<string, unknown> },
): Promise<QueueMessage[]> {
  const before = new Set(Array.isArray(change.before?.team_users_emails) ? (change.before.team_users_emails as string[]) : []);
  const added = (Array.isArray(change.after.team_users_emails) ? (change.after.team_users_emails as string[]) : []).filter((email) => !before.has(email));
  const name = String(change.after.name ?? change.after.id);
  return added.map((to) => ({
    kind: 'email',
    id: randomUUID(),
    companyId: context.companyId,
    email: {
      companyId: context.companyId,
      kind: 'team_invitation',
      to,
      subject: `Invitation to the team of buyer ${name}`,
      text: `You have been invited to collaborate on buyer ${name} (id ${String(change.after.id)}).`,
    },
  }));
}

/** Resets total counters when asked. */
export async function afterWrite(
  context: HookContext,
  change: { before?: Record<string, unknown>; after: Record<string, unknown>; fields: Record<string, unknown> },
): Promise<void> {
  if (change.fields.reset_total_caps === true) await resetTotalCounters(context.companyId, Number(change.after.id));
}


/** A deleted buyer leaves the groups it was in, so no group lists a buyer that does not exist. */
/** Records that name buyers in a `buyer_ids` list: a deleted buyer is taken out of each. */
const BUYER_LISTS = ['buyer_groups', 'offers', 'inbound_webhooks'] as const;

/**
 * A deleted buyer leaves every group, offer and inbound webhook that listed it, so saving one
 * of those with the `buyer_ids` it shows never fails on a buyer that is gone.
 */
export async function afterDelete(context: HookContext, buyer: Record<string, unknown>): Promise<void> {
  const id = Number(buyer.id);
  for (const resource of BUYER_LISTS) {
    for (const record of await queryAllRecords(context.companyId, resource)) {
      const members = Array.isArray(record.buyer_ids) ? (record.buyer_ids as number[]) : [];
      if (members.includes(id)) await updateWithChangeLog(context, resource, record, { buyer_ids: members.filter((member) => member !== id) });
    }
  }
}
