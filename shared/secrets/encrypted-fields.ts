import { encryptionPort } from '../adapters/encryption.js';
import type { EncryptionContext } from '../ports/encryption.js';

/**
 * The context a stored value is encrypted with: its company, resource, record (uuid, chosen before
 * the first write) and field. A ciphertext copied into another company's record, another record or
 * another field of the same record does not decrypt.
 */
export function storedValueContext(companyId: number, resource: string, recordUuid: string, field: string): EncryptionContext {
  return { company_id: String(companyId), resource, record_uuid: recordUuid, field };
}

/** The stored attribute holding a field's ciphertext (never a column: no response shows it). */
export const ciphertextAttribute = (field: string): string => `${field}_ciphertext`;

/**
 * Encrypts the given plaintext fields of one record: their ciphertext attributes to store (null
 * for a field sent blank, which clears it).
 */
export async function encryptFields(
  companyId: number,
  resource: string,
  recordUuid: string,
  plaintexts: Record<string, string | null>,
): Promise<Record<string, string | null>> {
  const port = encryptionPort();
  const entries = await Promise.all(
    Object.entries(plaintexts).map(async ([field, plaintext]) => [
      ciphertextAttribute(field),
      plaintext === null ? null : await port.encrypt(plaintext, storedValueContext(companyId, resource, recordUuid, field)),
    ]),
  );
  return Object.fromEntries(entries);
}
