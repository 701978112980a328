import { matchesFilters, parseTokenFilterList, type TokenValues } from '../routing/token-filters.js';
import type { ScheduleAction } from './action-order.js';
import type { LeadPhase, LeadRecord } from './lead-record.js';
import { waitEnd } from './wait-time.js';

/**
 * The schedule engine's decisions, pure (docs/leads.md, "Schedules and the engine"): given a
 * lead's position, its schedule's ordered actions of the phase it is in and now, what the step
 * does next. The runner (step-runner.ts) does the I/O and calls this again after each action.
 */

// The action's shape and run order, in a module with no imports (the operator console reads them too).
export { orderActions, type ScheduleAction } from './action-order.js';

/** Actions one step runs at most; then it waits YIELD_SECONDS (a schedule of restarts cannot spin). */
export const MAX_ACTIONS_PER_STEP = 50;
export const YIELD_SECONDS = 60;
/** A paused schedule's leads look again this often. */
export const PAUSED_RECHECK_SECONDS = 15 * 60;
/** A dial retry is pushed back one second per point of lead_priority, at most this many. */
export const MAX_PRIORITY_OFFSET_SECONDS = 300;

export type EndReason = 'schedule_finished' | 'expired' | 'max_contact_attempts' | 'moved_to_end_of_schedule' | 'choice' | 'schedule_deleted';


/**
 * A lead's tokens for filters and `{{token}}` templates: its data tokens, then its own scalar
 * fields (caller_id, email, status...), which win, as for webhooks (shared/events/webhook-tokens.ts).
 */
export function leadTokens(lead: Pick<LeadRecord, 'data'> & Record<string, unknown>): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  const data = lead.data && typeof lead.data === 'object' && !Array.isArray(lead.data) ? lead.data : {};
  for (const source of [data, lead]) {
    for (const [key, value] of Object.entries(source)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value as string | number | boolean | null;
    }
  }
  return out;
}

/** Whether the action's record_token_filter_list holds for the tokens (none: it applies). */
export function filterHolds(action: ScheduleAction, tokens: TokenValues): boolean {
  const parsed = parseTokenFilterList(action.record_token_filter_list ?? null);
  // Stored lists are canonical (validated on write); an unreadable one never applies.
  return parsed.ok && matchesFilters(parsed.filters, tokens);
}

/** Whether an action runs for the lead: a choice always runs (its filter picks the branch). */
export function applies(action: ScheduleAction, tokens: TokenValues): boolean {
  return action.action_type === 'choice' || filterHolds(action, tokens);
}

/**
 * Where a lead stands in its phase's list: at its current action if that still exists (actions
 * added or reordered while it waited do not move it), else at its index.
 */
export function positionOf(list: readonly ScheduleAction[], currentActionId: number | null, actionIndex: number): number {
  const found = currentActionId === null ? -1 : list.findIndex((action) => action.id === currentActionId);
  return found >= 0 ? found : Math.max(0, actionIndex);
}

export interface StepState {
  phase: LeadPhase;
  /** Index of the next action to consider in the phase's ordered list. */
  index: number;
  tokens: TokenValues;
  contactAttempts: number;
  maxContactAttempts: number | null;
  expiresAt: Date | null;
  callbackAt: Date | null;
  /** Set by the runner after a callback's dial interrupted a wait: the wait goes on until then. */
  resumeAt: Date | null;
  paused: boolean;
  actionsRun: number;
}

export type StepDecision =
  | { kind: 'callback' }
  | { kind: 'run'; index: number; action: ScheduleAction }
  | { kind: 'wait'; index: number; action: ScheduleAction; until: Date; fireAt: Date }
  | { kind: 'sleep'; fireAt: Date; why: 'paused' | 'yield' | 'resume_wait' }
  | { kind: 'end_phase'; reason: EndReason }
  | { kind: 'end' };

function earliest(...times: (Date | null | undefined)[]): Date {
  return new Date(Math.min(...times.filter((time): time is Date => time instanceof Date).map((time) => time.getTime())));
}

/** When a step that waits until `until` fires: sooner if the lead expires or a callback is due first. */
export function fireTime(state: Pick<StepState, 'phase' | 'expiresAt' | 'callbackAt'>, until: Date): Date {
  return earliest(until, state.phase === 'actions' ? state.expiresAt : null, state.callbackAt);
}

