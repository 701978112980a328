import { NotFoundError } from '../../shared/http/errors.js';
import { booleanParam } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';
import { EVENT_NAMES } from '../../shared/events/event-names.js';
import { INTEGRATION_TYPES } from '../../shared/integrations/integrations-resource.js';
import { timeZoneCollection } from '../../shared/time-zones.js';
import * as v from 'valibot';

/** The collections served by `GET /api/v1/collections/:type`: value lists for pickers. */
const collections: Record<string, (now: Date) => unknown[]> = {
  time_zone: (now) => timeZoneCollection(now),
  event: () => EVENT_NAMES.map((name) => ({ name })),
  integration_type: () => INTEGRATION_TYPES.map((name) => ({ name })),
};

export const COLLECTION_TYPES = Object.keys(collections);

export const collectionSchema = v.object({ root: v.optional(booleanParam, true) });

export const showCollection: Operation = async (request) => {
  const type = request.pathParams.type ?? '';
  // Own keys only: `constructor` or `__proto__` must not find Object's members.
  const build = Object.hasOwn(collections, type) ? collections[type] : undefined;
  if (!build) throw new NotFoundError(`No collection ${type}`);
  const { root } = validate(collectionSchema, request.params);
  const items = build(request.now) as Record<string, unknown>[];
  return {
    kind: 'list',
    plural: 'collection',
    records: items,
    metadata: { type, total_count: items.length, page: 1, per_page: items.length, total_pages: 1 },
    bare: !root,
  };
};
