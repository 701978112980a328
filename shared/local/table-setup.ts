import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTableInput, tableDesign } from '../db/table-design.js';

/** Creates the table from the shared table design unless it exists (local and test mode). */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<'created' | 'existed'> {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
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
