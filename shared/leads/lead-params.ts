import * as v from 'valibot';
import { dataProblems, type PlainValue } from '../calls/call-limits.js';
import { addFieldError, ValidationError, type FieldErrors } from '../http/errors.js';
import { blankable, booleanParam, decimalParam, integerParam, jsonObject, oneOf, parseBooleanWord } from '../http/param-schemas.js';
import { fieldErrors } from '../http/validation.js';
import { normalizeCallerNumber } from '../phone.js';
import { emailParam } from '../resources/field-schemas.js';
import { parseApiTime } from '../time.js';

/**
 * The parameters of `POST /api/v1/leads` (the reference's lead table), read from one merged
 * parameter object (query string, form fields and JSON together). Every parameter the table does
 * not name becomes a data token, as does every key of `data`. Pure: the submission module does
 * the reads and writes (shared/leads/lead-submission.ts).
 */

/** Longest callback delay and expiry accepted: ten years, so times stay far inside Date's range. */
export const MAX_CALLBACK_SECONDS = 10 * 365 * 24 * 3600;
export const MAX_HOURS_TO_EXPIRE = 10 * 365 * 24;
export const MAX_CONTACT_ATTEMPTS = 100_000;

/** Parameters that authorise the request and are never tokens. */
const CREDENTIALS = ['lead_token', 'auth_token'] as const;

/** A time parameter, kept as text and read in the owner's time zone once that is known. */
const timeText = v.pipe(
  v.union([v.string(), v.number()], 'is not a valid time'),
  v.transform(String),
  v.check((text) => parseApiTime(text, 'UTC') !== undefined, 'is not a valid time (use YYYY-MM-DD HH:MM:SS +ZZZZ)'),
);

const flag = v.optional(blankable(booleanParam));

/** The caller's number in any common shape, as E.164; blank is no number. */
export const callerParam = v.pipe(
  v.union([v.string(), v.number()], 'is not a phone number'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (String(dataset.value).trim() === '') return null;
    const number = normalizeCallerNumber(dataset.value);
    if (!number) {
      addIssue({ message: 'is not a phone number' });
      return NEVER;
    }
    return number;
  }),
);

/** The named parameters of the reference's lead table (data aside), with their validation. */
const namedEntries = {
  caller_id: v.optional(v.nullable(callerParam)),
  email: v.optional(blankable(emailParam)),
  contact_field_type: v.optional(blankable(v.pipe(v.string('is not a string'), v.trim(), v.maxLength(200, 'is too long (maximum is 200 characters)')))),
  schedule_callback_at: v.optional(blankable(timeText)),
  schedule_callback_in_seconds: v.optional(blankable(v.pipe(integerParam, v.minValue(0, 'must be greater than or equal to 0'), v.maxValue(MAX_CALLBACK_SECONDS, `must be at most ${MAX_CALLBACK_SECONDS}`)))),
  update_all_matching_leads: flag,
  apply_to: v.optional(blankable(oneOf(['calls']))),
  unblock_contact: flag,
  blocked: flag,
  assign_service_number: flag,
  assign_sms_number: flag,
  expire_existing: flag,
  delete_existing: flag,
  update_only: flag,
  lead_priority: v.optional(blankable(decimalParam)),
  restart_schedule: flag,
  auto_format_nested_fields: flag,
  next_action_at: v.optional(blankable(timeText)),
  hours_to_expire: v.optional(blankable(v.pipe(integerParam, v.minValue(1, 'must be greater than 0'), v.maxValue(MAX_HOURS_TO_EXPIRE, `must be at most ${MAX_HOURS_TO_EXPIRE}`)))),
  max_contact_attempts: v.optional(blankable(v.pipe(integerParam, v.minValue(1, 'must be greater than 0'), v.maxValue(MAX_CONTACT_ATTEMPTS, `must be at most ${MAX_CONTACT_ATTEMPTS}`)))),
  data: v.optional(blankable(jsonObject(v.record(v.string(), v.unknown()), 'is not a hash'))),
};

