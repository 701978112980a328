/**
 * A schedule's actions as the engine runs them (docs/leads.md, "Schedules and the engine"): the
 * shape it reads and their run order. No imports: the schedule engine (schedule-steps.ts) and the
 * operator console's browser code (shared/console/logic.ts) both read it.
 */

/** A schedule action as the engine reads it (the stored record). */
export type ScheduleAction = Record<string, unknown> & {
  id: number;
  action_type: string;
  owner_relation: string;
  sortable_order?: number | null;
  record_token_filter_list?: readonly string[] | null;
};

/** A phase's (`owner_relation`'s) actions in run order: sortable_order ascending (blank last), then id. */
export function orderActions(all: readonly ScheduleAction[], phase: string): ScheduleAction[] {
  const order = (action: ScheduleAction) => (typeof action.sortable_order === 'number' ? action.sortable_order : Number.POSITIVE_INFINITY);
  return all.filter((action) => action.owner_relation === phase).sort((a, b) => order(a) - order(b) || a.id - b.id);
}
