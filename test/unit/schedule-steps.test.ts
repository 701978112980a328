import { describe, expect, it } from 'vitest';
import {
  choiceMove,
  decideNext,
  dialRetryAt,
  endStatus,
  expiryOf,
  fireTime,
  leadTokens,
  MAX_ACTIONS_PER_STEP,
  orderActions,
  PAUSED_RECHECK_SECONDS,
  pickWeighted,
  positionOf,
  type ScheduleAction,
  type StepState,
} from '../../shared/leads/schedule-steps.js';

const NOW = new Date('2030-05-01T12:00:00.000Z');
const at = (offsetMs: number) => new Date(NOW.getTime() + offsetMs);
const HOUR = 3_600_000;

function action(id: number, action_type: string, fields: Partial<ScheduleAction> = {}): ScheduleAction {
  return { id, action_type, owner_relation: 'actions', sortable_order: id, record_token_filter_list: null, ...fields };
}

function state(fields: Partial<StepState> = {}): StepState {
  return {
    phase: 'actions',
    index: 0,
    tokens: {},
    contactAttempts: 0,
    maxContactAttempts: null,
    expiresAt: null,
    callbackAt: null,
    resumeAt: null,
    paused: false,
    actionsRun: 0,
    ...fields,
  };
}

describe('orderActions', () => {
  it('keeps one relation, by sortable_order ascending (decimals, blank last), then id', () => {
    const all = [
      action(1, 'dial', { sortable_order: 2 }),
      action(2, 'dial', { sortable_order: 0.5 }),
      action(3, 'dial', { sortable_order: null }),
      action(4, 'dial', { sortable_order: 0.5 }),
      action(5, 'webhook', { owner_relation: 'end_of_schedule_actions', sortable_order: -1 }),
      action(6, 'dial', { sortable_order: -3 }),
    ];
    expect(orderActions(all, 'actions').map((a) => a.id)).toEqual([6, 2, 4, 1, 3]);
    expect(orderActions(all, 'end_of_schedule_actions').map((a) => a.id)).toEqual([5]);
  });
});

describe('positionOf', () => {
  const list = [action(10, 'dial'), action(11, 'wait'), action(12, 'dial')];
  it('follows the current action when it still exists, wherever it moved', () => {
    expect(positionOf(list, 12, 0)).toBe(2);
  });
  it('falls back to the index when the current action is gone or unknown', () => {
    expect(positionOf(list, 99, 1)).toBe(1);
    expect(positionOf(list, null, 3)).toBe(3);
  });
});

describe('leadTokens', () => {
  it('reads data tokens and the lead’s scalar fields, which win over data', () => {
    expect(leadTokens({ data: { zip: '10001', caller_id: 'spoofed', nested: { a: 1 } }, caller_id: '+14155550100', call_ids: [1] })).toEqual({
      zip: '10001',
      caller_id: '+14155550100',
    });
  });
});

describe('decideNext', () => {
  it('runs the first action whose filter holds, skipping those whose filter does not', () => {
    const list = [action(1, 'dial', { record_token_filter_list: ['state:CA'] }), action(2, 'webhook', { record_token_filter_list: ['state:NY|TX'] })];
    expect(decideNext(state({ tokens: { state: 'ny' } }), list, NOW)).toEqual({ kind: 'run', index: 1, action: list[1] });
  });

  it('waits until the wait ends, and fires sooner when the lead expires or a callback is due first', () => {
    const list = [action(1, 'wait', { action_wait_type: 'hours', wait_hours: 2 })];
    expect(decideNext(state(), list, NOW)).toMatchObject({ kind: 'wait', index: 0, until: at(2 * HOUR), fireAt: at(2 * HOUR) });
    expect(decideNext(state({ expiresAt: at(HOUR) }), list, NOW)).toMatchObject({ kind: 'wait', until: at(2 * HOUR), fireAt: at(HOUR) });
    expect(decideNext(state({ callbackAt: at(30 * 60_000) }), list, NOW)).toMatchObject({ kind: 'wait', fireAt: at(30 * 60_000) });
  });

  it('ends the main phase when the lead expired or reached max_contact_attempts, before anything else', () => {
    const list = [action(1, 'dial')];
    expect(decideNext(state({ expiresAt: NOW }), list, NOW)).toEqual({ kind: 'end_phase', reason: 'expired' });
    expect(decideNext(state({ contactAttempts: 3, maxContactAttempts: 3, callbackAt: NOW }), list, NOW)).toEqual({ kind: 'end_phase', reason: 'max_contact_attempts' });
    expect(decideNext(state({ contactAttempts: 2, maxContactAttempts: 3 }), list, NOW)).toMatchObject({ kind: 'run' });
  });

  it('does not end the end-of-schedule phase for expiry: its actions run', () => {
    const list = [action(1, 'webhook', { owner_relation: 'end_of_schedule_actions' })];
    expect(decideNext(state({ phase: 'end_of_schedule_actions', expiresAt: at(-HOUR) }), list, NOW)).toMatchObject({ kind: 'run', index: 0 });
  });

  it('moves to the end-of-schedule actions after the last action, and ends after the last of those', () => {
    expect(decideNext(state({ index: 1 }), [action(1, 'dial')], NOW)).toEqual({ kind: 'end_phase', reason: 'schedule_finished' });
    expect(decideNext(state({ phase: 'end_of_schedule_actions' }), [], NOW)).toEqual({ kind: 'end' });
  });

  it('dials a due callback first, and resumes a wait the callback cut short', () => {
    const list = [action(1, 'dial')];
    expect(decideNext(state({ callbackAt: NOW }), list, NOW)).toEqual({ kind: 'callback' });
    expect(decideNext(state({ resumeAt: at(HOUR) }), list, NOW)).toEqual({ kind: 'sleep', fireAt: at(HOUR), why: 'resume_wait' });
    expect(decideNext(state({ resumeAt: at(-1) }), list, NOW)).toMatchObject({ kind: 'run' });
  });

  it('sleeps while the schedule is paused, and after MAX_ACTIONS_PER_STEP actions', () => {
    expect(decideNext(state({ paused: true }), [action(1, 'dial')], NOW)).toEqual({ kind: 'sleep', fireAt: at(PAUSED_RECHECK_SECONDS * 1000), why: 'paused' });
    expect(decideNext(state({ actionsRun: MAX_ACTIONS_PER_STEP }), [action(1, 'restart_schedule')], NOW)).toEqual({ kind: 'sleep', fireAt: at(60_000), why: 'yield' });
  });
});

