import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableDesign, type TableIndex } from '../../shared/db/table-design.js';

/** Every key attribute in the design is a string. */
const stringKey = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

/**
 * The single table, built from the shared design so the deployed table and DynamoDB Local's
 * table cannot drift apart.
 */
export class ServiceTable extends dynamodb.TableV2 {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      partitionKey: stringKey(tableDesign.partitionKey),
      sortKey: stringKey(tableDesign.sortKey),
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: tableDesign.ttlAttribute,
      globalSecondaryIndexes: tableDesign.globalIndexes.map((index: TableIndex) => ({
        indexName: index.indexName,
        partitionKey: stringKey(index.partitionKey),
        sortKey: stringKey(index.sortKey),
        projectionType: dynamodb.ProjectionType[index.projection],
        ...(index.nonKeyAttributes ? { nonKeyAttributes: [...index.nonKeyAttributes] } : {}),
      })),
      // Customer data: never delete the table with the stack, nor by hand without first
      // turning deletion protection off.
      removalPolicy: RemovalPolicy.RETAIN,
      deletionProtection: true,
    });
  }
}
