/**
 * The console's pure logic: what the views show, computed from the API's answers with no DOM and
 * no requests, so unit tests run it with plain values (test/unit/console-logic.test.ts).
 */

import { orderActions, type ScheduleAction } from '../leads/action-order.js';

/** The API's error envelope: `errors` by field, `base` for the whole request. */
export type ApiErrors = Record<string, string[]>;

/** Each error as a sentence: `base` ones as they are, field ones prefixed by the field. */
export function errorMessages(errors: ApiErrors | undefined, status?: number): string[] {
  const messages = Object.entries(errors ?? {}).flatMap(([field, list]) => (Array.isArray(list) ? list : [String(list)]).map((message) => (field === 'base' ? message : `${field} ${message}`)));
  if (messages.length) return messages;
  return [status ? `The service answered ${status}.` : 'The service could not be reached.'];
}

/** The Authorization value of a key pair (Basic, as the API takes it). */
export function basicAuthorization(publicKey: string, privateKey: string): string {
  const bytes = new TextEncoder().encode(`${publicKey}:${privateKey}`);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `Basic ${btoa(binary)}`;
}

/** A query string from the set values (empty strings and undefined left out). */
export function queryString(params: Record<string, string | number | boolean | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The console's views, in the navigation's order. */
export const VIEWS = [
  { id: 'live', label: 'Live calls' },
  { id: 'calls', label: 'Calls' },
  { id: 'buyers', label: 'Buyers' },
  { id: 'offers', label: 'Offers' },
  { id: 'numbers', label: 'Numbers' },
  { id: 'leads', label: 'Leads' },
  { id: 'reports', label: 'Reports' },
  { id: 'webhooks', label: 'Webhooks' },
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

/** `#/calls/123` → the view and the record id; an unknown hash is Live calls. */
export function parseHash(hash: string): { view: ViewId; id?: string } {
  const [, view, id] = hash.replace(/^#/, '').split('/');
  const known = VIEWS.find((candidate) => candidate.id === view);
  return known ? { view: known.id, ...(id ? { id: decodeURIComponent(id) } : {}) } : { view: 'live' };
}

/** Seconds as `m:ss` or `h:mm:ss`. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Seconds from an ISO time to `now` (never negative: a clock ahead of the browser's shows 0). */
export function secondsSince(iso: string, now: number): number {
  const started = Date.parse(iso);
  return Number.isNaN(started) ? 0 : Math.max(0, Math.floor((now - started) / 1000));
}

export function formatMoney(value: unknown): string {
  const amount = typeof value === 'number' ? value : Number(value ?? 0);
  return `$${(Number.isFinite(amount) ? amount : 0).toFixed(2)}`;
}

/** An ISO time with offset shown as `YYYY-MM-DD HH:MM:SS` in that offset (the API already answers in the zone asked for). */
export function formatTime(iso: unknown): string {
  if (typeof iso !== 'string' || !iso) return '';
  return iso.replace('T', ' ').replace(/\.\d+/, '').replace(/([+-]\d\d:\d\d|Z)$/, '');
}

/** A live call's state for an operator: ringing a buyer, connected to one, or still before one. */
export function liveState(call: { status?: unknown; buyer?: unknown }): string {
  const status = String(call.status ?? '');
  if (status === 'ringing') return call.buyer ? 'Ringing' : 'Routing';
  if (status === 'in-progress' || status === 'in_progress' || status === 'answered' || status === 'connected') return 'Connected';
  return status.replace(/[_-]/g, ' ') || 'In progress';
}

export const CAP_METRICS = [
  { key: 'attempt', label: 'Attempts' },
  { key: 'connection', label: 'Connections' },
  { key: 'buyer_conversion', label: 'Conversions' },
  { key: 'revenue', label: 'Revenue' },
  { key: 'earned_revenue', label: 'Earned revenue' },
] as const;

export const CAP_PERIODS = [
  { key: 'hourly', label: 'hour' },
  { key: 'daily', label: 'day' },
  { key: 'monthly', label: 'month' },
  { key: 'total', label: 'total' },
] as const;

export interface CapBar {
  /** `attempt_daily`: the columns' stem. */
  key: string;
  label: string;
  used: number;
  limit: number;
  /** used / limit, from 0 to 1 (a buyer over its cap shows a full bar). */
  fraction: number;
  full: boolean;
}

/**
 * The buyer's caps that have a limit, as bars (used against limit for each metric and period),
 * and concurrency (calls in progress against its cap) first. Metrics without a limit have no bar.
 */
export function capBars(buyer: Record<string, unknown>): CapBar[] {
  const bar = (key: string, label: string, usedValue: unknown, limitValue: unknown): CapBar[] => {
    const limit = Number(limitValue);
    if (limitValue === null || limitValue === undefined || !Number.isFinite(limit) || limit <= 0) return [];
    const used = Number(usedValue ?? 0) || 0;
    const fraction = Math.min(1, Math.max(0, used / limit));
    return [{ key, label, used, limit, fraction, full: used >= limit }];
  };
  return [
    ...bar('concurrency', 'Concurrency (live)', buyer.concurrency_cap_used, buyer.concurrency_cap_limit),
    ...CAP_METRICS.flatMap((metric) =>
      CAP_PERIODS.flatMap((period) => bar(`${metric.key}_${period.key}`, `${metric.label} per ${period.label}`, buyer[`${metric.key}_${period.key}_used`], buyer[`${metric.key}_${period.key}_limit`])),
    ),
  ];
}

/** Why the newest pings left a buyer out, newest first, at most `max` (from inbound_webhook_logs' `excluded_buyers`). */
export function exclusionReasons(logs: ReadonlyArray<Record<string, unknown>>, buyerId: number, max = 3): Array<{ at: string; reason: string }> {
  const reasons: Array<{ at: string; reason: string }> = [];
  for (const log of logs) {
    const excluded = log.excluded_buyers;
    const entries = Array.isArray(excluded) ? excluded : excluded && typeof excluded === 'object' ? Object.entries(excluded).map(([id, reason]) => ({ id, reason })) : [];
    for (const entry of entries as Array<Record<string, unknown>>) {
      const id = Number(entry.buyer_id ?? entry.id);
      if (id !== buyerId) continue;
      const reason = entry.reason ?? entry.reasons ?? entry.why;
      reasons.push({ at: formatTime(log.created_at), reason: Array.isArray(reason) ? reason.join(', ') : String(reason ?? 'excluded') });
    }
    if (reasons.length >= max) break;
  }
  return reasons.slice(0, max);
}

/**
 * Stats rows (one per interval and category value) summed per interval: the chart's x values (unix
 * seconds) and one series per measure, oldest first. With `grid` (the report's range and the
 * interval's length), every interval of the range is a point, those without calls at 0, and each
 * row falls on the nearest one (a day interval across a DST change is an hour off the grid).
 */
export function statsSeries(
  rows: ReadonlyArray<Record<string, unknown>>,
  measures: readonly string[],
  grid?: { fromMs: number; toMs: number; stepMs: number },
): { x: number[]; series: Record<string, number[]> } {
  const byStart = new Map<number, Record<string, number>>();
  const zero = () => Object.fromEntries(measures.map((measure) => [measure, 0]));
  const gridded = grid && grid.stepMs > 0 && grid.toMs >= grid.fromMs && (grid.toMs - grid.fromMs) / grid.stepMs <= 2000 ? grid : undefined;
  if (gridded) for (let at = gridded.fromMs; at <= gridded.toMs; at += gridded.stepMs) byStart.set(at, zero());
  for (const row of rows) {
    const parsed = Date.parse(String(row.interval_start));
    if (Number.isNaN(parsed)) continue;
    const at = gridded ? gridded.fromMs + Math.round((parsed - gridded.fromMs) / gridded.stepMs) * gridded.stepMs : parsed;
    const sums = byStart.get(at) ?? zero();
    for (const measure of measures) sums[measure] = (sums[measure] ?? 0) + (Number(row[measure] ?? 0) || 0);
    byStart.set(at, sums);
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  return { x: starts.map((at) => at / 1000), series: Object.fromEntries(measures.map((measure) => [measure, starts.map((at) => byStart.get(at)![measure] ?? 0)])) };
}

/** The length of a stats interval the chart can grid (hour and day; weeks and months are not evenly long). */
export function intervalMs(interval: string): number | undefined {
  return interval === 'hour' ? 3_600_000 : interval === 'day' ? 86_400_000 : undefined;
}

/** A webhook log entry's outcome: delivered, failed (to be tried again) or dead-lettered (no attempt left). */
export function deliveryOutcome(log: Record<string, unknown>): 'delivered' | 'failed' | 'dead-lettered' {
  if (log.success === true) return 'delivered';
  const attempt = Number(log.attempt ?? 0);
  const max = Number(log.max_attempts ?? 0);
  return max > 0 && attempt >= max ? 'dead-lettered' : 'failed';
}

/**
 * `YYYY-MM-DD` dates from a date input as the API's bounds of whole days in `timeZone`, which goes
 * with them (`time_zone`) so the API reads the days, and "today" without dates, in that zone
 * rather than in UTC. The views pass the company's zone (`GET /company`, shared/console/company.ts),
 * or the browser's where it is missing.
 */
export function dayBounds(from: string, to: string, timeZone?: string): { created_at_from?: string; created_at_to?: string; time_zone?: string } {
  return { ...(from ? { created_at_from: `${from} 00:00:00` } : {}), ...(to ? { created_at_to: `${to} 23:59:59` } : {}), ...(timeZone ? { time_zone: timeZone } : {}) };
}

/** The browser's IANA time zone (undefined where the browser does not say). */
export function browserTimeZone(): string | undefined {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
}

export interface ActionProgress {
  id: number;
  name: string;
  type: string;
  phase: string;
  state: 'done' | 'next' | 'to come' | 'not run';
}

/**
 * A schedule lead's actions so far and its next one: the schedule's actions in run order (each
 * phase as the engine orders it), marked by the lead's position (`phase`, `current_action_id`,
 * else `action_index`). A lead out of its schedule (ended, or an offer lead) has no position: its
 * actions are listed as not run from here on.
 */
export function leadProgress(lead: Record<string, unknown>, actions: ReadonlyArray<Record<string, unknown>>): ActionProgress[] {
  const phases = ['actions', 'end_of_schedule_actions'] as const;
  const at = phases.indexOf(lead.phase as (typeof phases)[number]);
  return phases.flatMap((phase, phaseIndex) => {
    const ordered = orderActions(actions as ScheduleAction[], phase);
    const currentIndex = ordered.findIndex((action) => action.id === lead.current_action_id);
    const position = currentIndex >= 0 ? currentIndex : Number(lead.action_index ?? 0);
    return ordered.map((action, index): ActionProgress => {
      const state = at < 0 ? 'not run' : phaseIndex < at ? 'done' : phaseIndex > at ? 'to come' : index < position ? 'done' : index === position ? 'next' : 'to come';
      return { id: action.id, name: String(action.name ?? `${action.action_type} #${action.id}`), type: String(action.action_type ?? ''), phase, state };
    });
  });
}
