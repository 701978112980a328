/**
 * Process configuration, read once at module load so a missing setting fails at cold start
 * rather than deep inside a request.
 */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name}`);
  return value;
}

export interface Config {
  /** The one DynamoDB table every record lives in. */
  tableName: string;
  /** Set only in local and test mode: the DynamoDB Local endpoint. */
  dynamoEndpoint: string | undefined;
  region: string;
}

export const config: Config = {
  tableName: required('TABLE_NAME'),
  dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
  region: process.env.AWS_REGION ?? 'us-east-1',
};
