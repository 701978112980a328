/**
 * One API access log line (JSON; API Gateway fills each `$context` variable, `-` when it has no
 * value). Deliberately absent: `$context.path` (API Gateway's path has no query string, but
 * paths carry credentials: `/secure/{secure_token}/...`) and anything holding the query string
 * (`auth_token` travels there). `routeKey` names the route with its `{parameters}` unfilled.
 */
export const ACCESS_LOG_FIELDS = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTime',
  httpMethod: '$context.httpMethod',
  routeKey: '$context.routeKey',
  status: '$context.status',
  protocol: '$context.protocol',
  responseLength: '$context.responseLength',
  /** Milliseconds from receiving the request to sending the response. */
  responseLatency: '$context.responseLatency',
  /** Milliseconds the function took, as API Gateway saw it. */
  integrationLatency: '$context.integrationLatency',
  integrationStatus: '$context.integrationStatus',
  integrationErrorMessage: '$context.integrationErrorMessage',
  /** API Gateway's own error, e.g. `Too Many Requests` when throttled. */
  errorMessage: '$context.error.message',
  errorResponseType: '$context.error.responseType',
  /** Tells whose flood a throttled partner route is taking. */
  sourceIp: '$context.identity.sourceIp',
} as const;
