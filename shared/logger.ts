import { pino } from 'pino';

/**
 * Structured JSON logs (pino): CloudWatch indexes the fields in AWS, and locally the same lines
 * go to stdout. LOG_LEVEL=silent quiets them in tests.
 */
export const logger = pino({ level: process.env.LOG_LEVEL ?? 'info', base: undefined });
