import * as v from 'valibot';
import { blankable, idParam, oneOf, presentString } from '../http/param-schemas.js';
import { MAX_ENCRYPTED_VALUE_BYTES } from '../ports/encryption.js';
import { defineResource } from '../resources/define.js';
import { listOf, timeParam } from '../resources/field-schemas.js';
import * as routing from '../resources/routing/integrations.js';
import { OAUTH_TOKEN_FIELDS } from './secret-fields.js';
import { secretItemsView, oauthConnectionsView, appConfigsView } from './secrets-view.js';

/**
 * Secrets, OAuth connections and app configs (docs/resources.md, "Secrets, OAuth connections and
 * app configs"). Secret values and OAuth tokens are write-only: encrypted through the encryption
 * port (KMS in AWS) with a context binding company, record and field, stored as ciphertext
 * attributes that are not columns, so no response, list or CSV can show them.
 */

const bounded = (max: number) => v.pipe(v.string('is not a string'), v.trim(), v.maxLength(max, `is too long (maximum is ${max} characters)`));
const requiredName = v.pipe(presentString, v.maxLength(100, 'is too long (maximum is 100 characters)'));
const optionalDescription = v.optional(blankable(bounded(1000)));

/** A value to encrypt: kept as sent (not trimmed: a secret's spaces are its own), at most KMS's 4 KB. */
const encryptedValue = v.pipe(
  v.string('is not a string'),
  v.nonEmpty("can't be blank"),
  v.check((value) => Buffer.byteLength(value, 'utf8') <= MAX_ENCRYPTED_VALUE_BYTES, `is too long (maximum is ${MAX_ENCRYPTED_VALUE_BYTES} bytes)`),
);

export const secretItems = defineResource({
  ...routing.secretItems,
  ...secretItemsView,
  root: 'secret_item',
  plural: 'secret_items',
  createSchema: v.object({ name: requiredName, description: optionalDescription, value: encryptedValue }),
  updateSchema: v.object({ name: v.optional(requiredName), description: optionalDescription, value: v.optional(encryptedValue) }),
  // `value` is never stored as sent: the behaviour encrypts it into value_ciphertext.
  instructions: ['value'],
  defaults: { name: null, description: null, value_last4: null, value_updated_at: null },
  order: { values: ['id', 'name', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'description'],
  unique: [{ field: 'name', scope: 'company' }],
  behaviour: () => import('./secret-item-behaviour.js'),
});

export const OAUTH_STATUSES = ['connected', 'disconnected', 'expired'] as const;

const providerKey = v.pipe(bounded(64), v.regex(/^[a-z0-9_]+$/, 'must be lower-case letters, digits and underscores'));
const scope = v.pipe(bounded(200), v.nonEmpty("can't be blank"));
const scopes = v.optional(blankable(v.pipe(listOf(scope, 'is not a list of scopes'), v.maxLength(50, 'has too many scopes (maximum is 50)'))));
const token = v.optional(blankable(encryptedValue));

const oauthFields = {
  account_identifier: v.optional(blankable(bounded(255))),
  scopes,
  status: v.optional(oneOf(OAUTH_STATUSES)),
  expires_at: v.optional(blankable(timeParam)),
  access_token: token,
  refresh_token: token,
};

export const oauthConnections = defineResource({
  ...routing.oauthConnections,
  ...oauthConnectionsView,
  root: 'oauth_connection',
  plural: 'oauth_connections',
  createSchema: v.object({ integration_id: idParam, provider: providerKey, name: requiredName, ...oauthFields }),
  updateSchema: v.object({ integration_id: v.optional(idParam), provider: v.optional(providerKey), name: v.optional(requiredName), ...oauthFields }),
  instructions: OAUTH_TOKEN_FIELDS,
  defaults: {
    integration_id: null,
    provider: null,
    name: null,
    account_identifier: null,
    scopes: [],
    status: 'connected',
    expires_at: null,
    has_access_token: false,
    has_refresh_token: false,
    tokens_updated_at: null,
  },
  filters: { integration_id: { schema: idParam }, status: { schema: oneOf(OAUTH_STATUSES) }, provider: { schema: providerKey } },
  order: { values: ['id', 'name', 'provider', 'status', 'expires_at', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'provider', 'account_identifier'],
  behaviour: () => import('./oauth-connection-behaviour.js'),
});

export const APP_CONFIG_VALUE_TYPES = ['string', 'integer', 'boolean', 'json'] as const;
type AppConfigValueType = (typeof APP_CONFIG_VALUE_TYPES)[number];
const APP_CONFIG_VALUE_MAX = 10_000;

/** A config key (`lead.retention_days`): letters, digits, `_`, `.` and `-`, unique per company. */
const configKey = v.pipe(bounded(128), v.regex(/^[A-Za-z0-9_.-]+$/, 'must be letters, digits, _, . and -'));

/**
 * A config value as its text: numbers and booleans are taken as their text, objects and arrays
 * (json configs sent as JSON) as their JSON. Whether it fits its value_type is the record check's.
 */
const configValue = v.pipe(
  v.unknown(),
  v.transform((value) => {
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    if (typeof value === 'object' && value !== null) return JSON.stringify(value);
    return value;
  }),
  bounded(APP_CONFIG_VALUE_MAX),
);

const SAFE_INTEGER_TEXT = /^-?\d{1,15}$/;

/** Why a config's value does not fit its type, or undefined when it does. */
export function appConfigValueError(valueType: AppConfigValueType, value: string): string | undefined {
  if (valueType === 'integer') return SAFE_INTEGER_TEXT.test(value) ? undefined : 'is not an integer';
  if (valueType === 'boolean') return value === 'true' || value === 'false' ? undefined : 'is not a boolean (true or false)';
  if (valueType === 'json') {
    try {
      JSON.parse(value);
      return undefined;
    } catch {
      return 'is not valid JSON';
    }
  }
  return undefined;
}

export const appConfigs = defineResource({
  ...routing.appConfigs,
  ...appConfigsView,
  root: 'app_config',
  plural: 'app_configs',
  createSchema: v.object({ name: requiredName, key: configKey, value: configValue, description: optionalDescription, value_type: v.optional(oneOf(APP_CONFIG_VALUE_TYPES)) }),
  updateSchema: v.object({
    name: v.optional(requiredName),
    key: v.optional(configKey),
    value: v.optional(configValue),
    description: optionalDescription,
    value_type: v.optional(oneOf(APP_CONFIG_VALUE_TYPES)),
  }),
  defaults: { name: null, key: null, value: '', description: null, value_type: 'string' },
  filters: { key: { schema: configKey }, value_type: { schema: oneOf(APP_CONFIG_VALUE_TYPES) } },
  order: { values: ['id', 'name', 'key', 'created_at', 'updated_at'], default: 'id' },
  fulltextFields: ['name', 'key', 'description'],
  unique: [{ field: 'key', scope: 'company' }],
  // On the record as it will be: changing value_type alone re-checks the stored value.
  check: (record): Record<string, string[]> => {
    const error = appConfigValueError(record.value_type as AppConfigValueType, String(record.value ?? ''));
    return error ? { value: [error] } : {};
  },
});
