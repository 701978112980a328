import middy from '@middy/core';
import { describe, expect, it } from 'vitest';
import { requestLogFields } from '../../shared/http/middleware/request-log.js';
import { logLevelFromEnv } from '../../shared/logger.js';
import { METRIC } from '../../shared/observability/metric-names.js';
import { countMetric, powertoolsMetrics, publishMetrics, setMetricsRecorder } from '../../shared/observability/metrics.js';
import { functionObservability } from '../../shared/observability/middleware.js';
import { RecordingMetrics } from '../fixtures/metrics.js';

/** What `run` writes to stdout (where Powertools Metrics writes EMF). */
function stdoutOf(run: () => void): string {
  const original = process.stdout.write;
  let written = '';
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  }) as typeof process.stdout.write;
  try {
    run();
  } finally {
    process.stdout.write = original;
  }
  return written;
}

describe('log level from the environment', () => {
  it('takes POWERTOOLS_LOG_LEVEL over LOG_LEVEL, in any case, and pino\'s fatal as CRITICAL', () => {
    expect(logLevelFromEnv({ LOG_LEVEL: 'silent' })).toBe('SILENT');
    expect(logLevelFromEnv({ LOG_LEVEL: 'warn' })).toBe('WARN');
    expect(logLevelFromEnv({ LOG_LEVEL: 'fatal' })).toBe('CRITICAL');
    expect(logLevelFromEnv({ POWERTOOLS_LOG_LEVEL: 'debug', LOG_LEVEL: 'silent' })).toBe('DEBUG');
  });

  it('is INFO when nothing or nothing known is set', () => {
    expect(logLevelFromEnv({})).toBe('INFO');
    expect(logLevelFromEnv({ LOG_LEVEL: 'loud' })).toBe('INFO');
  });
});

describe('request log fields', () => {
  it('carry route, status, whole milliseconds and the company of credentials that named one', () => {
    expect(requestLogFields({ routeKey: 'GET /api/v1/calls/{id}', status: 200, latencyMs: 12.6, auth: { companyId: 7, userId: 3, method: 'auth_token' } })).toEqual({
      route: 'GET /api/v1/calls/{id}',
      status: 200,
      latency_ms: 13,
      company_id: 7,
    });
  });

  it('leave the company out when nobody authenticated (carrier, partners, refused credentials)', () => {
    expect(requestLogFields({ routeKey: 'POST /api/v1/voice/twilio/incoming', status: 200, latencyMs: 3, auth: { companyId: 0, method: 'none' } })).toEqual({
      route: 'POST /api/v1/voice/twilio/incoming',
      status: 200,
      latency_ms: 3,
    });
    expect(requestLogFields({ routeKey: 'GET /api/v1/offers', status: 401, latencyMs: 1, auth: undefined })).not.toHaveProperty('company_id');
  });
});

describe('business metrics through Powertools', () => {
  it('are one EMF line per publish: namespace, the service dimension only, counts summed per name', () => {
    const metrics = powertoolsMetrics({ namespace: 'CallTracking', serviceName: 'call-tracking' });
    metrics.count(METRIC.callsStarted, 1);
    metrics.count(METRIC.callsStarted, 1);
    metrics.count(METRIC.staleCallsEnded, 0);
    const lines = stdoutOf(() => metrics.publish()).trim().split('\n');
    expect(lines).toHaveLength(1);
    const emf = JSON.parse(lines[0]!) as Record<string, any>;
    expect(emf._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'CallTracking',
        Dimensions: [['service']],
        Metrics: expect.arrayContaining([
          { Name: 'CallsStarted', Unit: 'Count' },
          { Name: 'StaleCallsEnded', Unit: 'Count' },
        ]),
      },
    ]);
    expect(emf.service).toBe('call-tracking');
    expect([emf.CallsStarted].flat().reduce((sum: number, value: number) => sum + value, 0)).toBe(2);
    expect(emf.StaleCallsEnded).toBe(0);
  });

  it('publish nothing when nothing was counted, and forget what was published', () => {
    const metrics = powertoolsMetrics({ namespace: 'CallTracking', serviceName: 'call-tracking' });
    expect(stdoutOf(() => metrics.publish())).toBe('');
    metrics.count(METRIC.pings, 1);
    expect(stdoutOf(() => metrics.publish())).toContain('"Pings"');
    expect(stdoutOf(() => metrics.publish())).toBe('');
  });

  it('print nothing outside Lambda (tests, npm start): the configured recorder is silent', () => {
    setMetricsRecorder();
    expect(process.env.AWS_LAMBDA_FUNCTION_NAME).toBeUndefined();
    expect(
      stdoutOf(() => {
        countMetric(METRIC.callsStarted);
        publishMetrics();
      }),
    ).toBe('');
  });
});

describe('the functions\' observability middleware', () => {
  it('publishes what the invocation counted when it succeeds and when it fails', async () => {
    const recorder = new RecordingMetrics();
    setMetricsRecorder(recorder);
    try {
      const handler = middy<{ fail: boolean }, string>()
        .use(functionObservability())
        .handler(async (event) => {
          countMetric(METRIC.deliveriesSucceeded, 2);
          if (event.fail) throw new Error('the queue is gone');
          return 'done';
        });
      await expect(handler({ fail: false }, {} as never)).resolves.toBe('done');
      expect(recorder.published()).toEqual({ DeliveriesSucceeded: 2 });
      await expect(handler({ fail: true }, {} as never)).rejects.toThrow('the queue is gone');
      expect(recorder.published()).toEqual({ DeliveriesSucceeded: 4 });
    } finally {
      setMetricsRecorder();
    }
  });
});
