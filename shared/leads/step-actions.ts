import { objectStorage } from '../adapters/object-storage.js';
import { blacklistPut } from '../contacts/blacklist.js';
import { getRecord } from '../db/records.js';
import { webhookMessages } from '../events/webhook-messages.js';
import { renderTemplate } from '../events/templates.js';
import { logger } from '../logger.js';
import { parseTokenList } from '../routing/token-filters.js';
import { leadView } from './lead-view.js';
import { dialLead, type DialConditions, type LeadDialResult } from './outbound-dial.js';
import { choiceMove, decideNext, dialRetryAt, EXTERNAL_ACTION_TYPES, fireTime, leadTokens, positionOf, type EndReason, type ScheduleAction } from './schedule-steps.js';
import { addToSchedule } from './step-schedules.js';
import { messagesOf } from './step-messages.js';
import { cached, countContact, endLead, finish, place, stepKey, type StepContext, type StepWork } from './step-work.js';
import { waitEnd } from './wait-time.js';

/**
 * A step runs the lead's schedule actions (docs/leads.md, "Schedules and the engine"): the pure
 * decisions are schedule-steps.ts's; here each action does its I/O (a dial, a webhook, another
 * schedule, an upload) and moves the lead on.
 */

/** Decisions one step makes at most (actions, phase moves, callbacks), whatever the schedule holds. */
const MAX_DECISIONS = 200;
/** A dial that failed (carrier or routing error, not a refusal) is tried again this much later. */
const DIAL_ERROR_RETRY_SECONDS = 300;

function conditionsOf(action: ScheduleAction | undefined): DialConditions {
  return {
    scheduleActionId: action?.id ?? null,
    whenBuyerAvailable: action?.when_buyer_available === true,
    whenBuyerWouldConvert: action?.when_buyer_would_convert === true,
    callsOnHoldLimit: typeof action?.calls_on_hold_limit === 'number' ? action.calls_on_hold_limit : null,
    availableCcPercentage: typeof action?.available_cc_percentage === 'number' ? action.available_cc_percentage : null,
    duringDaylightHours: action?.during_daylight_hours === true,
  };
}

export async function runActions(work: StepWork, context: StepContext): Promise<void> {
  const { now } = context;
  place(work, context, work.state.phase, positionOf(context.lists[work.state.phase], work.lead.current_action_id, work.state.index));
  for (let decisions = 0; decisions < MAX_DECISIONS; decisions++) {
    const list = context.lists[work.state.phase];
    const decision = decideNext(work.state, list, now, context.timeZone);
    switch (decision.kind) {
      case 'callback': {
        const stop = await callback(work, context);
        if (stop) return;
        continue;
      }
      case 'sleep':
        work.fireAt = decision.fireAt;
        return;
      case 'wait':
        place(work, context, work.state.phase, decision.index + 1);
        work.lead.wait_until = decision.until.toISOString();
        work.fireAt = decision.fireAt;
        work.state.actionsRun += 1;
        await messagesOf(work, context, decision.action);
        return;
      case 'end_phase':
        place(work, context, 'end_of_schedule_actions', 0);
        work.lead.end_reason = decision.reason;
        work.events.add('lead_changed');
        continue;
      case 'end':
        finish(work, (work.lead.end_reason as EndReason | null) ?? 'schedule_finished', now);
        return;
      case 'run': {
        work.state.actionsRun += 1;
        const stop = await runAction(work, context, decision.action, decision.index);
        if (stop) return;
        continue;
      }
    }
  }
  // Only a schedule the limits above did not foresee gets here: look again in a minute.
  work.fireAt = new Date(now.getTime() + 60_000);
}


/** A dial; an error is a retry a few minutes later, so a carrier outage never loses the step. */
async function dial(work: StepWork, context: StepContext, action: ScheduleAction | undefined): Promise<LeadDialResult> {
  try {
    return await dialLead(context.companyId, work.lead, conditionsOf(action), context.now);
  } catch (error) {
    logger.error('schedule action: dial failed', { error, leadId: work.lead.id, actionId: action?.id ?? null });
    return { placed: false, reason: 'dial failed', retryAt: new Date(context.now.getTime() + DIAL_ERROR_RETRY_SECONDS * 1000) };
  }
}

/** The callback's dial; true when the step stops (the dial waits to be retried). */
async function callback(work: StepWork, context: StepContext): Promise<boolean> {
  const result = await dial(work, context, undefined);
  work.lead.callback_at = null;
  work.state.callbackAt = null;
  if (result.placed) {
    countContact(work);
    work.callIds.push(result.callId);
  } else if (result.retryAt) {
    const retry = dialRetryAt(result.retryAt, work.lead.lead_priority);
    work.lead.callback_at = retry.toISOString();
    work.state.callbackAt = retry;
  }
  // The schedule goes on where it was: a wait the callback interrupted goes on (resumeAt).
  work.state.resumeAt = work.lead.wait_until ? new Date(work.lead.wait_until) : null;
  return false;
}

