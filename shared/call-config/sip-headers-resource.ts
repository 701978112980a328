import * as v from 'valibot';
import { blankable, booleanParam, idParam, presentString } from '../http/param-schemas.js';
import { patternProblem } from './text-match.js';
import { defineResource } from '../resources/define.js';
import { optionalId, optionalText } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/configuration.js';
import { sipHeadersView, sipHeaderParserGroupsView, sipHeaderParsersView } from './sip-headers-view.js';

/**
 * SIP headers (docs/call-configuration.md, "SIP headers, recording rules, state call limits and
 * token matchers"):
 * - sip_headers: a header added to the SIP URI when a SIP buyer is dialed, its value a template
 *   filled from the call's tokens and fields; scoped to a buyer and/or an offer (neither: all).
 * - sip_header_parser_groups: a set of parsers attached to an offer and/or a tracking number.
 * - sip_header_parsers: reads one header of an incoming SIP call into a token of the call's data
 *   (optionally the first capture group of a bounded, safe regex), before routing.
 */

/** A SIP header name; custom headers go out as `X-<name>` (the carrier passes only X- headers). */
export const SIP_HEADER_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
/** Names the service sets itself on every SIP dial (the reference's secure-token headers). */
export const RESERVED_SIP_HEADERS = ['svc_secure_token', 'svc_uuid'];
export const MAX_SIP_HEADER_VALUE = 256;

const bareName = (name: string) => name.replace(/^x-/i, '').toLowerCase();

const headerName = v.pipe(
  v.string('is not a string'),
  v.trim(),
  v.regex(SIP_HEADER_NAME, 'is not a valid header name (letters, digits, - and _, at most 64)'),
);
const outgoingHeaderName = v.pipe(headerName, v.check((name) => !RESERVED_SIP_HEADERS.includes(bareName(name)), 'is reserved for the secure call endpoints'));
const headerValue = v.pipe(v.string('is not a string'), v.maxLength(500, 'is longer than 500 characters'));
const tokenName = v.pipe(v.string('is not a string'), v.trim(), v.regex(/^[A-Za-z0-9_.-]{1,100}$/, 'is not a valid token name'));

/** An optional regex that runs in bounded time (shared/call-config/text-match.ts). */
export const safePatternParam = v.optional(
  blankable(
    v.pipe(
      v.string('is not a string'),
      v.rawCheck(({ dataset, addIssue }) => {
        const problem = dataset.typed ? patternProblem(dataset.value) : undefined;
        if (problem) addIssue({ message: problem });
      }),
    ),
  ),
);

export const sipHeaders = defineResource({
  ...routing.sipHeaders,
  ...sipHeadersView,
  root: 'sip_header',
  plural: 'sip_headers',
  createSchema: v.object({ name: outgoingHeaderName, value: headerValue, buyer_id: optionalId, offer_id: optionalId, enabled: v.optional(booleanParam) }),
  updateSchema: v.object({ name: v.optional(outgoingHeaderName), value: v.optional(headerValue), buyer_id: optionalId, offer_id: optionalId, enabled: v.optional(booleanParam) }),
  defaults: { name: null, value: '', buyer_id: null, offer_id: null, enabled: true },
  filters: { buyer_id: { schema: idParam }, offer_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'value'],
});

export const sipHeaderParserGroups = defineResource({
  ...routing.sipHeaderParserGroups,
  ...sipHeaderParserGroupsView,
  root: 'sip_header_parser_group',
  plural: 'sip_header_parser_groups',
  createSchema: v.object({ name: presentString, description: optionalText, offer_id: optionalId, phone_number_id: optionalId, enabled: v.optional(booleanParam) }),
  updateSchema: v.object({ name: v.optional(presentString), description: optionalText, offer_id: optionalId, phone_number_id: optionalId, enabled: v.optional(booleanParam) }),
  defaults: { name: null, description: null, offer_id: null, phone_number_id: null, enabled: true },
  filters: { offer_id: { schema: idParam }, phone_number_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  check: (record): Record<string, string[]> => (record.offer_id === null && record.phone_number_id === null ? { base: ['must be attached to an offer or a tracking number (offer_id or phone_number_id)'] } : {}),
});

export const sipHeaderParsers = defineResource({
  ...routing.sipHeaderParsers,
  ...sipHeaderParsersView,
  root: 'sip_header_parser',
  plural: 'sip_header_parsers',
  createSchema: v.object({ sip_header_parser_group_id: idParam, header_name: headerName, token_name: tokenName, pattern: safePatternParam, name: optionalText, enabled: v.optional(booleanParam) }),
  updateSchema: v.object({ sip_header_parser_group_id: v.optional(idParam), header_name: v.optional(headerName), token_name: v.optional(tokenName), pattern: safePatternParam, name: optionalText, enabled: v.optional(booleanParam) }),
  defaults: { name: null, sip_header_parser_group_id: null, header_name: null, token_name: null, pattern: null, enabled: true },
  filters: { sip_header_parser_group_id: { schema: idParam } },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'header_name', 'token_name'],
});
