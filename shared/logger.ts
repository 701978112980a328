import { Logger } from '@aws-lambda-powertools/logger';
import { serviceName } from './observability/runtime.js';

/**
 * Structured JSON logs (Powertools Logger): one JSON object a line, with `service`, and with the
 * request id, cold start and function name once a handler's Middy stack has run
 * `injectLambdaContext`. Errors anywhere in a line's fields are written with name, message and
 * stack. Call shape: `logger.warn('what happened', { ...fields })`.
 */

/** The level names Powertools knows; pino's `fatal` (still found in old settings) is its CRITICAL. */
const LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type LogLevelName = (typeof LEVELS)[number];

/**
 * POWERTOOLS_LOG_LEVEL, else LOG_LEVEL, in any case (`silent` in the tests, `warn` for `npm start`);
 * INFO when neither names a level. Powertools reads these itself but only in upper case, so
 * `LOG_LEVEL=silent` would otherwise log at INFO.
 */
export function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevelName {
  const named = (env.POWERTOOLS_LOG_LEVEL || env.LOG_LEVEL || '').trim().toUpperCase();
  const level = named === 'FATAL' ? 'CRITICAL' : named;
  return (LEVELS as readonly string[]).includes(level) ? (level as LogLevelName) : 'INFO';
}

export const logger = new Logger({ serviceName, logLevel: logLevelFromEnv(process.env) });
