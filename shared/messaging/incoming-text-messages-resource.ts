import * as v from 'valibot';
import { idParam } from '../http/param-schemas.js';
import { normalizeCallerNumber } from '../phone.js';
import { defineResource } from '../resources/define.js';
import * as routing from '../resources/routing/contacts.js';
import { incomingTextMessagesView } from './incoming-text-messages-view.js';

/**
 * incoming_text_messages (docs/resources.md, "Incoming text messages"): text messages callers
 * sent to a tracking number, stored by the carrier's inbound-SMS webhook
 * (shared/messaging/inbound-sms.ts). Read only: list and show, no create, update or delete.
 */

/** `from`: a caller number in any shape, compared in E.164 as stored. */
const callerNumberParam = v.pipe(
  v.string('is not a phone number'),
  v.maxLength(40, 'is not a phone number'),
  v.check((text) => normalizeCallerNumber(text) !== undefined, 'is not a phone number'),
  v.transform((text) => normalizeCallerNumber(text)!),
);

export const incomingTextMessages = defineResource({
  ...routing.incomingTextMessages,
  ...incomingTextMessagesView,
  root: 'incoming_text_message',
  plural: 'incoming_text_messages',
  createSchema: v.object({}),
  updateSchema: v.object({}),
  defaults: {},
  filters: { phone_number_id: { schema: idParam }, from: { schema: callerNumberParam } },
  order: { values: ['id', 'received_at', 'created_at'], default: 'id' },
  fulltextFields: ['body', 'from'],
  // A retried webhook names the same carrier message: one record per message, deployment-wide.
  unique: [{ field: 'carrier_message_id', scope: 'global' }],
});
