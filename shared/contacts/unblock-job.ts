import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';
import type { HookContext } from '../resources/define.js';
import { blacklistDelete, blacklistPage } from './blacklist.js';

/**
 * Unblock contact jobs run in their create request: the blacklist entries blocked within
 * `blocked_at_from`..`blocked_at_to` (either bound open when blank; everything when both are)
 * are removed, and the job records `unblock_count` and `succeeded_at`. One job looks at no more
 * than UNBLOCK_JOB_LIMIT entries, in number order after `last_contact_id` when given; when more
 * remain, `last_contact_id` is the last number it looked at, and a new job sent with it goes on.
 */
export const UNBLOCK_JOB_LIMIT = 1000;
const PAGE = 100;
const PARALLEL_DELETES = 25;

/** Was the entry blocked within the bounds (ISO times, inclusive; null is open)? Pure. */
export function blockedWithin(blockedAt: string, from: unknown, to: unknown): boolean {
  const at = Date.parse(blockedAt);
  if (typeof from === 'string' && from && at < Date.parse(from)) return false;
  if (typeof to === 'string' && to && at > Date.parse(to)) return false;
  return true;
}

export async function runUnblockJob(companyId: number, job: { blocked_at_from?: unknown; blocked_at_to?: unknown; last_contact_id?: unknown }): Promise<{ unblock_count: number; last_contact_id: string | null; examined: number }> {
  let after = typeof job.last_contact_id === 'string' && job.last_contact_id.startsWith('+') ? job.last_contact_id : undefined;
  let examined = 0;
  let removed = 0;
  let more = true;
  while (more && examined < UNBLOCK_JOB_LIMIT) {
    const page = await blacklistPage(companyId, after, Math.min(PAGE, UNBLOCK_JOB_LIMIT - examined));
    examined += page.entries.length;
    more = page.more;
    const matching = page.entries.filter((entry) => blockedWithin(entry.blocked_at, job.blocked_at_from, job.blocked_at_to));
    for (let start = 0; start < matching.length; start += PARALLEL_DELETES) {
      await Promise.all(matching.slice(start, start + PARALLEL_DELETES).map((entry) => db.send(new DeleteCommand(blacklistDelete(companyId, entry.number)))));
    }
    removed += matching.length;
    after = page.entries[page.entries.length - 1]?.number ?? after;
  }
  return { unblock_count: removed, last_contact_id: more ? (after ?? null) : typeof job.last_contact_id === 'string' ? job.last_contact_id : null, examined };
}

/** The resource hook: the job runs before its record is written, so the record holds its outcome. */
export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const outcome = await runUnblockJob(context.companyId, fields);
  return { ...fields, unblock_count: outcome.unblock_count, last_contact_id: outcome.last_contact_id, succeeded_at: context.now.toISOString() };
}