/** Runs one action; true when the step stops here (a dial retry, the lead ended). */
async function runAction(work: StepWork, context: StepContext, action: ScheduleAction, index: number): Promise<boolean> {
  const { companyId, now } = context;
  const phase = work.state.phase;
  const next = () => place(work, context, phase, index + 1);
  await messagesOf(work, context, action);
  switch (action.action_type) {
    case 'dial': {
      const result = await dial(work, context, action);
      if (result.placed) {
        countContact(work);
        work.callIds.push(result.callId);
        next();
        return false;
      }
      if (result.retryAt) {
        // The lead stays at this dial and tries again then (later by its lead_priority).
        place(work, context, phase, index);
        work.fireAt = fireTime(work.state, dialRetryAt(result.retryAt, work.lead.lead_priority));
        return true;
      }
      next();
      return false;
    }
    case 'webhook': {
      const webhook = await cached(context, `w${String(action.outgoing_webhook_id)}`, () => getRecord(companyId, 'outgoing_webhooks', Number(action.outgoing_webhook_id)));
      if (webhook && webhook.enabled !== false) {
        work.messages.push(
          ...webhookMessages(companyId, webhook, { key: `${stepKey(work)}.a${action.id}`, event: 'schedule_action', eventId: null, fireId: null, object: leadView(work.lead), kind: 'lead' }),
        );
      }
      next();
      return false;
    }
    case 'add_to_schedule':
      await addToSchedule(work, context, Number(action.add_to_schedule_id));
      next();
      return false;
    case 'lead_alteration': {
      const parsed = parseTokenList(action.record_token_additional_list ?? null);
      if (parsed.ok) {
        const tokens = leadTokens(work.lead);
        const changes = Object.fromEntries(Object.entries(parsed.tokens).map(([key, value]) => [key, renderTemplate(value, tokens, 'text')]));
        Object.assign(work.dataChanges, changes);
        work.lead.data = { ...work.lead.data, ...changes };
        work.state.tokens = leadTokens(work.lead);
        work.events.add('lead_changed');
      }
      next();
      return false;
    }
    case 'lead_block':
      if (work.lead.caller_id) work.writes.push({ Put: blacklistPut(companyId, work.lead.caller_id, now) });
      endLead(work, 'blocked', 'lead_block', now);
      return true;
    case 'lead_opt_out':
      endLead(work, 'opted_out', 'lead_opt_out', now);
      work.events.add('lead_opted_out');
      return true;
    case 'schedule_callback': {
      const at = waitEnd(action, now, context.timeZone);
      if (at) {
        work.lead.callback_at = at.toISOString();
        work.state.callbackAt = at;
      }
      next();
      return false;
    }
    case 'choice': {
      const move = choiceMove(action, work.state.tokens, phase, index);
      if (move.kind === 'go') place(work, context, move.phase, move.index);
      else if (move.kind === 'end_phase') {
        place(work, context, 'end_of_schedule_actions', 0);
        work.lead.end_reason = 'choice';
        work.events.add('lead_changed');
      } else {
        finish(work, (work.lead.end_reason as EndReason | null) ?? 'choice', now);
        return true;
      }
      return false;
    }
    case 'restart_schedule':
      place(work, context, 'actions', 0);
      return false;
    case 'object_storage_upload':
      await upload(work, context, action);
      next();
      return false;
    default:
      if (EXTERNAL_ACTION_TYPES.has(String(action.action_type))) skip(work, action, `this deployment has no ${String(action.action_type)} integration`, now);
      next();
      return false;
  }
}

/** The action is passed over, and the lead says so (`last_skipped_action`), like the log says. */
function skip(work: StepWork, action: ScheduleAction, reason: string, now: Date): void {
  work.lead.last_skipped_action = { action_id: Number(action.id), action_type: String(action.action_type), result: 'skipped', reason, skipped_at: now.toISOString() };
  logger.info('schedule action skipped', { actionId: action.id, leadId: work.lead.id, reason });
}

async function upload(work: StepWork, context: StepContext, action: ScheduleAction): Promise<void> {
  const prefix = typeof action.object_storage_key_prefix === 'string' ? action.object_storage_key_prefix.replace(/^\/+/, '').replace(/\.\.+/g, '.') : '';
  const key = `${prefix || 'leads/'}${prefix && !prefix.endsWith('/') ? '/' : ''}${context.companyId}/${work.lead.uuid}/${action.id}-${work.claimedVersion}.json`;
  try {
    await objectStorage().put({ key, body: JSON.stringify(leadView(work.lead)), contentType: 'application/json' });
  } catch (error) {
    // The schedule goes on: one store that is down must not hold every lead at this action.
    logger.error('schedule action: object storage upload failed', { error, actionId: action.id, leadId: work.lead.id, key });
  }
}
