import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque list cursors: where the previous page stopped, bound to the company and resource and
 * signed with the deployment's key, so a client can neither forge one nor replay another
 * company's. Pure given the key.
 */
export interface CursorPosition {
  companyId: number;
  resource: string;
  lastId: number;
}

function sign(payload: string, key: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, 16);
}

export function encodeCursor(position: CursorPosition, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify([position.companyId, position.resource, position.lastId])).toString('base64url');
  return `${payload}.${sign(payload, key).toString('base64url')}`;
}

/** The position, or undefined for anything malformed, tampered with or from elsewhere. */
export function decodeCursor(token: string, key: Buffer, expected: { companyId: number; resource: string }): CursorPosition | undefined {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  // Compare the signature's text, not its decoded bytes: base64url decoding skips stray characters and
  // the unused low bits of the last one, so several texts decode to the same bytes.
  const given = Buffer.from(signature);
  const wanted = Buffer.from(sign(payload, key).toString('base64url'));
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3) return undefined;
  const [companyId, resource, lastId] = parsed as unknown[];
  if (companyId !== expected.companyId || resource !== expected.resource) return undefined;
  if (typeof lastId !== 'number' || !Number.isSafeInteger(lastId) || lastId < 0) return undefined;
  return { companyId, resource, lastId };
}
