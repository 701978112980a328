import { objectStorage } from '../adapters/object-storage.js';
import { telephonyPort } from '../adapters/index.js';
import { blacklistPut } from '../contacts/blacklist.js';
import type { TransactItem } from '../db/client.js';
import { getRecord, queryAllRecords } from '../db/records.js';
import { numbersOfOffer } from '../numbers/lookup.js';
import { webhookMessages } from '../events/webhook-messages.js';
import type { EventName } from '../events/event-names.js';
import { renderTemplate } from '../events/templates.js';
import { logger } from '../logger.js';
import type { QueueMessage } from '../ports/events.js';
import type { OutboundSms } from '../ports/telephony.js';
import { parseTokenList } from '../routing/token-filters.js';
import type { LeadPhase, LeadRecord, LeadStepEntry } from './lead-record.js';
import { clearStep, pendStep, schedulePending } from './lead-steps.js';
import { contactOf, leadsOfContact, transitionLead, UnknownLeadError } from './lead-store.js';
import { leadView } from './lead-view.js';
import { dialLead, type DialConditions, type LeadDialResult } from './outbound-dial.js';
import { moveToSchedule, newScheduleLead, type ScheduleRow } from './schedule-leads.js';
import {
  choiceMove,
  decideNext,
  dialRetryAt,
  endStatus,
  EXTERNAL_ACTION_TYPES,
  expiryOf,
  fireTime,
  filterHolds,
  leadTokens,
  orderActions,
  pickWeighted,
  positionOf,
  type EndReason,
  type ScheduleAction,
  type StepState,
} from './schedule-steps.js';
import { actionsOfSchedule } from './schedule-store.js';
import { waitEnd } from './wait-time.js';

/** What running a scheduler entry did. */
export type StepOutcome = 'ran' | 'stale' | 'missing';

/** Decisions one step makes at most (actions, phase moves, callbacks), whatever the schedule holds. */
const MAX_DECISIONS = 200;
/** A dial that failed (carrier or routing error, not a refusal) is tried again this much later. */
const DIAL_ERROR_RETRY_SECONDS = 300;
/** Schedule triggers one ending lead fires at most. */
const MAX_TRIGGERS = 10;

/** A lead as the step changes it, with what the step's save must carry. */
interface StepWork {
  lead: LeadRecord;
  state: StepState;
  claimedVersion: number;
  /** When the next step runs; null once the lead has ended. */
  fireAt: Date | null;
  contactDelta: number;
  callIds: number[];
  dataChanges: Record<string, unknown>;
  events: Set<EventName>;
  messages: QueueMessage[];
  writes: TransactItem[];
  /** Steps of leads the step made (add_to_schedule, triggers), scheduled after the save. */
  entries: Array<{ entry: LeadStepEntry; at: Date; scheduleId: number }>;
  texts: OutboundSms[];
  runs: number;
}

/** What the step reads once: the schedule, its actions per phase, the offer's SMS number. */
interface StepContext {
  companyId: number;
  now: Date;
  schedule: ScheduleRow;
  lists: Record<LeadPhase, ScheduleAction[]>;
  timeZone: string;
  cache: Map<string, Promise<unknown>>;
}

/**
 * Runs the step a scheduler entry stands for: nothing when the lead has moved past the entry's
 * version or is not active ('stale'), or does not exist ('missing'); otherwise claims the step
 * (so a duplicated fire runs it once), runs the lead's actions until a wait or the end, and saves
 * the new position with the actions' queued messages in one transaction, then schedules the
 * next step and sends the step's texts (docs/leads.md, "Schedules and the engine").
 */
export async function runLeadStep(entry: LeadStepEntry, now: Date): Promise<StepOutcome> {
  const claimed = await claim(entry, now);
  if (claimed === 'stale' || claimed === 'missing') return claimed;
  const { companyId } = entry;
  const schedule = claimed.schedule_id === null ? undefined : ((await getRecord(companyId, 'schedules', claimed.schedule_id)) as ScheduleRow | undefined);
  const work = startWork(claimed, entry.version + 1, schedule, now);
  if (!schedule) {
    finish(work, 'schedule_deleted', now);
  } else {
    const context = await stepContext(companyId, schedule, now);
    await distribute(work, context);
    await runActions(work, context);
    // Ended through its schedule (finished, expired, opted out or blocked by an action): triggers may start another.
    if (work.fireAt === null && work.lead.status !== 'active') await fireTriggers(work, context);
  }
  await save(companyId, work, now);
  return 'ran';
}

