import { deploymentSecret } from '../db/secrets.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { ValidationError } from './errors.js';

/**
 * The cursor parameter of every cursor-paged list: one signing key for the deployment, positions
 * bound to the company and the list (`resource`), shared/http/cursor.ts.
 */
const CURSOR_SECRET = 'list-cursor';

export function cursorKey(): Promise<Buffer> {
  return deploymentSecret(CURSOR_SECRET);
}

/** The id a `cursor` parameter continues below; undefined for none or `-1` (newest first). */
export function cursorPosition(cursor: string | undefined, key: Buffer, companyId: number, resource: string): number | undefined {
  if (cursor === undefined || cursor === '-1') return undefined;
  const position = decodeCursor(cursor, key, { companyId, resource });
  if (!position) throw new ValidationError({ cursor: ['is not a valid cursor'] });
  return position.lastId;
}

/**
 * `metadata.next_cursor`: where the next page starts, or 0 after the last page. A page that
 * stopped at the day limit before it was full goes on from where its walk stopped (`resumeBeforeId`).
 */
export function nextCursor(more: boolean, last: { id: number } | undefined, key: Buffer, companyId: number, resource: string, resumeBeforeId?: number): string | 0 {
  if (more && last) return encodeCursor({ companyId, resource, lastId: last.id }, key);
  return resumeBeforeId !== undefined ? encodeCursor({ companyId, resource, lastId: resumeBeforeId }, key) : 0;
}
