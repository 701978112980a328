import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, tableDesign } from '../db/table-design.js';

/**
 * Creates the table from the shared table design unless it exists (local and test mode). A table
 * made by an earlier version (a kept `npm start` data directory) gets the indexes the design added
 * since, as a CDK deployment adds them to the deployed table.
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existed'> {
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    await addMissingIndexes(client, tableName, new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName)));
    return 'existed';
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(new CreateTableCommand(createTableInput(tableName)));
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: tableDesign.ttlAttribute, Enabled: true },
    }),
  );
  return 'created';
}

async function addMissingIndexes(client: DynamoDBClient, tableName: string, existing: ReadonlySet<string | undefined>): Promise<void> {
  const wanted = createTableInput(tableName);
  for (const index of wanted.GlobalSecondaryIndexes ?? []) {
    if (existing.has(index.IndexName)) continue;
    const keyNames = new Set(index.KeySchema?.map((key) => key.AttributeName));
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: wanted.AttributeDefinitions?.filter((definition) => keyNames.has(definition.AttributeName)),
        GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.IndexName, KeySchema: index.KeySchema, Projection: index.Projection } }],
      }),
    );
    await waitForIndexes(client, tableName);
  }
  // Also one a start cut short left being created.
  await waitForIndexes(client, tableName);
}

/** Until every index of the table is ACTIVE: items with the keys of one still being created are refused. */
async function waitForIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if ((Table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === 'ACTIVE')) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the indexes of ${tableName} did not become active within a minute`);
}
