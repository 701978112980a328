import { INPUT_LIMITS } from '../input-limits.js';
import type { JsonSchema } from './json-schema.js';
import type { ErrorStatus } from './operation-doc.js';

/**
 * The reference's envelopes (Conventions 5 and 6, Errors) as JSON Schema, written from
 * shared/http/envelope.ts: `recordEnvelope`, `listEnvelope`, `errorEnvelope`.
 */

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** `errors` of an answer: messages per field, `base` for the request as a whole. */
const fieldErrors: JsonSchema = {
  type: 'object',
  additionalProperties: { type: 'array', items: { type: 'string' } },
  description: 'Messages per field; `base` holds those about the request as a whole.',
};

export const ErrorEnvelope: JsonSchema = {
  type: 'object',
  required: ['status', 'errors'],
  properties: {
    status: { type: 'integer', description: 'The HTTP status, repeated.' },
    errors: fieldErrors,
    metadata: {
      type: 'object',
      properties: { request_id: { type: 'string', description: 'On a 500: the id to quote when reporting it.' } },
    },
  },
};

/**
 * A refusal of ping, post and full in the partners' shape (shared/routing/inbound.ts,
 * partnerErrors): `success: false`, `status`, the messages as a list, and by field in `field_errors`.
 */
export const PartnerErrorEnvelope: JsonSchema = {
  type: 'object',
  required: ['success', 'status', 'errors'],
  properties: {
    success: { const: false },
    status: { type: 'integer', description: 'The HTTP status, repeated.' },
    errors: { type: 'array', items: { type: 'string' }, description: "The messages, each led by its field's name (partner scripts join them)." },
    field_errors: fieldErrors,
  },
};

export const ListMetadata: JsonSchema = {
  type: 'object',
  properties: {
    root: { type: 'string', description: 'The name of the root node.' },
    total_count: { type: ['integer', 'null'], description: 'How many records match; null where the count is not known: leads filtered by `offer_id` with `schedule_id`, or by `fulltext` (docs/leads.md).' },
    page: { type: 'integer' },
    per_page: { type: 'integer' },
    total_pages: { type: 'integer' },
    cursor: { type: 'string', description: 'The cursor this page started at (cursor paging).' },
    next_cursor: { type: ['string', 'integer', 'null'], description: 'Where the next page starts (send it as `cursor`); none after the last page.' },
  },
  description: 'Paging facts: `page`, `per_page`, `total_pages` and `total_count` for numbered pages; `cursor` and `next_cursor` with `cursor=`.',
};

/**
 * One record under its root node, with a checksum of its content (and its resource's
 * `associations`, when it has some). A resource whose root depends on the record (`rootByField`)
 * answers under exactly one of `roots`.
 */
export function recordEnvelope(roots: string | readonly string[], row: JsonSchema, associations: JsonSchema = { type: 'object' }, extra: Record<string, JsonSchema> = {}): JsonSchema {
  const names = typeof roots === 'string' ? [roots] : roots;
  const one = names.length === 1;
  return {
    type: 'object',
    required: ['status', 'errors', ...(one ? names : []), 'checksum', 'metadata'],
    properties: {
      status: { const: 200 },
      errors: { type: 'object', maxProperties: 0 },
      ...Object.fromEntries(names.map((name) => [name, row])),
      associations,
      checksum: { type: 'string', pattern: '^[0-9a-f]{32}$', description: "MD5 of the record's JSON: compare it to see whether the record changed." },
      metadata: { type: 'object', required: ['root'], properties: { root: one ? { const: names[0] } : { enum: [...names] } } },
      ...extra,
    },
    ...(one ? {} : { oneOf: names.map((name) => ({ required: [name] })) }),
  };
}

/** Records under the plural root with paging metadata, or (`root=false`) the bare array. */
export function listEnvelope(plural: string, row: JsonSchema, alsoAs?: string, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    anyOf: [
      {
        type: 'object',
        required: ['status', 'errors', plural, 'metadata'],
        properties: {
          status: { const: 200 },
          errors: { type: 'object', maxProperties: 0 },
          [plural]: { type: 'array', items: row },
          ...(alsoAs ? { [alsoAs]: { type: 'array', items: row, description: `The same records as \`${plural}\` (the hosted service's name).` } } : {}),
          metadata: ref('ListMetadata'),
          ...extra,
        },
      },
      { type: 'array', items: row, description: 'With `root=false`: the records alone.' },
    ],
  };
}

/** Why each error status is answered; every one carries the error envelope. */
const ERROR_REASONS: Record<ErrorStatus, { name: string; description: string; errors: Record<string, string[]> }> = {
  400: { name: 'BadRequest', description: 'The body is not JSON or a form, or not an object.', errors: { body: ['is not valid JSON'] } },
  401: { name: 'Unauthorized', description: 'Credentials are missing or wrong (always the same answer).', errors: { base: ['Missing or invalid credentials'] } },
  403: {
    name: 'Forbidden',
    description: "A user's teams do not grant the permission the route needs, or a field the write sets (`errors.base` names it; docs/permissions.md); on the carrier's routes, the carrier signature is missing or wrong.",
    errors: { base: ['needs the calls update permission for the field payout'], payout: ['may not be changed with these credentials'] },
  },
  404: { name: 'NotFound', description: "Nothing of the caller's company has that name or id (another company's records are not found either).", errors: { base: ['Not found'] } },
  409: { name: 'Conflict', description: 'A value that must be unique is taken.', errors: { vanity_uri: ['has already been taken'] } },
  410: { name: 'Gone', description: 'What the request refers to has expired.', errors: { ping_id: ['has expired; ping again'] } },
  413: { name: 'PayloadTooLarge', description: 'The request, or the answer it asks for, is over a limit (docs/limits.md).', errors: { body: [`is larger than ${INPUT_LIMITS.bodyBytes} bytes`] } },
  422: { name: 'UnprocessableEntity', description: 'A parameter is invalid: messages per field.', errors: { target_url: ['is not a valid URL'] } },
  429: { name: 'TooManyRequests', description: 'A rate limit is used up.', errors: { base: ['Rate limit exceeded (rate_limit_per_minute 60)'] } },
  500: { name: 'InternalServerError', description: 'Something failed on the service side; the answer names the request id.', errors: { base: ['Internal server error'] } },
};

export const errorResponseName = (status: ErrorStatus): string => ERROR_REASONS[status].name;

/** The response of a refusal of ping, post or full: the partners' shape, or the error envelope where the shared layers refuse first (a body too large, bad JSON). */
export const partnerErrorResponseName = (status: ErrorStatus): string => `Partner${ERROR_REASONS[status].name}`;

/** `components.responses` of ping, post and full's refusals (partnerErrorResponseName). */
export function partnerErrorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ERROR_REASONS).map(([status, reason]) => [
      partnerErrorResponseName(Number(status) as ErrorStatus),
      {
        description: reason.description,
        content: { 'application/json': { schema: { anyOf: [ref('PartnerErrorEnvelope'), ref('ErrorEnvelope')] } } },
      },
    ]),
  );
}

/** `components.responses`: one per error status, each the error envelope with an example. */
export function errorResponses(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(ERROR_REASONS).map(([status, reason]) => [
      reason.name,
      {
        description: reason.description,
        content: {
          'application/json': {
            schema: ref('ErrorEnvelope'),
            example: { status: Number(status), errors: reason.errors, metadata: status === '500' ? { request_id: 'c0ffee00-0000-4000-8000-000000000000' } : {} },
          },
        },
      },
    ]),
  );
}
