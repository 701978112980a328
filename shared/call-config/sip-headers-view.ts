import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of sip-headers-resource.ts are shown (their views); their write side stays there. Imports no schema. */

export const sipHeadersView = defineView({
  name: routing.sipHeaders.name,
  type: 'SipHeader',
  columns: ['company_id', 'name', 'value', 'buyer_id', 'offer_id', 'enabled'],
  foreignKeys: { buyer_id: { resource: 'buyers' }, offer_id: { resource: 'offers' } },
});

export const sipHeaderParserGroupsView = defineView({
  name: routing.sipHeaderParserGroups.name,
  type: 'SipHeaderParserGroup',
  columns: ['company_id', 'name', 'description', 'offer_id', 'phone_number_id', 'enabled'],
  foreignKeys: { offer_id: { resource: 'offers' }, phone_number_id: { resource: 'phone_numbers' } },
});

export const sipHeaderParsersView = defineView({
  name: routing.sipHeaderParsers.name,
  type: 'SipHeaderParser',
  columns: ['company_id', 'name', 'sip_header_parser_group_id', 'header_name', 'token_name', 'pattern', 'enabled'],
  foreignKeys: { sip_header_parser_group_id: { resource: 'sip_header_parser_groups' } },
});
