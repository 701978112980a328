import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ServiceApi } from './constructs/api.js';
import { ServiceTable } from './constructs/table.js';

/** The whole service: one table, one HTTP API, one function per route group. */
export class CallTrackingStack extends Stack {
  readonly table: ServiceTable;
  readonly api: ServiceApi;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);

    this.table = new ServiceTable(this, 'Table');
    // `cdk deploy -c emailFrom=noreply@your-domain` (an SES-verified identity) for team invitations.
    const emailFrom = String(this.node.tryGetContext('emailFrom') ?? 'noreply@example.com');
    this.api = new ServiceApi(this, 'Api', { table: this.table, emailFrom });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the HTTP API' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The single DynamoDB table' });
  }
}
