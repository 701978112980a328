import type { TestProject } from 'vitest/node';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.js';
import { ensureTable } from '../../shared/local/table-setup.js';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
    tableName: string;
  }
}

/** Starts DynamoDB Local in memory once per test run and creates the table from the design. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dynamo = await startDynamoDbLocal();
  const tableName = 'call-tracking-test';
  const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await ensureTable(client, tableName);
  client.destroy();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  project.provide('tableName', tableName);
  return () => dynamo.stop();
}
