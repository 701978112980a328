import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { booleanParam, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalCount, optionalId, optionalText, timeZoneParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/schedules.js';
import { schedulesView } from './schedules-view.js';

/**
 * Schedules: follow-up plans that leads submitted with the schedule's `lead_token` run through
 * (their actions, then their end-of-schedule actions, docs/leads.md). `lead_token` is generated,
 * read-only and unique across the deployment, like an offer's, since lead posts carry no company
 * credentials. `offer_id` is the offer whose buyers take the schedule's dialed calls.
 */
const token = () => randomBytes(16).toString('hex');

const fields = {
  description: optionalText,
  time_zone: v.optional(timeZoneParam),
  offer_id: optionalId,
  paused: v.optional(booleanParam),
  hours_to_expire: optionalCount,
  max_contact_attempts: optionalCount,
};

export const schedules = defineResource({
  ...routing.schedules,
  ...schedulesView,
  root: 'schedule',
  plural: 'schedules',
  createSchema: v.object({ name: presentString, ...fields }),
  updateSchema: v.object({ name: v.optional(presentString), ...fields }),
  defaults: { name: null, description: null, time_zone: 'UTC', offer_id: null, paused: false, hours_to_expire: null, max_contact_attempts: null },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  unique: [{ field: 'lead_token', scope: 'global' }],
  generate: () => ({ lead_token: token() }),
  // A lead post finds the schedule and the settings a new lead takes from one GetItem of its token's lookup.
  lookupAttributes: (record) => ({
    offer_id: record.offer_id ?? null,
    paused: record.paused === true,
    hours_to_expire: record.hours_to_expire ?? null,
    max_contact_attempts: record.max_contact_attempts ?? null,
    time_zone: record.time_zone ?? 'UTC',
  }),
});
