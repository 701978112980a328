import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table's physical design, declared once. The CDK table construct and the local
 * launcher both build the table from this; docs/table-design.md explains the access patterns.
 */
export const tableDesign = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. */
  ttlAttribute: 'expires_at',
} as const;

/** The CreateTable request for DynamoDB Local (on-demand, all key attributes strings). */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyNames = [
    tableDesign.partitionKey,
    tableDesign.sortKey,
    ...tableDesign.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: tableDesign.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDesign.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: tableDesign.globalIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
