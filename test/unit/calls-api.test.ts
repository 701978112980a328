import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { callChanges } from '../../functions/calls/call-changes.js';
import { callListSchema, callPredicate, creationWindow, DEFAULT_WINDOW_MS, CLOCK_SLACK_MS } from '../../functions/calls/call-filters.js';
import { fitCalls, logRows } from '../../functions/calls/call-logs.js';
import { dayRange } from '../../functions/calls/charge-rollups.js';
import { callReference, tokensMatch } from '../../functions/calls/find-call.js';
import { timelineOf } from '../../functions/calls/timeline.js';
import type { CallRecord } from '../../shared/calls/call-store.js';
import { firstIdAt, lastIdAt } from '../../shared/db/day-records.js';
import { ID_EPOCH_MS, timeOfId, timeSortableId } from '../../shared/db/ids.js';
import { ValidationError } from '../../shared/http/errors.js';
import { matchRoute } from '../../shared/http/route-match.js';
import { routes } from '../../shared/http/routes.js';

const parseList = (input: Record<string, unknown>) => v.safeParse(callListSchema, input, { abortEarly: false });

function issuesOf(input: Record<string, unknown>): Record<string, string[]> {
  const result = parseList(input);
  expect(result.success).toBe(false);
  const errors: Record<string, string[]> = {};
  for (const issue of result.issues ?? []) (errors[issue.path?.map((item) => String(item.key)).join('.') ?? 'base'] ??= []).push(issue.message);
  return errors;
}

const call = (fields: Record<string, unknown>) => ({ id: 1, buyer_converted: false, offer_converted: false, in_progress: false, ended_at: null, ...fields });