/** Takes the step: bumps step_version, so a second fire of the same entry finds it stale. */
async function claim(entry: LeadStepEntry, now: Date): Promise<LeadRecord | 'stale' | 'missing'> {
  try {
    const { result, lead } = await transitionLead(
      entry.companyId,
      entry.leadId,
      (lead) => {
        if (lead.status !== 'active' || lead.phase === null || Number(lead.step_version) !== entry.version) return { result: false, save: false };
        // next_action_at stays: a crash before the save leaves the lead overdue in the waiting index.
        lead.step_version = entry.version + 1;
        return { result: true, save: true };
      },
      now,
    );
    return result ? lead : 'stale';
  } catch (error) {
    if (error instanceof UnknownLeadError) return 'missing';
    throw error;
  }
}

function startWork(claimed: LeadRecord, claimedVersion: number, schedule: ScheduleRow | undefined, now: Date): StepWork {
  const lead = structuredClone(claimed) as StepWork['lead'];
  const callbackDue = lead.callback_at !== null && Date.parse(lead.callback_at) <= now.getTime();
  const resumeAt = callbackDue && lead.wait_until ? new Date(lead.wait_until) : null;
  // A wait is remembered only to be resumed after a callback's dial interrupts it.
  if (!callbackDue) lead.wait_until = null;
  const phase = lead.phase ?? 'actions';
  return {
    lead,
    claimedVersion,
    fireAt: null,
    contactDelta: 0,
    callIds: [],
    dataChanges: {},
    events: new Set(),
    messages: [],
    writes: [],
    entries: [],
    texts: [],
    runs: 0,
    state: {
      phase,
      index: Number(lead.action_index ?? 0),
      tokens: leadTokens(lead),
      contactAttempts: Number(lead.contact_attempts ?? 0),
      maxContactAttempts: lead.max_contact_attempts ?? (typeof schedule?.max_contact_attempts === 'number' ? schedule.max_contact_attempts : null),
      expiresAt: expiryOf(lead, typeof schedule?.hours_to_expire === 'number' ? schedule.hours_to_expire : null),
      callbackAt: lead.callback_at ? new Date(lead.callback_at) : null,
      resumeAt,
      paused: schedule?.paused === true,
      actionsRun: 0,
    },
  };
}

async function stepContext(companyId: number, schedule: ScheduleRow, now: Date): Promise<StepContext> {
  const actions = await actionsOfSchedule(companyId, schedule.id);
  return {
    companyId,
    now,
    schedule,
    lists: { actions: orderActions(actions, 'actions'), end_of_schedule_actions: orderActions(actions, 'end_of_schedule_actions') },
    timeZone: typeof schedule.time_zone === 'string' && schedule.time_zone ? schedule.time_zone : 'UTC',
    cache: new Map(),
  };
}

/** Reads once per step (an outgoing webhook, a schedule, the SMS number). */
function cached<T>(context: StepContext, key: string, read: () => Promise<T>): Promise<T> {
  if (!context.cache.has(key)) context.cache.set(key, read());
  return context.cache.get(key) as Promise<T>;
}

/** A new lead's first step: its schedule's distributions may send it to another schedule. */
async function distribute(work: StepWork, context: StepContext): Promise<void> {
  const lead = work.lead;
  if (lead.distributed || lead.phase !== 'actions' || lead.action_index !== 0 || lead.current_action_id !== null) return;
  lead.distributed = true;
  const rows = (await queryAllRecords(context.companyId, 'schedule_distributions')).filter((row) => row.schedule_id === context.schedule.id && row.enabled !== false);
  const picked = pickWeighted(rows.map((row) => ({ target: Number(row.target_schedule_id), weight: Number(row.weight ?? 0) })), lead.id);
  if (!picked || picked.target === context.schedule.id) return;
  const target = (await getRecord(context.companyId, 'schedules', picked.target)) as ScheduleRow | undefined;
  if (!target) return;
  moveToSchedule(context.companyId, lead, target, context.now);
  Object.assign(context, await stepContext(context.companyId, target, context.now));
  work.state.paused = target.paused === true;
  work.events.add('lead_changed');
}

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

