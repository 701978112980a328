import * as v from 'valibot';
import { deleteRecord, queryAllRecords } from '../../shared/db/records.js';
import { NotFoundError } from '../../shared/http/errors.js';
import { blankable, presentString } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { writableInput } from '../../shared/resources/engine.js';
import { serializeRecord } from '../../shared/resources/serialize.js';
import { subscriptions } from '../../shared/events/subscriptions-resource.js';

export const deleteByTargetUrlSchema = v.object({ target_url: v.optional(blankable(presentString)) });

/**
 * `DELETE /api/v1/subscriptions` with a `target_url`: removes every subscription of the
 * company posting to that URL (a client unsubscribing a URL wants no more deliveries there)
 * and answers with the first one removed; 404 when none matched. The reference makes
 * `target_url` optional: without one nothing matches (every subscription has a URL), so the
 * answer is that 404 and nothing is deleted, never "delete them all".
 */
export const deleteByTargetUrl: Operation = async (request) => {
  const { target_url } = validate(deleteByTargetUrlSchema, writableInput(subscriptions, request.params));
  const companyId = request.auth.companyId;
  if (!target_url) throw new NotFoundError('No subscription matches a missing target_url');
  const matching = (await queryAllRecords(companyId, subscriptions.name)).filter((record) => record.target_url === target_url);
  if (matching.length === 0) throw new NotFoundError('No subscription with that target_url');
  for (const record of matching) await deleteRecord(companyId, subscriptions.name, record.id);
  return { kind: 'record', root: subscriptions.root, record: serializeRecord(subscriptions, matching[0]!) };
};
