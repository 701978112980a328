import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';

/** Builds a document client; with an endpoint (DynamoDB Local) it uses dummy credentials. */
export function createDocumentClient(endpoint: string | undefined, region: string): DynamoDBDocumentClient {
  const client = new DynamoDBClient(
    endpoint
      ? { endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
      : { region },
  );
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
}

/** The one document client of the process, shared by every repository. */
export const db: DynamoDBDocumentClient = createDocumentClient(config.dynamoEndpoint, config.region);

export const tableName: string = config.tableName;
