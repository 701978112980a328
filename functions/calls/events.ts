import * as v from 'valibot';
import { booleanParam } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { timeZoneParam } from '../../shared/resources/field-schemas.js';
import { ADVANCED_CALL_ANALYSIS_RATE, recordCharge } from '../../shared/reporting/charges.js';
import { findCompanyCall } from './find-call.js';
import { timelineOf } from './timeline.js';

export const callEventsSchema = v.object({ root: v.optional(booleanParam, true), time_zone: v.optional(timeZoneParam) });

/**
 * `GET /api/v1/calls/:id/events` (advanced call analysis): everything that happened on the call,
 * in order (routing decisions with excluded buyers and why, dials, answers, conversions, payouts,
 * updates, key presses, hang-ups). Each request for a call of the company is charged at
 * ADVANCED_CALL_ANALYSIS_RATE into the day's charge rollup (`GET /api/v1/charge_rollups`);
 * a 404 is not charged.
 */
export const callEvents: Operation = async (request) => {
  const params = validate(callEventsSchema, request.params);
  const companyId = request.auth.companyId;
  const call = await findCompanyCall(request.auth, request.pathParams.id);
  await recordCharge(companyId, 'advanced_call_analysis', ADVANCED_CALL_ANALYSIS_RATE, request.now);
  const events = timelineOf(call, params.time_zone ?? 'UTC');
  return {
    kind: 'list',
    plural: 'events',
    records: events,
    metadata: {
      call_id: call.id,
      uuid: call.uuid,
      total_count: events.length,
      charge: { kind: 'advanced_call_analysis', amount: ADVANCED_CALL_ANALYSIS_RATE },
    },
    bare: !params.root,
  };
};
