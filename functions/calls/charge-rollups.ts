import * as v from 'valibot';
import { dayOfTime } from '../../shared/db/day-records.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, paginate } from '../../shared/http/list-params.js';
import { booleanParam, integerParam, oneOf } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { isoWithOffset, parseApiTime } from '../../shared/time.js';
import { chargeRollups, CHARGE_KINDS } from '../../shared/reporting/charges.js';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const dayParam = v.pipe(
  v.string('is not a day (YYYY-MM-DD)'),
  v.trim(),
  v.check((text) => DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text), 'is not a day (YYYY-MM-DD)'),
);
const timeText = v.pipe(
  v.string('is not a valid time'),
  v.trim(),
  v.check((text) => parseApiTime(text, 'UTC') !== undefined, 'is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'),
);

export const chargeRollupsSchema = v.object({
  page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1')), 1),
  per_page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be at least 1'), v.maxValue(MAX_PER_PAGE, `must be at most ${MAX_PER_PAGE}`)), DEFAULT_PER_PAGE),
  root: v.optional(booleanParam, true),
  time_zone: v.optional(timeZoneParam),
  created_at_from: v.optional(timeText),
  created_at_to: v.optional(timeText),
  day_from: v.optional(dayParam),
  day_to: v.optional(dayParam),
  kind: v.optional(oneOf(CHARGE_KINDS)),
});

/** The UTC days a request asks for: the later of its lower bounds to the earlier of its upper ones. Pure. */
export function dayRange(input: { createdFrom?: Date; createdTo?: Date; dayFrom?: string; dayTo?: string }): { fromDay: string; toDay: string } {
  const lows = [input.dayFrom, input.createdFrom && dayOfTime(input.createdFrom.getTime())].filter((day): day is string => Boolean(day));
  const highs = [input.dayTo, input.createdTo && dayOfTime(input.createdTo.getTime())].filter((day): day is string => Boolean(day));
  return { fromDay: lows.sort().at(-1) ?? '0000-00-00', toDay: highs.sort().at(0) ?? '9999-99-99' };
}

/**
 * `GET /api/v1/charge_rollups`: what the company was charged, one record per UTC day and kind
 * (`advanced_call_analysis`: count of requests and amount), newest day first. `created_at_from`
 * / `created_at_to` pick the UTC days they fall on, `day_from` / `day_to` name days directly.
 */
export const listChargeRollups: Operation = async (request) => {
  const params = validate(chargeRollupsSchema, request.params);
  const zone = params.time_zone ?? 'UTC';
  const { fromDay, toDay } = dayRange({
    createdFrom: params.created_at_from === undefined ? undefined : parseApiTime(params.created_at_from, zone),
    createdTo: params.created_at_to === undefined ? undefined : parseApiTime(params.created_at_to, zone),
    dayFrom: params.day_from,
    dayTo: params.day_to,
  });
  const rollups = fromDay > toDay ? [] : (await chargeRollups(request.auth.companyId, fromDay, toDay)).filter((rollup) => params.kind === undefined || rollup.kind === params.kind);
  const page = paginate(rollups, params.page, params.per_page);
  return {
    kind: 'list',
    plural: 'charge_rollups',
    records: page.items.map((rollup) => ({
      day: rollup.day,
      kind: rollup.kind,
      count: rollup.count,
      amount: rollup.amount,
      created_at: isoWithOffset(rollup.created_at, zone),
      updated_at: isoWithOffset(rollup.updated_at, zone),
    })),
    metadata: { total_count: page.total_count, page: page.page, per_page: page.per_page, total_pages: page.total_pages },
    bare: !params.root,
  };
};