describe('call list parameters', () => {
  it('reads the boolean words, normalises the caller number and ignores blank filters', () => {
    const result = parseList({ buyer_converted: 'yes', offer_converted: '0', in_progress: 'off', caller_number: '(415) 555-2671', buyer_id: '', offer_id: '7' });
    expect(result.success).toBe(true);
    expect(result.output).toMatchObject({ buyer_converted: true, offer_converted: false, in_progress: false, caller_number: '+14155552671', offer_id: 7, per_page: 25, page: 1, root: true });
    expect(result.output).not.toHaveProperty('buyer_id', '');
    expect((result.output as Record<string, unknown>).buyer_id).toBeUndefined();
  });

  it('refuses non-words, non-numbers, unknown columns, deep pages, ascending order and too many ids', () => {
    expect(issuesOf({ in_progress: 'TRUE' })).toEqual({ in_progress: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'] });
    expect(issuesOf({ caller_number: 'call me' })).toEqual({ caller_number: ['is not a phone number'] });
    expect(issuesOf({ columns: 'id,nope,revenue,pk' })).toEqual({ columns: ['unknown column nope, pk'] });
    expect(issuesOf({ page: 41, per_page: 250 })).toEqual({ page: ['reaches past record 10000; page deeper with cursor'] });
    expect(parseList({ page: 40, per_page: 250 }).success).toBe(true);
    expect(parseList({ page: 41, per_page: 250, cursor: '-1' }).success).toBe(true);
    expect(issuesOf({ order_dir: 'asc' })).toEqual({ order_dir: ['calls are listed newest first (desc)'] });
    expect(issuesOf({ ids: Array.from({ length: 501 }, (_, i) => i + 1) })).toEqual({ ids: ['must name at most 500 ids'] });
    expect(issuesOf({ ended_at_to: '2026-13-01' })).toEqual({ ended_at_to: ['is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'] });
  });
});

describe('callPredicate', () => {
  it('keeps every call without conditions', () => {
    expect(callPredicate({})).toBeUndefined();
  });

  it('tests each flag, id and the caller', () => {
    expect(callPredicate({ buyer_converted: true })!(call({ buyer_converted: true }))).toBe(true);
    expect(callPredicate({ buyer_converted: true })!(call({}))).toBe(false);
    expect(callPredicate({ buyer_converted: false })!(call({ buyer_converted: undefined }))).toBe(true);
    expect(callPredicate({ in_progress: true })!(call({ in_progress: true }))).toBe(true);
    expect(callPredicate({ offer_converted: false })!(call({ offer_converted: true }))).toBe(false);
    expect(callPredicate({ offer_id: 3 })!(call({ offer_id: 3 }))).toBe(true);
    expect(callPredicate({ offer_id: 3 })!(call({ offer_id: 4 }))).toBe(false);
    expect(callPredicate({ number_id: 3 })!(call({ number_id: null }))).toBe(false);
    expect(callPredicate({ caller_number: '+14155552671' })!(call({ caller_number: '+14155552671' }))).toBe(true);
    expect(callPredicate({ caller_number: '+14155552671', buyer_id: 2 })!(call({ caller_number: '+14155552671', buyer_id: 1 }))).toBe(false);
    expect(callPredicate({ status: 'no_answer' })!(call({ status: 'no_answer' }))).toBe(true);
    expect(callPredicate({ status: 'no_answer' })!(call({ status: 'completed' }))).toBe(false);
  });

  it('bounds ended_at inclusively and leaves out calls that have not ended', () => {
    const from = Date.parse('2026-03-01T00:00:00Z');
    const to = Date.parse('2026-03-02T00:00:00Z');
    const keep = callPredicate({ endedFromMs: from, endedToMs: to })!;
    expect(keep(call({ ended_at: '2026-03-01T00:00:00.000Z' }))).toBe(true);
    expect(keep(call({ ended_at: '2026-03-02T00:00:00.000Z' }))).toBe(true);
    expect(keep(call({ ended_at: '2026-03-02T00:00:00.001Z' }))).toBe(false);
    expect(keep(call({ ended_at: null, in_progress: true }))).toBe(false);
    expect(callPredicate({ endedToMs: to })!(call({ ended_at: '2020-01-01T00:00:00Z' }))).toBe(true);
  });

  it('finds fulltext in contact fields and data, case-insensitively', () => {
    const keep = callPredicate({ fulltext: 'SMITH' })!;
    expect(keep(call({ last_name: 'Smith' }))).toBe(true);
    expect(keep(call({ data: { agent: 'smithers' } }))).toBe(true);
    expect(keep(call({ last_name: 'Jones' }))).toBe(false);
  });
});

describe('creationWindow', () => {
  const now = Date.parse('2026-06-15T12:00:00Z');

  it('is the last 30 days by default', () => {
    expect(creationWindow({ nowMs: now })).toEqual({ fromMs: now + CLOCK_SLACK_MS - DEFAULT_WINDOW_MS, toMs: now + CLOCK_SLACK_MS });
  });

  it('takes the bounds given, never past now or past ended_at_to, never before the id epoch', () => {
    const from = Date.parse('2026-06-01T00:00:00Z');
    const to = Date.parse('2026-06-10T00:00:00Z');
    expect(creationWindow({ createdFromMs: from, createdToMs: to, nowMs: now })).toEqual({ fromMs: from, toMs: to });
    expect(creationWindow({ createdToMs: now + DEFAULT_WINDOW_MS, nowMs: now }).toMs).toBe(now + CLOCK_SLACK_MS);
    expect(creationWindow({ endedToMs: to, nowMs: now })).toEqual({ fromMs: to - DEFAULT_WINDOW_MS, toMs: to });
    expect(creationWindow({ createdFromMs: 0, nowMs: now }).fromMs).toBe(ID_EPOCH_MS);
  });
});

describe('callChanges', () => {
  it('keeps the fields sent (also in a call root node), in cents, trimmed, blanks as null', () => {
    expect(callChanges({ revenue: '12.345', payout: 3, first_name: '  Ada ', last_name: '', zip: 90210, call: { buyer_converted: 'on', email: ' A@B.co ' }, other: 'ignored' })).toEqual({
      revenue: 12.35,
      payout: 3,
      first_name: 'Ada',
      last_name: null,
      zip: '90210',
      buyer_converted: true,
      email: 'a@b.co',
    });
    expect(callChanges({ data: '{"a":1,"b":null}' })).toEqual({ data: { a: 1, b: null } });
  });

  it('names every bad field, and refuses a request that changes nothing', () => {
    const errorsOf = (params: Record<string, unknown>) => {
      try {
        callChanges(params);
      } catch (error) {
        expect(error).toBeInstanceOf(ValidationError);
        return (error as ValidationError).errors;
      }
      throw new Error('accepted');
    };
    expect(errorsOf({ revenue: '1e3', offer_converted: 'si', city: { a: 1 }, data: 'x' })).toEqual({
      revenue: ['is not a number'],
      offer_converted: ['is not a valid boolean (use 1, true, yes, on, 0, false, no or off)'],
      city: ['is not a string'],
      data: ['is not a hash'],
    });
    expect(Object.keys(errorsOf({}))).toEqual(['base']);
    expect(errorsOf({ state: 'x'.repeat(256) })).toEqual({ state: ['is too long (at most 255 characters)'] });
  });
});

describe('finding a call', () => {
  it('reads ids and uuids, nothing else', () => {
    expect(callReference('123')).toEqual({ id: 123 });
    expect(callReference('6F9619FF-8B86-D011-B42D-00C04FC964FF')).toEqual({ uuid: '6f9619ff-8b86-d011-b42d-00c04fc964ff' });
    for (const text of [undefined, '', '0', '-1', '1.5', '99999999999999999', 'abc', '6f9619ff-8b86-d011-b42d-00c04fc964f']) expect(callReference(text), String(text)).toBeUndefined();
  });

  it('compares tokens exactly', () => {
    expect(tokensMatch('abc123', 'abc123')).toBe(true);
    expect(tokensMatch('abc124', 'abc123')).toBe(false);
    expect(tokensMatch('abc12', 'abc123')).toBe(false);
    expect(tokensMatch('', 'abc123')).toBe(false);
  });
});

describe('timelines and call logs', () => {
  const callWith = (id: number, timeline: unknown[]) => ({ id, uuid: `u${id}`, timeline }) as unknown as CallRecord;

  it('numbers the entries and shows times with an offset', () => {
    const entries = timelineOf({ timeline: [{ at: '2026-01-02T03:04:05.000Z', type: 'incoming', from: '+1' }, 'junk', { type: 'x' }] }, 'America/New_York');
    expect(entries).toEqual([
      { position: 1, at: '2026-01-01T22:04:05.000-05:00', type: 'incoming', from: '+1' },
      { position: 3, at: null, type: 'x' },
    ]);
    expect(timelineOf({})).toEqual([]);
  });

  it('orders log rows newest first across calls', () => {
    const rows = logRows(
      [
        callWith(2, [{ at: '2026-01-01T00:00:05Z', type: 'incoming' }, { at: '2026-01-01T00:00:09Z', type: 'ended' }]),
        callWith(1, [{ at: '2026-01-01T00:00:01Z', type: 'incoming' }, { at: '2026-01-01T00:00:07Z', type: 'ended', status: 'completed' }]),
      ],
      'UTC',
    );
    expect(rows.map((row) => `${String(row.call_id)}:${String(row.position)}`)).toEqual(['2:2', '1:2', '2:1', '1:1']);
    expect(rows[1]).toEqual({ call_id: 1, call_uuid: 'u1', position: 2, created_at: '2026-01-01T00:00:07.000+00:00', type: 'ended', details: { status: 'completed' } });
  });

  it('fills a page with whole calls, a long first call whole', () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ at: `2026-01-01T00:00:0${i}Z`, type: 't' }));
    const calls = [callWith(3, entries(4)), callWith(2, entries(4)), callWith(1, entries(4))];
    expect(fitCalls(calls, 9)).toEqual({ calls: calls.slice(0, 2), full: true });
    expect(fitCalls(calls, 12)).toEqual({ calls, full: false });
    expect(fitCalls(calls, 2)).toEqual({ calls: calls.slice(0, 1), full: true });
  });
});

