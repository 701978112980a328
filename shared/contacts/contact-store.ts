import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';

/**
 * A contact's own fields: what the company wrote down about one caller number (names, e-mail,
 * notes, data), one item per company and number. Everything else a contact shows (its leads,
 * calls and blacklist entry) is read from where it lives (functions/contacts/contacts.ts).
 */
export interface ContactItem {
  number: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  notes: string | null;
  data: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  version: number;
}

export const CONTACT_FIELDS = ['first_name', 'last_name', 'email', 'notes'] as const;

export async function getContact(companyId: number, number: string): Promise<ContactItem | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.contact(companyId, number), ConsistentRead: true }));
  if (!result.Item) return undefined;
  const { pk: _pk, sk: _sk, ...item } = result.Item;
  return item as ContactItem;
}

/**
 * Writes a contact's new state if nobody wrote another since `expectedVersion` (0: it did not
 * exist). False when it moved on; the caller reads again and retries.
 */
export async function saveContact(companyId: number, contact: ContactItem, expectedVersion: number): Promise<boolean> {
  try {
    await db.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...keys.contact(companyId, contact.number), ...contact, version: expectedVersion + 1 },
        ConditionExpression: expectedVersion === 0 ? 'attribute_not_exists(pk)' : '#version = :expected',
        ...(expectedVersion === 0 ? {} : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':expected': expectedVersion } }),
      }),
    );
    return true;
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return false;
    throw error;
  }
}