describe('choiceMove', () => {
  const choice = (fields: Partial<ScheduleAction>) => action(5, 'choice', { record_token_filter_list: ['tier:gold'], ...fields });
  it('takes choice_action_type when the filter holds and sub_action when not (defaults: next, skip next)', () => {
    expect(choiceMove(choice({}), { tier: 'gold' }, 'actions', 3)).toEqual({ kind: 'go', phase: 'actions', index: 4 });
    expect(choiceMove(choice({}), { tier: 'silver' }, 'actions', 3)).toEqual({ kind: 'go', phase: 'actions', index: 5 });
  });
  it('ends the phase, ends the lead or restarts the schedule', () => {
    expect(choiceMove(choice({ choice_action_type: 'end_of_schedule' }), { tier: 'gold' }, 'actions', 3)).toEqual({ kind: 'end_phase' });
    expect(choiceMove(choice({ choice_action_type: 'end_of_schedule' }), { tier: 'gold' }, 'end_of_schedule_actions', 0)).toEqual({ kind: 'end' });
    expect(choiceMove(choice({ sub_action: 'end_lead' }), {}, 'actions', 3)).toEqual({ kind: 'end' });
    expect(choiceMove(choice({ sub_action: 'restart_schedule' }), {}, 'end_of_schedule_actions', 2)).toEqual({ kind: 'go', phase: 'actions', index: 0 });
  });
});

describe('small rules', () => {
  it('pushes a dial retry back one second per lead_priority point, within 0..300', () => {
    expect(dialRetryAt(NOW, null)).toEqual(NOW);
    expect(dialRetryAt(NOW, 10)).toEqual(at(10_000));
    expect(dialRetryAt(NOW, -5)).toEqual(NOW);
    expect(dialRetryAt(NOW, 10_000)).toEqual(at(300_000));
  });
  it('expires at expires_at, else hours_to_expire (the lead’s, then the schedule’s) after creation', () => {
    const created_at = NOW.toISOString();
    expect(expiryOf({ expires_at: '2030-05-02T00:00:00.000Z', hours_to_expire: 1, created_at }, 5)).toEqual(new Date('2030-05-02T00:00:00.000Z'));
    expect(expiryOf({ expires_at: null, hours_to_expire: 1, created_at }, 5)).toEqual(at(HOUR));
    expect(expiryOf({ expires_at: null, hours_to_expire: null, created_at }, 5)).toEqual(at(5 * HOUR));
    expect(expiryOf({ expires_at: null, hours_to_expire: null, created_at }, null)).toBeNull();
  });
  it('fires a main-phase wait at the earliest of its end, the expiry and the callback', () => {
    expect(fireTime({ phase: 'actions', expiresAt: at(HOUR), callbackAt: null }, at(2 * HOUR))).toEqual(at(HOUR));
    expect(fireTime({ phase: 'end_of_schedule_actions', expiresAt: at(HOUR), callbackAt: null }, at(2 * HOUR))).toEqual(at(2 * HOUR));
  });
  it('ends expired leads as expired and every other end as completed', () => {
    expect(endStatus('expired')).toBe('expired');
    expect(endStatus('max_contact_attempts')).toBe('completed');
    expect(endStatus(null)).toBe('completed');
  });
  it('picks by weight, the same row for the same seed, never a zero-weight row', () => {
    const rows = [{ name: 'a', weight: 1 }, { name: 'b', weight: 0 }, { name: 'c', weight: 3 }];
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((seed) => pickWeighted(rows, seed)?.name)).toEqual(['a', 'c', 'c', 'c', 'a', 'c', 'c', 'c']);
    expect(pickWeighted([{ weight: 0 }], 7)).toBeUndefined();
  });
});
