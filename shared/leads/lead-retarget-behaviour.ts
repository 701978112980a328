import { updateRecord } from '../db/records.js';
import type { HookContext } from '../resources/define.js';
import { runRetarget } from './lead-retarget.js';

/** A lead retarget runs once, when it is created; what it did is stored on it and answered. */
export async function afterWrite(context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown> }): Promise<Record<string, unknown> | void> {
  if (change.before) return;
  const result = await runRetarget(context.companyId, change.after, context.now);
  await updateRecord(context.companyId, 'lead_retargets', Number(change.after.id), { ...result });
  return { ...result };
}
