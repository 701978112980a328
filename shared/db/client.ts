import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.js';
import { traced } from '../observability/tracer.js';
import { checkCommandInput } from './item-limits.js';

/**
 * Builds a document client; with an endpoint (DynamoDB Local) it uses dummy credentials. The
 * underlying client is the one traced (in Lambda): the document client sends through it.
 */
export function createDocumentClient(endpoint: string | undefined, region: string): DynamoDBDocumentClient {
  const client = traced(
    new DynamoDBClient(
      endpoint
        ? { endpoint, region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }
        : { region },
    ),
  );
  const documents = DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  });
  // Every command is checked against DynamoDB's key, item and number limits before it is sent.
  documents.middlewareStack.add(
    (next) => async (args) => {
      checkCommandInput(args.input as Record<string, unknown>);
      return next(args);
    },
    { step: 'initialize', name: 'storageLimits' },
  );
  return documents;
}

/** The one document client of the process, shared by every repository. */
export const db: DynamoDBDocumentClient = createDocumentClient(config.dynamoEndpoint, config.region);

export const tableName: string = config.tableName;

/** One member of a TransactWriteItems request (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
