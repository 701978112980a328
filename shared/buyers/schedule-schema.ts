import * as v from 'valibot';
import { parseTimeRange } from './schedule.js';

/**
 * The request schema of a weekly schedule's days (buyers' business hours and conversion
 * schedules, shared/buyers/buyer-fields.ts), apart from the schedule's reading (schedule.ts),
 * which the call path uses: functions that read schedules do not bundle the write rules.
 */

const timeRangeSchema = v.pipe(
  v.string('is not a time range'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const parsed = parseTimeRange(dataset.value);
    if (!parsed.ok) addIssue({ message: parsed.error });
  }),
  v.trim(),
);

/** One day of a schedule, checked: day 0..6 and well-formed ranges. */
export const scheduleDaySchema = v.object(
  {
    day: v.pipe(
      v.union([v.number(), v.pipe(v.string(), v.regex(/^\d+$/), v.transform(Number))], 'is not a day (0..6, Sunday = 0)'),
      v.integer('is not a day (0..6, Sunday = 0)'),
      v.minValue(0, 'is not a day (0..6, Sunday = 0)'),
      v.maxValue(6, 'is not a day (0..6, Sunday = 0)'),
    ),
    times: v.array(timeRangeSchema, 'is not a list of time ranges'),
  },
  'is not a schedule day',
);
