import type { HookContext } from '../resources/define.js';
import { newSigningSecret } from './signing.js';

/** How long a rotated-out secret keeps signing beside the new one (Standard Webhooks' usual grace). */
export const ROTATION_GRACE_HOURS = 24;

/**
 * Subscription updates: `rotate_secret` makes a new signing secret (the previous one signs too
 * for ROTATION_GRACE_HOURS, so receivers can switch without dropping deliveries); `enabled: true`
 * on a disabled subscription clears its failure state.
 */
export async function prepareUpdate(context: HookContext, before: Record<string, unknown>, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  const changes: Record<string, unknown> = {};
  if (fields.rotate_secret === true) {
    changes.secret = newSigningSecret();
    changes.previous_secret = typeof before.secret === 'string' ? before.secret : null;
    changes.previous_secret_expires_at = new Date(context.now.getTime() + ROTATION_GRACE_HOURS * 3600_000).toISOString();
  }
  if (fields.enabled === true && before.enabled === false) Object.assign(changes, { failing_since: null, disabled_at: null, disabled_reason: null });
  return changes;
}