/** Where the lead stands, saved with it: the index and the action at it. */
function place(work: StepWork, context: StepContext, phase: LeadPhase, index: number): void {
  work.state.phase = phase;
  work.state.index = index;
  work.lead.phase = phase;
  work.lead.action_index = index;
  work.lead.current_action_id = context.lists[phase][index]?.id ?? null;
}

async function runActions(work: StepWork, context: StepContext): Promise<void> {
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

/** The callback's dial; true when the step stops (the dial waits to be retried). */
/** A dial; an error is a retry a few minutes later, so a carrier outage never loses the step. */
async function dial(work: StepWork, context: StepContext, action: ScheduleAction | undefined): Promise<LeadDialResult> {
  try {
    return await dialLead(context.companyId, work.lead, conditionsOf(action), context.now);
  } catch (error) {
    logger.error('schedule action: dial failed', { error, leadId: work.lead.id, actionId: action?.id ?? null });
    return { placed: false, reason: 'dial failed', retryAt: new Date(context.now.getTime() + DIAL_ERROR_RETRY_SECONDS * 1000) };
  }
}

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

function countContact(work: StepWork): void {
  work.contactDelta += 1;
  work.state.contactAttempts += 1;
  work.lead.contact_attempts = Number(work.lead.contact_attempts ?? 0) + 1;
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

/** Unique per step (claimed versions only grow) and per action run, stable across save retries. */
function stepKey(work: StepWork): string {
  return `lead${work.lead.id}.v${work.claimedVersion}.n${work.state.actionsRun}`;
}

/** The action's e-mail (queued with the save) and SMS (sent after it), with the lead's tokens. */
async function messagesOf(work: StepWork, context: StepContext, action: ScheduleAction): Promise<void> {
  const tokens = leadTokens(work.lead);
  const render = (template: unknown): string | undefined => {
    if (typeof template !== 'string' || !template) return undefined;
    try {
      return renderTemplate(template, tokens, 'text');
    } catch (error) {
      logger.warn('schedule action: template not rendered', { error, actionId: action.id, leadId: work.lead.id });
      return undefined;
    }
  };
  const subject = render(action.email_title);
  const body = render(action.email_body);
  if (work.lead.email && subject !== undefined && body !== undefined) {
    work.messages.push({ kind: 'email', id: `${stepKey(work)}.email`, companyId: context.companyId, email: { companyId: context.companyId, kind: 'schedule_action', to: work.lead.email, subject, text: body } });
  }
  const sms = render(action.sms_body);
  if (sms !== undefined && work.lead.caller_id) {
    const from = await smsNumber(context);
    if (from) {
      work.texts.push({ to: work.lead.caller_id, from, body: sms });
      countContact(work);
    } else {
      logger.warn('schedule action: no number to text from (the schedule’s offer has no tracking number)', { actionId: action.id, leadId: work.lead.id });
    }
  }
}

/** The number texts come from: the first tracking number (lowest id) of the schedule's offer. */
function smsNumber(context: StepContext): Promise<string | undefined> {
  const offerId = context.schedule.offer_id;
  if (typeof offerId !== 'number') return Promise.resolve(undefined);
  return cached(context, `sms${offerId}`, async () => {
    // The offer's numbers only (one Query of the number index), not a walk of the company's.
    return (await numbersOfOffer(context.companyId, offerId))[0]?.number;
  });
}

/** A new lead of the target schedule with this lead's contact and data, unless the contact already has an active one there. */
async function addToSchedule(work: StepWork, context: StepContext, scheduleId: number): Promise<void> {
  // Leads this step makes are written with its save: the index cannot show them yet.
  if (work.entries.some((made) => made.scheduleId === scheduleId)) return;
  const target = await cached(context, `s${scheduleId}`, () => getRecord(context.companyId, 'schedules', scheduleId));
  if (!target) return;
  const contact = contactOf(work.lead);
  if (contact) {
    const existing = await leadsOfContact(context.companyId, contact, { kind: 'schedule', id: scheduleId }, 20);
    if (existing.some((lead) => lead.status === 'active')) return;
  }
  const made = newScheduleLead(context.companyId, work.lead, target as ScheduleRow, context.now);
  work.writes.push(...made.writes);
  work.messages.push(...made.messages);
  work.entries.push({ entry: made.entry, at: context.now, scheduleId });
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

/** The lead ends: opted out or blocked by an action, or its end-of-schedule actions are done (or its schedule is gone). */
function endLead(work: StepWork, status: LeadRecord['status'], reason: string, now: Date): void {
  work.lead.status = status;
  work.lead.ended_at = now.toISOString();
  work.lead.end_reason = reason;
  work.lead.phase = null;
  work.lead.current_action_id = null;
  work.fireAt = null;
  work.events.add('lead_ended');
}

function finish(work: StepWork, reason: EndReason, now: Date): void {
  endLead(work, endStatus(reason), reason, now);
}

/** Schedule triggers of an ended lead: new leads of their schedules. */
async function fireTriggers(work: StepWork, context: StepContext): Promise<void> {
  const tokens = leadTokens(work.lead);
  const triggers = (await queryAllRecords(context.companyId, 'schedule_triggers'))
    .filter((trigger) => trigger.enabled !== false && trigger.trigger_event === 'lead_ended')
    .filter((trigger) => trigger.schedule_id !== work.lead.schedule_id && (trigger.source_schedule_id === null || trigger.source_schedule_id === undefined || trigger.source_schedule_id === work.lead.schedule_id))
    .filter((trigger) => filterHolds(trigger as unknown as ScheduleAction, tokens))
    .slice(0, MAX_TRIGGERS);
  for (const trigger of triggers) await addToSchedule(work, context, Number(trigger.schedule_id));
}

/** The fields the step owns; everything else of the lead is left as the latest save has it. */
const STEP_FIELDS = ['phase', 'action_index', 'current_action_id', 'status', 'ended_at', 'end_reason', 'callback_at', 'wait_until', 'schedule_id', 'offer_id', 'lead_token', 'distributed', 'last_skipped_action'] as const;

async function save(companyId: number, work: StepWork, now: Date): Promise<void> {
  const { result: applied, lead: saved } = await transitionLead(
    companyId,
    work.lead.id,
    (lead) => {
      const facts = () => {
        lead.contact_attempts = Number(lead.contact_attempts ?? 0) + work.contactDelta;
        lead.call_ids = [...(lead.call_ids ?? []), ...work.callIds];
        lead.data = { ...lead.data, ...work.dataChanges };
      };
      if (Number(lead.step_version) !== work.claimedVersion || lead.status !== 'active') {
        // Moved, opted out or removed during the step: its position is theirs; what happened is recorded.
        if (!work.contactDelta && !work.callIds.length && !Object.keys(work.dataChanges).length) return { result: false, save: false };
        facts();
        return { result: false, save: true };
      }
      facts();
      const target = lead as Record<string, unknown>;
      for (const field of STEP_FIELDS) if (field in work.lead) target[field] = (work.lead as Record<string, unknown>)[field];
      if (work.fireAt === null) clearStep(companyId, lead);
      else pendStep(companyId, lead, work.fireAt);
      return { result: true, save: true, events: [...work.events], messages: work.messages, alongside: work.writes };
    },
    now,
  );
  if (!applied) return;
  if (work.fireAt !== null) await schedulePending({ companyId, leadId: saved.id, version: saved.step_version }, work.fireAt);
  for (const made of work.entries) await schedulePending(made.entry, made.at);
  await sendTexts(work);
}

/** After the save: a text that fails is logged and not retried (its contact attempt stays counted). */
async function sendTexts(work: StepWork): Promise<void> {
  for (const text of work.texts) {
    try {
      await telephonyPort().sendSms(text);
    } catch (error) {
      logger.error('schedule action: SMS not sent', { error, leadId: work.lead.id, to: text.to });
    }
  }
}
