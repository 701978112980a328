import * as v from 'valibot';
import { assignVisitorNumber } from '../../shared/call-config/visitor-numbers.js';
import { getRecord } from '../../shared/db/records.js';
import { NotFoundError, ValidationError } from '../../shared/http/errors.js';
import { idParam, integerParam, jsonObject } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { logger } from '../../shared/logger.js';
import { recordImpression } from '../../shared/reporting/number-impressions.js';

export const VISITOR_DEFAULT_HOLD_SECONDS = 1800;

export const visitorNumberSchema = v.object({
  visitor: v.optional(
    jsonObject(
      v.pipe(
        v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_.-]{1,100}$/)), v.pipe(v.string('is not a hash of text parameters'), v.maxLength(500, 'has a value longer than 500 characters'))),
        v.check((params) => Object.keys(params).length <= 50, 'has more than 50 parameters'),
      ),
      'is not a hash of parameters',
    ),
    {},
  ),
  hold_seconds: v.optional(v.pipe(integerParam, v.minValue(60, 'must be between 60 and 86400'), v.maxValue(86_400, 'must be between 60 and 86400')), VISITOR_DEFAULT_HOLD_SECONDS),
});

/**
 * `POST /api/v1/ring_pools/{id}/visitor_number`: a number of the pool for a landing-page visitor
 * (dynamic number insertion), held `hold_seconds` with the tokens their parameters matched
 * (docs/call-configuration.md). Called by the landing page's server with the company's API key.
 */
export const visitorNumber: Operation = async (request) => {
  const poolId = v.safeParse(idParam, request.pathParams.id);
  const companyId = request.auth.companyId;
  if (!poolId.success || !(await getRecord(companyId, 'ring_pools', poolId.output))) throw new NotFoundError();
  const params = validate(visitorNumberSchema, request.params);
  const assigned = await assignVisitorNumber(companyId, poolId.output, params.visitor as Record<string, string>, params.hold_seconds, request.now);
  if (!assigned) throw new ValidationError({ base: ['the ring pool has no numbers'] });
  // Right after the hold (its own conditional Put): the impression log entry and the day's counter.
  // The visitor keeps the number when they cannot be written.
  await recordImpression(companyId, assigned, request.now).catch((error: unknown) => logger.warn('impression not recorded', { companyId, error: String(error) }));
  return { kind: 'record', root: 'visitor_number', record: { ...assigned } };
};
