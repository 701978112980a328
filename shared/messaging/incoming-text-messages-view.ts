import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/contacts.js';

/** How the resources of incoming-text-messages-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const incomingTextMessagesView = defineView({
  name: routing.incomingTextMessages.name,
  type: 'IncomingTextMessage',
  columns: [
    'company_id',
    'phone_number_id',
    'offer_id',
    'from',
    'to',
    'body',
    'num_media',
    'media_urls',
    'carrier',
    'carrier_message_id',
    'received_at',
    'contact_id',
    'opt_out',
    'opt_out_keyword',
  ],
});
