/**
 * What the observability modules need to know about where the code runs. The Lambda runtime sets
 * AWS_LAMBDA_FUNCTION_NAME; `npm start`, the tests, the CLIs and the benchmarks' own processes do
 * not (bench:bundles imitates the runtime on purpose, to measure what a cold start loads).
 */
export function runningInLambda(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.AWS_LAMBDA_FUNCTION_NAME);
}

/**
 * The `service` of every log line, metric and trace: POWERTOOLS_SERVICE_NAME (the stack sets
 * `call-tracking`), with the same default so a function deployed without it still matches the
 * dashboard's and alarms' `service` dimension.
 */
export const serviceName: string = process.env.POWERTOOLS_SERVICE_NAME || 'call-tracking';
