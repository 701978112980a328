import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp`
 * (epoch seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`), with
 * the `standardwebhooks` package so that receivers verify with the same library in a few lines.
 * During a secret rotation both secrets sign, space-separated, as the specification allows.
 */
export const SECRET_PREFIX = 'whsec_';

/** A new signing secret: 24 random bytes, base64, with the conventional prefix. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
}

export function signatureHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
