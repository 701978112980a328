import { objectStorageMissingSetting } from '../adapters/object-storage-settings.js';
import { ValidationError } from '../http/errors.js';
import type { HookContext } from '../resources/define.js';
import { scheduleActionIndex } from './schedule-store.js';

/**
 * Hooks of schedule actions: refusing an object storage upload where no store is configured
 * (kinds that need an outside system are created and skipped when run, schedule-steps.ts
 * EXTERNAL_ACTION_TYPES), keeping each action
 * in its schedule's index (schedule-store.ts). The columns read from other records are the
 * view's enricher (schedule-action-enrich.ts).
 */

/** Why an action of this kind cannot be created here, or undefined. */
export function refusal(actionType: unknown, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (typeof actionType !== 'string') return undefined;
  if (actionType === 'object_storage_upload') {
    const missing = objectStorageMissingSetting(env);
    if (missing) return `is not available: this deployment has no object storage (set ${missing})`;
  }
  return undefined;
}

export async function prepareCreate(context: HookContext, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const refused = refusal(fields.action_type);
  if (refused) throw new ValidationError({ action_type: [refused] });
  return { ...fields, ...scheduleActionIndex(context.companyId, (fields.schedule_id as number | null) ?? null, String(fields.owner_relation)) };
}

export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!('schedule_id' in fields)) return {};
  return scheduleActionIndex(context.companyId, (fields.schedule_id as number | null) ?? null, String(before.owner_relation));
}
