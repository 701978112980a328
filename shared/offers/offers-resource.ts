import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { idListParam, optionalId, optionalText, timeZoneParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/offers.js';
import { offersView, trafficSourcesView } from './offers-view.js';

/**
 * Offers: what a company sells calls and leads for. The reference gives no fields; these are the
 * ones call tracking users expect (docs/resources.md). `lead_token` authorises landing-page lead
 * posts and `offer_token` calls/update_by_caller_id; both are generated, read-only and unique
 * across the deployment, since they arrive without company credentials.
 */
const token = () => randomBytes(16).toString('hex');

/**
 * Sounds of the offer's calls (docs/call-configuration.md, "Sounds, answering machines and number
 * orders"): the whisper a press-one buyer hears instead of the spoken prompt, and a playlist the
 * caller hears before each buyer rings.
 */
const soundFields = { whisper_sound_file_id: optionalId, hold_sound_playlist_id: optionalId };


export const offers = defineResource({
  ...routing.offers,
  ...offersView,
  root: 'offer',
  plural: 'offers',
  // buyer_ids and buyer_group_ids: the buyers that may take the offer's calls.
  createSchema: v.object({ name: presentString, description: optionalText, time_zone: v.optional(timeZoneParam), buyer_ids: v.optional(idListParam), buyer_group_ids: v.optional(idListParam), ...soundFields }),
  updateSchema: v.object({
    name: v.optional(presentString),
    description: optionalText,
    time_zone: v.optional(timeZoneParam),
    buyer_ids: v.optional(idListParam),
    buyer_group_ids: v.optional(idListParam),
    ...soundFields,
  }),
  defaults: { name: null, description: null, time_zone: 'UTC', buyer_ids: [], buyer_group_ids: [], whisper_sound_file_id: null, hold_sound_playlist_id: null },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  unique: [
    { field: 'lead_token', scope: 'global' },
    { field: 'offer_token', scope: 'global' },
  ],
  generate: () => ({ lead_token: token(), offer_token: token() }),
});

/** A traffic source's party and external id, as the hosted service's clients send them. */
const trafficSourcePartyFields = {
  user_traffic_source_id: optionalText,
  first_name: optionalText,
  last_name: optionalText,
  company_name: optionalText,
  email: optionalText,
};

/** The name a traffic source created without one is shown with: its company, else its person. */
function partyName(fields: { company_name?: string | null; first_name?: string | null; last_name?: string | null }): string | undefined {
  if (fields.company_name) return fields.company_name;
  const person = [fields.first_name, fields.last_name].filter(Boolean).join(' ');
  return person || undefined;
}

export const trafficSources = defineResource({
  ...routing.trafficSources,
  ...trafficSourcesView,
  root: 'traffic_source',
  plural: 'traffic_sources',
  // Created the hosted service's way too: a person or company and the client's own external id,
  // without `name`, which is then the company name or the person's (docs/compatibility.md).
  createSchema: v.pipe(
    v.object({ name: v.optional(presentString), description: optionalText, time_zone: v.optional(timeZoneParam), ...trafficSourcePartyFields }),
    v.transform((fields) => ({ ...fields, name: fields.name ?? partyName(fields) })),
    v.forward(
      v.check((fields) => fields.name !== undefined, 'is required'),
      ['name'],
    ),
  ),
  updateSchema: v.object({ name: v.optional(presentString), description: optionalText, time_zone: v.optional(timeZoneParam), ...trafficSourcePartyFields }),
  defaults: { name: null, description: null, time_zone: 'UTC', user_traffic_source_id: null, first_name: null, last_name: null, company_name: null, email: null },
  order: { values: ['id', 'name', 'created_at', 'updated_at', 'user_traffic_source_id'], default: 'id' },
  fulltextFields: ['name', 'description', 'user_traffic_source_id', 'company_name', 'first_name', 'last_name'],
  unique: [{ field: 'user_traffic_source_id', scope: 'company' }],
});
