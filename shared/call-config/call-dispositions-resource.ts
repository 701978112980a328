import * as v from 'valibot';
import { blankable, booleanParam, idParam, presentString } from '../http/param-schemas.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { agentCallDispositionsView, callDispositionsView, COPIED_FROM_DISPOSITION, DISPOSITION_FLAGS } from './call-dispositions-view.js';

export { COPIED_FROM_DISPOSITION, DISPOSITION_FLAGS };

/**
 * Call outcomes (docs/call-configuration.md, "Dispositions and transcription"):
 * - call_dispositions: the outcomes an operator defines, each with effect flags.
 * - agent_call_dispositions: one outcome recorded on a call; the disposition's name, colours and
 *   flags are copied onto the record when it is written, and its effects follow
 *   (shared/call-config/disposition-effects.ts): the call shows it, `block_caller` blacklists the
 *   caller, `end_of_schedule` moves the call's lead to its end-of-schedule actions.
 */

const bounded = (max: number) => v.pipe(v.string('is not a string'), v.trim(), v.maxLength(max, `is too long (maximum is ${max} characters)`));
const optionalBounded = (max: number) => v.optional(blankable(bounded(max)));
/** A CSS hex colour (`#1a2b3c` or `#abc`), as the reference's text_color and background_color. */
const color = v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'is not a colour like #1a2b3c'))));
/** A short machine key (`sale`, `not_interested`), unique per company. */
const dispositionKey = v.pipe(bounded(64), v.regex(/^[a-z0-9_]+$/, 'must be lower-case letters, digits and underscores'));

const flagFields = Object.fromEntries(DISPOSITION_FLAGS.map((flag) => [flag, v.optional(booleanParam)])) as Record<(typeof DISPOSITION_FLAGS)[number], v.OptionalSchema<typeof booleanParam, undefined>>;

const dispositionFields = {
  short_name: optionalBounded(32),
  text_color: color,
  background_color: color,
  offer_id: optionalId,
  ...flagFields,
};

export const callDispositions = defineResource({
  ...routing.callDispositions,
  ...callDispositionsView,
  root: 'call_disposition',
  plural: 'call_dispositions',
  createSchema: v.object({ name: v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)')), key: dispositionKey, ...dispositionFields }),
  updateSchema: v.object({ name: v.optional(v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'))), key: v.optional(dispositionKey), ...dispositionFields }),
  defaults: {
    name: null,
    short_name: null,
    key: null,
    text_color: null,
    background_color: null,
    offer_id: null,
    ...Object.fromEntries(DISPOSITION_FLAGS.map((flag) => [flag, false])),
  },
  filters: { offer_id: { schema: idParam } },
  order: { values: ['id', 'name', 'key', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'short_name', 'key'],
  unique: [{ field: 'key', scope: 'company' }],
});

export const agentCallDispositions = defineResource({
  ...routing.agentCallDispositions,
  ...agentCallDispositionsView,
  root: 'agent_call_disposition',
  plural: 'agent_call_dispositions',
  createSchema: v.object({ call_id: idParam, call_disposition_id: idParam, notes: optionalText }),
  // The call stays the one the disposition was recorded on; another outcome or notes may follow.
  updateSchema: v.object({ call_disposition_id: v.optional(idParam), notes: optionalText }),
  defaults: {
    call_id: null,
    collaborator_id: null,
    call_disposition_id: null,
    has_disposition: false,
    notes: null,
    ...Object.fromEntries(COPIED_FROM_DISPOSITION.map((field) => [field, DISPOSITION_FLAGS.includes(field as never) ? false : null])),
  },
  filters: { call_id: { schema: idParam }, call_disposition_id: { schema: idParam } },
  order: { values: ['id', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'notes'],
  behaviour: () => import('./disposition-effects.js'),
});