export const NAMED_PARAMETERS: readonly string[] = Object.keys(namedEntries);

const namedSchema = v.object(namedEntries);
type Named = v.InferOutput<typeof namedSchema>;

/** A submission as the submission logic uses it: flags as booleans, times as text, tokens flat. */
export interface LeadSubmission {
  caller_id: string | null;
  email: string | null;
  contact_field_type?: string | null;
  schedule_callback_at?: string;
  schedule_callback_in_seconds?: number;
  update_all_matching_leads: boolean;
  apply_to_calls: boolean;
  unblock_contact: boolean;
  blocked: boolean;
  assign_service_number: boolean;
  assign_sms_number: boolean;
  expire_existing: boolean;
  delete_existing: boolean;
  update_only: boolean;
  lead_priority?: number | null;
  restart_schedule: boolean;
  next_action_at?: string;
  hours_to_expire?: number | null;
  max_contact_attempts?: number | null;
  /** The data tokens this submission sets (extra parameters and `data`, `data` winning). */
  tokens: Record<string, PlainValue>;
  /** Whether caller_id / email were sent at all (an update keeps what was not sent). */
  sent: { caller_id: boolean; email: boolean };
}

/**
 * Contact fields under the names clients nest them with, by canonical name. Lifted out of nested
 * objects (and, at the top level, renamed) with `auto_format_nested_fields`.
 */
export const CONTACT_ALIASES: Readonly<Record<string, string>> = {
  caller_id: 'caller_id',
  phone: 'caller_id',
  phone_number: 'caller_id',
  phone1: 'caller_id',
  primary_phone: 'caller_id',
  mobile: 'caller_id',
  mobile_phone: 'caller_id',
  cell: 'caller_id',
  cell_phone: 'caller_id',
  telephone: 'caller_id',
  email: 'email',
  email_address: 'email',
  first_name: 'first_name',
  firstname: 'first_name',
  fname: 'first_name',
  last_name: 'last_name',
  lastname: 'last_name',
  lname: 'last_name',
  zip: 'zip',
  zip_code: 'zip',
  zipcode: 'zip',
  postal_code: 'zip',
  address: 'address',
  address1: 'address',
  street_address: 'address',
  city: 'city',
  state: 'state',
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Depth of nesting `auto_format_nested_fields` looks into (the request limits bound it anyway). */
const LIFT_DEPTH = 6;

/**
 * `auto_format_nested_fields`: the parameters with nested objects flattened. A nested contact
 * field (any alias of CONTACT_ALIASES) is lifted under its canonical name; any other nested leaf
 * becomes a token under its own key. Never a control parameter: a nested `blocked` is a token.
 * What is sent at the top level wins over anything nested, and the first nested value wins over
 * later ones. Top-level aliases are renamed when the canonical name is absent (`phone` ->
 * `caller_id`). `data` keeps its own keys (its nested objects are flattened the same way).
 */
export function liftNestedFields(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const nested: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(params)) {
    if (isPlainObject(value) && key !== 'data') nested.push([key, value]);
    else out[key] = value;
  }
  for (const [key, value] of Object.entries(params)) {
    const canonical = CONTACT_ALIASES[key.toLowerCase()];
    if (canonical && canonical !== key && out[canonical] === undefined && !isPlainObject(value)) {
      out[canonical] = value;
      delete out[key];
    }
  }
  const lifted: Record<string, unknown> = {};
  const walk = (object: Record<string, unknown>, depth: number) => {
    for (const [key, value] of Object.entries(object)) {
      if (isPlainObject(value)) {
        if (depth < LIFT_DEPTH) walk(value, depth + 1);
        continue;
      }
      const canonical = CONTACT_ALIASES[key.toLowerCase()];
      const name = canonical ?? key;
      if (out[name] !== undefined || lifted[name] !== undefined) continue;
      // Contact fields become parameters; every other nested value is a token, whatever its name.
      if (canonical === 'caller_id' || canonical === 'email') out[name] = value;
      else lifted[name] = value;
    }
  };
  for (const [, value] of nested) walk(value as Record<string, unknown>, 1);
  const data = isPlainObject(out.data) ? flattenData(out.data) : {};
  if (Object.keys(lifted).length || isPlainObject(out.data)) out.data = { ...lifted, ...data };
  return out;
}

