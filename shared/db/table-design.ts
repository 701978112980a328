import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/** One of the table's global secondary indexes. */
export interface TableIndex {
  readonly indexName: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /**
   * What an index entry holds. ALL serves lists straight from the index, but every save that
   * changes any attribute of an indexed item also rewrites its entry (a write unit per KB per
   * index). KEYS_ONLY entries (and INCLUDE entries, with `nonKeyAttributes`) change only when
   * their keys (or those attributes) do, so an item saved many times pays for its entry once;
   * reads fetch the items by the keys they return.
   */
  readonly projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  readonly nonKeyAttributes?: readonly string[];
}

/**
 * The single table's physical design, declared once. The CDK table construct and the local
 * launcher both build the table from this; docs/table-design.md explains the access patterns.
 */
export const tableDesign = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
    // Calls in progress: a call is saved by each of its webhooks, and an ALL entry would be
    // rewritten by each save (docs/table-design.md, "live calls"). A call's offer changes at most
    // once, when a menu routes it to another offer.
    { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk', projection: 'INCLUDE', nonKeyAttributes: ['offer_id'] },
  ],
  /** Epoch seconds; DynamoDB deletes the item some time after it passes. */
  ttlAttribute: 'expires_at',
} as const satisfies { globalIndexes: readonly TableIndex[]; [name: string]: unknown };

/** Every attribute that is a partition key of the table or one of its indexes. */
export const partitionKeyNames: readonly string[] = [tableDesign.partitionKey, ...tableDesign.globalIndexes.map((index) => index.partitionKey)];
/** Every attribute that is a sort key of the table or one of its indexes. */
export const sortKeyNames: readonly string[] = [tableDesign.sortKey, ...tableDesign.globalIndexes.map((index) => index.sortKey)];

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
      Projection: projectionOf(index),
    })),
  };
}

/** An index's Projection as CreateTable and UpdateTable take it. */
export function projectionOf(index: TableIndex): { ProjectionType: TableIndex['projection']; NonKeyAttributes?: string[] } {
  return { ProjectionType: index.projection, ...(index.nonKeyAttributes ? { NonKeyAttributes: [...index.nonKeyAttributes] } : {}) };
}