describe('charge rollup days', () => {
  it('takes the narrowest of the day and time bounds', () => {
    expect(dayRange({})).toEqual({ fromDay: '0000-00-00', toDay: '9999-99-99' });
    expect(dayRange({ dayFrom: '2026-03-01', createdFrom: new Date('2026-03-05T23:00:00-05:00') })).toEqual({ fromDay: '2026-03-06', toDay: '9999-99-99' });
    expect(dayRange({ dayTo: '2026-03-10', createdTo: new Date('2026-03-12T00:00:00Z') })).toEqual({ fromDay: '0000-00-00', toDay: '2026-03-10' });
  });
});

describe('id bounds of a time range', () => {
  it('contain exactly the ids made in that millisecond range', () => {
    const ms = Date.parse('2026-04-01T10:00:00.123Z');
    expect(firstIdAt(ms)).toBe(timeSortableId(ms, 0));
    expect(lastIdAt(ms)).toBe(timeSortableId(ms, 4095));
    expect(timeOfId(firstIdAt(ms))).toBe(ms);
    expect(timeOfId(lastIdAt(ms) + 1)).toBe(ms + 1);
    expect(firstIdAt(ms + 0.5)).toBe(timeSortableId(ms + 1, 0));
    expect(firstIdAt(ID_EPOCH_MS - 1000)).toBe(0);
    expect(lastIdAt(ID_EPOCH_MS - 1)).toBe(-1);
    expect(lastIdAt(Date.parse('2300-01-01T00:00:00Z'))).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('call routes', () => {
  const CALL_ENDPOINTS = [
    'GET /api/v1/calls',
    'GET /api/v1/calls.csv',
    'GET /api/v1/calls/:caller_number/by_caller_number',
    'GET /api/v1/calls/live_calls',
    'GET /api/v1/calls/:id',
    'GET /api/v1/calls/:id/events',
    'POST /api/v1/calls/:id',
    'POST /api/v1/calls/update_by_caller_id/:caller_id',
    'POST /api/v1/calls/send_key_press',
    'DELETE /api/v1/calls/:id',
    'PUT /api/v1/secure/:secure_token/calls/:uuid',
    'DELETE /api/v1/secure/:secure_token/calls/:uuid',
    'GET /api/v1/secure/:secure_token/calls/:uuid/data',
    'GET /api/v1/call_logs',
    'GET /api/v1/charge_rollups',
  ];

  it('serves every call endpoint of the reference from the calls group', () => {
    for (const endpoint of CALL_ENDPOINTS) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const match = matchRoute(method, path.replace(/:(\w+)/g, '123'), routes);
      expect(match.kind, endpoint).toBe('matched');
      if (match.kind === 'matched') {
        expect(match.route.path, endpoint).toBe(path.replace(/:(\w+)/g, '{$1}'));
        expect(match.route.group, endpoint).toBe('calls');
        expect(match.route.auth, endpoint).toBe(path.includes('/secure/') ? 'secure_token' : 'basic');
      }
    }
  });

  it('prefers the literal segments over {id}', () => {
    const live = matchRoute('GET', '/api/v1/calls/live_calls', routes);
    expect(live.kind === 'matched' && live.route.operation).toBe('calls.live');
    const keyPress = matchRoute('POST', '/api/v1/calls/send_key_press', routes);
    expect(keyPress.kind === 'matched' && keyPress.route.operation).toBe('calls.sendKeyPress');
    const uuid = matchRoute('GET', '/api/v1/calls/6f9619ff-8b86-d011-b42d-00c04fc964ff', routes);
    expect(uuid.kind === 'matched' && uuid.route.operation).toBe('calls.show');
    expect(uuid.kind === 'matched' && uuid.pathParameters).toEqual({ id: '6f9619ff-8b86-d011-b42d-00c04fc964ff' });
  });
});