function flattenData(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (object: Record<string, unknown>, depth: number) => {
    for (const [key, value] of Object.entries(object)) {
      if (isPlainObject(value) && depth < LIFT_DEPTH) walk(value, depth + 1);
      else if (out[key] === undefined) out[key] = value;
    }
  };
  walk(data, 1);
  return out;
}

/** A token's value: plain values as they are, anything else (lists, objects) as JSON text. */
export function tokenValue(value: unknown): PlainValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  return JSON.stringify(value);
}

/**
 * Parameters under the hosted service's own names, which the reference neutralised, by the
 * reference's name (docs/compatibility.md): read as the reference's name unless that is sent too.
 */
export const PARAMETER_ALIASES: Readonly<Record<string, string>> = { assign_trackdrive_number: 'assign_service_number' };

function withParameterAliases(params: Record<string, unknown>): Record<string, unknown> {
  let out = params;
  for (const [alias, name] of Object.entries(PARAMETER_ALIASES)) {
    if (!(alias in out)) continue;
    const { [alias]: value, ...rest } = out;
    out = name in rest ? rest : { ...rest, [name]: value };
  }
  return out;
}

/**
 * Reads a submission's parameters: the named ones validated, every other one a token. Throws
 * one 422 naming every failing field (data over the token limits included: the API refuses
 * over-limit data, it never trims it silently).
 */
export function readSubmission(params: Record<string, unknown>): LeadSubmission {
  const lift = parseBooleanWord(params.auto_format_nested_fields) === true;
  const input = withParameterAliases(lift ? liftNestedFields(params) : params);
  const named: Record<string, unknown> = {};
  const tokens: Record<string, PlainValue> = {};
  for (const [key, value] of Object.entries(input)) {
    if ((CREDENTIALS as readonly string[]).includes(key)) continue;
    if (NAMED_PARAMETERS.includes(key)) named[key] = value;
    else tokens[key] = tokenValue(value);
  }
  const result = v.safeParse(namedSchema, named, { abortEarly: false });
  const errors: FieldErrors = result.success ? {} : fieldErrors(result.issues);
  const output = (result.success ? result.output : {}) as Named;
  for (const [key, value] of Object.entries(output.data ?? {})) tokens[key] = tokenValue(value);
  for (const problem of dataProblems(tokens)) addFieldError(errors, 'data', problem);
  if (Object.keys(errors).length) throw new ValidationError(errors);
  return {
    caller_id: output.caller_id ?? null,
    email: output.email ?? null,
    contact_field_type: output.contact_field_type,
    schedule_callback_at: output.schedule_callback_at ?? undefined,
    schedule_callback_in_seconds: output.schedule_callback_in_seconds ?? undefined,
    update_all_matching_leads: output.update_all_matching_leads === true,
    apply_to_calls: output.apply_to === 'calls',
    unblock_contact: output.unblock_contact === true,
    blocked: output.blocked === true,
    assign_service_number: output.assign_service_number === true,
    assign_sms_number: output.assign_sms_number === true,
    expire_existing: output.expire_existing === true,
    delete_existing: output.delete_existing === true,
    update_only: output.update_only === true,
    lead_priority: output.lead_priority,
    restart_schedule: output.restart_schedule === true,
    next_action_at: output.next_action_at ?? undefined,
    hours_to_expire: output.hours_to_expire,
    max_contact_attempts: output.max_contact_attempts,
    tokens,
    sent: { caller_id: output.caller_id !== undefined, email: output.email !== undefined },
  };
}
