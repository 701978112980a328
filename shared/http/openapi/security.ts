import type { AuthKind } from '../route-definition.js';

/**
 * How each kind of route authorisation (`auth` in the route table) appears in the document: the
 * security schemes it uses, and a sentence for the kinds OpenAPI has no scheme for (tokens in
 * the path).
 */
export const securitySchemes = {
  basicAuth: {
    type: 'http',
    scheme: 'basic',
    description: 'The company key pair: the public key as the user name, the private key as the password.',
  },
  authToken: {
    type: 'apiKey',
    in: 'query',
    name: 'auth_token',
    description: "A user's own token, instead of the key pair; also accepted as a form body field.",
  },
  carrierSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Twilio-Signature',
    description: "The voice carrier's signature of the URL and form fields with its auth token (Twilio's scheme).",
  },
} as const;

type SchemeName = keyof typeof securitySchemes;
/** One way to be authorised: every scheme named must be satisfied; `{}` is "no credentials". */
type SecurityRequirement = Partial<Record<SchemeName, string[]>>;

export interface AuthDoc {
  security: SecurityRequirement[];
  /** Said in the operation's description when the schemes alone do not tell it. */
  note?: string;
}

export const authDocs: Record<AuthKind, AuthDoc> = {
  basic: { security: [{ basicAuth: [] }, { authToken: [] }] },
  ping: {
    security: [{}, { authToken: [] }],
    note: 'No company credentials: the vanity name in the path finds the inbound webhook. A webhook with `require_user_auth_token` also needs the `auth_token` of a user of its company.',
  },
  carrier: {
    security: [{ carrierSignature: [] }],
    note: "Called by the voice carrier, signed with its auth token; an unsigned or wrongly signed request is a 403.",
  },
  secure_token: {
    security: [{}],
    note: "No credentials: the call's secure token and uuid in the path (from the call's SIP headers) authorise the request.",
  },
  lead_token: {
    security: [{}],
    note: "No credentials: the offer's or schedule's lead token authorises the request.",
  },
  none: { security: [{}], note: 'Public: no credentials.' },
};
