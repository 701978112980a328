import * as v from 'valibot';
import { updateRecord } from '../../shared/db/records.js';
import { NotFoundError } from '../../shared/http/errors.js';
import { booleanParam } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { pathId } from '../../shared/resources/engine.js';
import { integrations } from '../../shared/integrations/integrations-resource.js';
import { serializeRecord } from '../../shared/resources/serialize.js';

export const setActiveSchema = v.object({ active: booleanParam });

/** `PUT /api/v1/integrations/objects/:id` with `active`: switches an integration on or off. */
export const setActive: Operation = async (request) => {
  const { active } = validate(setActiveSchema, request.params);
  const now = request.now.toISOString();
  const updated = await updateRecord(request.auth.companyId, integrations.name, pathId(request), { active, updated_at: now, user_updated_at: now });
  if (!updated) throw new NotFoundError();
  return { kind: 'record', root: integrations.root, record: serializeRecord(integrations, updated) };
};
