/**
 * The AWS list prices `npm run cost` multiplies by, in one place. Source: the public pricing
 * pages below, on-demand, no free tier, no savings plans; the figures as known on the date below
 * (transcribed by hand: this repository cannot reach AWS). Check them against the pages (or the
 * Price List API) for your region before relying on the estimate, and change them here: nothing
 * else holds a price. DynamoDB's are the figures docs/benchmarks.md ("Cost per operation") uses.
 */
export interface PriceTable {
  /** DynamoDB on-demand: USD per million read / write request units; storage and PITR per GB-month. */
  dynamodb: { readPerMillion: number; writePerMillion: number; storagePerGbMonth: number; pitrPerGbMonth: number };
  /** Lambda on arm64 (the stack's architecture): USD per million requests and per GB-second. */
  lambda: { requestsPerMillion: number; perGbSecond: number };
  /** API Gateway HTTP API: USD per million requests (first 300 million a month; each 512 KB counts one). */
  apiGateway: { httpRequestsPerMillion: number };
  /** SQS standard queues: USD per million requests (each 64 KB of a request counts one). */
  sqs: { requestsPerMillion: number };
  /** EventBridge Scheduler: USD per million schedule invocations. */
  scheduler: { invocationsPerMillion: number };
  /** CloudWatch: logs ingested and stored per GB; custom metrics, standard alarms, dashboards per month. */
  cloudwatch: { logsIngestedPerGb: number; logsStoredPerGbMonth: number; metricPerMonth: number; alarmPerMonth: number; dashboardPerMonth: number };
  /** X-Ray: USD per million traces recorded. */
  xray: { tracesRecordedPerMillion: number };
  /** KMS: USD per customer-managed key a month and per 10,000 requests. */
  kms: { keyPerMonth: number; requestsPer10k: number };
  /** S3 Standard: USD per GB-month, per 1,000 PUT and per 1,000 GET requests. */
  s3: { storagePerGbMonth: number; putPer1k: number; getPer1k: number };
  /** Secrets Manager: USD per secret a month and per 10,000 API calls. */
  secretsManager: { secretPerMonth: number; apiCallsPer10k: number };
}

export const PRICES_DATE = '2026-11-28';

export const PRICE_SOURCES = [
  'https://aws.amazon.com/dynamodb/pricing/on-demand/',
  'https://aws.amazon.com/lambda/pricing/',
  'https://aws.amazon.com/api-gateway/pricing/',
  'https://aws.amazon.com/sqs/pricing/',
  'https://aws.amazon.com/eventbridge/pricing/',
  'https://aws.amazon.com/cloudwatch/pricing/',
  'https://aws.amazon.com/xray/pricing/',
  'https://aws.amazon.com/kms/pricing/',
  'https://aws.amazon.com/s3/pricing/',
  'https://aws.amazon.com/secrets-manager/pricing/',
] as const;

/** Per region; a region not listed is refused by `npm run cost` rather than priced wrongly. */
export const AWS_PRICES: Record<string, PriceTable> = {
  'us-east-1': {
    dynamodb: { readPerMillion: 0.125, writePerMillion: 0.625, storagePerGbMonth: 0.25, pitrPerGbMonth: 0.2 },
    lambda: { requestsPerMillion: 0.2, perGbSecond: 0.0000133334 },
    apiGateway: { httpRequestsPerMillion: 1.0 },
    sqs: { requestsPerMillion: 0.4 },
    scheduler: { invocationsPerMillion: 1.0 },
    cloudwatch: { logsIngestedPerGb: 0.5, logsStoredPerGbMonth: 0.03, metricPerMonth: 0.3, alarmPerMonth: 0.1, dashboardPerMonth: 3.0 },
    xray: { tracesRecordedPerMillion: 5.0 },
    kms: { keyPerMonth: 1.0, requestsPer10k: 0.03 },
    s3: { storagePerGbMonth: 0.023, putPer1k: 0.005, getPer1k: 0.0004 },
    secretsManager: { secretPerMonth: 0.4, apiCallsPer10k: 0.05 },
  },
};