/** Why the main phase is over before its actions are, if it is. */
export function mainPhaseEnd(state: Pick<StepState, 'contactAttempts' | 'maxContactAttempts' | 'expiresAt'>, now: Date): EndReason | undefined {
  if (state.expiresAt && state.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (state.maxContactAttempts !== null && state.contactAttempts >= state.maxContactAttempts) return 'max_contact_attempts';
  return undefined;
}

/** What the step does next, given the phase's ordered actions. */
export function decideNext(state: StepState, list: readonly ScheduleAction[], now: Date, timeZone = 'UTC'): StepDecision {
  if (state.paused) return { kind: 'sleep', fireAt: new Date(now.getTime() + PAUSED_RECHECK_SECONDS * 1000), why: 'paused' };
  if (state.phase === 'actions') {
    const reason = mainPhaseEnd(state, now);
    if (reason) return { kind: 'end_phase', reason };
  }
  if (state.callbackAt && state.callbackAt.getTime() <= now.getTime()) return { kind: 'callback' };
  if (state.resumeAt && state.resumeAt.getTime() > now.getTime()) return { kind: 'sleep', fireAt: fireTime(state, state.resumeAt), why: 'resume_wait' };
  if (state.actionsRun >= MAX_ACTIONS_PER_STEP) return { kind: 'sleep', fireAt: new Date(now.getTime() + YIELD_SECONDS * 1000), why: 'yield' };
  for (let index = Math.max(0, state.index); index < list.length; index++) {
    const action = list[index]!;
    if (!applies(action, state.tokens)) continue;
    if (action.action_type === 'wait') {
      // A wait whose fields cannot be read (never stored so: create checks them) waits nothing.
      const until = waitEnd(action, now, timeZone) ?? now;
      return { kind: 'wait', index, action, until, fireAt: fireTime(state, until) };
    }
    return { kind: 'run', index, action };
  }
  return state.phase === 'actions' ? { kind: 'end_phase', reason: 'schedule_finished' } : { kind: 'end' };
}

/** What a choice's branch (`choice_action_type` when its filter holds, `sub_action` when not) does. */
/**
 * Action kinds that work with an outside system this deployment has no adapter for (a CRM, a
 * marketing automation tool, an FTP server, a data append integration). They can be created, as
 * the reference allows; a lead reaching one records it as skipped (`last_skipped_action`) and
 * goes on with the next action.
 */
export const EXTERNAL_ACTION_TYPES: ReadonlySet<string> = new Set(['crm_two', 'marketing_automation', 'ftp_upload', 'data_append']);

export const CHOICE_BRANCHES = ['next_action', 'skip_next_action', 'end_of_schedule', 'end_lead', 'restart_schedule'] as const;
export type ChoiceBranch = (typeof CHOICE_BRANCHES)[number];

export type ChoiceMove = { kind: 'go'; phase: LeadPhase; index: number } | { kind: 'end_phase' } | { kind: 'end' };

/** Where a choice at `index` sends the lead. */
export function choiceMove(action: ScheduleAction, tokens: TokenValues, phase: LeadPhase, index: number): ChoiceMove {
  const branch = (filterHolds(action, tokens) ? action.choice_action_type ?? 'next_action' : action.sub_action ?? 'skip_next_action') as ChoiceBranch;
  switch (branch) {
    case 'skip_next_action':
      return { kind: 'go', phase, index: index + 2 };
    case 'end_of_schedule':
      return phase === 'actions' ? { kind: 'end_phase' } : { kind: 'end' };
    case 'end_lead':
      return { kind: 'end' };
    case 'restart_schedule':
      return { kind: 'go', phase: 'actions', index: 0 };
    default:
      return { kind: 'go', phase, index: index + 1 };
  }
}

/** When a dial that could not be placed tries again: its retry time, later by the lead's priority. */
export function dialRetryAt(retryAt: Date, leadPriority: number | null): Date {
  const offset = Math.min(Math.max(Math.round(leadPriority ?? 0), 0), MAX_PRIORITY_OFFSET_SECONDS);
  return new Date(retryAt.getTime() + offset * 1000);
}

/** When a lead expires: its expires_at, else its (or its schedule's) hours_to_expire after it was created. */
export function expiryOf(lead: Pick<LeadRecord, 'expires_at' | 'hours_to_expire' | 'created_at'>, scheduleHours: number | null): Date | null {
  if (lead.expires_at) return new Date(lead.expires_at);
  const hours = lead.hours_to_expire ?? scheduleHours;
  if (hours === null || hours === undefined) return null;
  return new Date(Date.parse(lead.created_at) + hours * 3_600_000);
}

/** The status a lead ends with: expired by age, else completed. */
export function endStatus(reason: string | null): 'expired' | 'completed' {
  return reason === 'expired' ? 'expired' : 'completed';
}

/** Deterministic weighted pick (schedule distributions): the same seed always lands on the same row. */
export function pickWeighted<T extends { weight: number }>(rows: readonly T[], seed: number): T | undefined {
  const total = rows.reduce((sum, row) => sum + Math.max(0, row.weight), 0);
  if (total <= 0) return undefined;
  let point = ((seed % total) + total) % total;
  for (const row of rows) {
    const weight = Math.max(0, row.weight);
    if (point < weight) return row;
    point -= weight;
  }
  return undefined;
}
