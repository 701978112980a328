import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { hashSecret, mintKeyPair, mintUserToken, type KeyPair } from '../auth/credentials.js';
import { clock } from '../adapters/clock.js';
import { db, tableName } from './client.js';
import { keys } from './keys.js';

/**
 * Companies, their users and credentials. Credential items are global (looked up before the
 * company is known) and hold only hashes of the secrets.
 */
export interface ApiKeyItem {
  company_id: number;
  secret_hash: string;
}

export interface UserTokenItem {
  company_id: number;
  user_id: number;
  /**
   * false for a member (docs/permissions.md); users stored before members existed have no
   * attribute and are admins (shared/auth/access.ts `isAdminUser`).
   */
  admin?: boolean;
  /** The user's e-mail, which teams and buyer teams list (members only). */
  email?: string;
}

export async function findApiKey(publicKey: string): Promise<ApiKeyItem | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.apiKey(publicKey) }));
  return result.Item as ApiKeyItem | undefined;
}

export async function findUserToken(token: string): Promise<UserTokenItem | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.userToken(hashSecret(token)) }));
  return result.Item as UserTokenItem | undefined;
}

/** The next value of a deployment-wide sequence (company and user ids; tests hand out number ranges with it). */
export async function nextGlobalId(name: string): Promise<number> {
  const result = await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.globalSequence(name),
      UpdateExpression: 'ADD #v :one',
      ExpressionAttributeNames: { '#v': 'value' },
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(result.Attributes?.value);
}

/**
 * Every company id: companies are numbered 1..n by the global `company` sequence and never
 * deleted, so one GetItem lists them without a Scan (jobs that visit each company, like the
 * stale-call sweeper; a self-hosted deployment has few companies).
 */
export async function allCompanyIds(): Promise<number[]> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.globalSequence('company'), ConsistentRead: true }));
  const last = Number(result.Item?.value ?? 0);
  return Array.from({ length: Number.isSafeInteger(last) && last > 0 ? last : 0 }, (_, index) => index + 1);
}

export interface Company {
  id: number;
  name: string;
  time_zone: string;
}

/** The company record by id (strongly consistent: a request right after creation sees it). */
export async function findCompany(id: number): Promise<Company | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.company(id), ConsistentRead: true }));
  if (!result.Item) return undefined;
  const { id: companyId, name, time_zone } = result.Item as Company;
  return { id: companyId, name, time_zone };
}

export async function findCompanyByName(name: string): Promise<Company | undefined> {
  const lookup = await db.send(new GetCommand({ TableName: tableName, Key: keys.companyByName(name) }));
  if (!lookup.Item) return undefined;
  const company = await db.send(new GetCommand({ TableName: tableName, Key: keys.company(Number(lookup.Item.company_id)) }));
  return company.Item as Company | undefined;
}

/** Creates a company, or returns the existing one of that name. */
export async function ensureCompany(name: string, timeZone = 'UTC'): Promise<Company> {
  const existing = await findCompanyByName(name);
  if (existing) return existing;
  const id = await nextGlobalId('company');
  const company: Company = { id, name, time_zone: timeZone };
  const now = clock().now().toISOString();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: { ...keys.company(id), ...company, created_at: now } } },
        {
          Put: {
            TableName: tableName,
            Item: { ...keys.companyByName(name), company_id: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    }),
  );
  return company;
}

/** Stores an API key pair for a company; the private key is kept only as a hash. */
export async function addApiKey(companyId: number, pair: KeyPair = mintKeyPair()): Promise<KeyPair> {
  const item: ApiKeyItem = { company_id: companyId, secret_hash: hashSecret(pair.privateKey) };
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Put: {
            TableName: tableName,
            Item: { ...keys.apiKey(pair.publicKey), ...item, created_at: clock().now().toISOString() },
            ConditionExpression: 'attribute_not_exists(pk) OR company_id = :cid',
            ExpressionAttributeValues: { ':cid': companyId },
          },
        },
      ],
    }),
  );
  return pair;
}

/**
 * Creates a user with a per-user auth token; returns the token (shown once). A member (`admin:
 * false`) may do what their teams allow; an admin everything. The flag and the e-mail are copied
 * onto the token item, so a request reads both with the token.
 */
export async function addUser(companyId: number, email: string, options: { admin: boolean }): Promise<{ userId: number; authToken: string }> {
  const userId = await nextGlobalId('user');
  const authToken = mintUserToken();
  const now = clock().now().toISOString();
  await db.send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName, Item: { ...keys.record(companyId, 'users', userId), id: userId, email, admin: options.admin, created_at: now } } },
        {
          Put: {
            TableName: tableName,
            Item: { ...keys.userToken(hashSecret(authToken)), company_id: companyId, user_id: userId, admin: options.admin, email: email.toLowerCase() },
          },
        },
      ],
    }),
  );
  return { userId, authToken };
}
