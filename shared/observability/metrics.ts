import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { logger } from '../logger.js';
import { METRICS_NAMESPACE, type MetricName } from './metric-names.js';
import { runningInLambda, serviceName } from './runtime.js';

/**
 * The business metrics port: domain code counts (`countMetric`), the end of each invocation
 * publishes (`publishMetrics`, run by the handlers' Middy stacks). In Lambda the counts become
 * one CloudWatch embedded-metric-format line per invocation (Powertools Metrics: namespace
 * POWERTOOLS_METRICS_NAMESPACE, default `CallTracking`; the only dimension is `service`).
 * Elsewhere (`npm start`, tests, CLIs) nothing is recorded or printed; tests install a recorder.
 */
export interface MetricsRecorder {
  count(name: MetricName, value: number): void;
  /** Writes what was counted since the last publish, and forgets it. */
  publish(): void;
}

const noMetrics: MetricsRecorder = { count: () => undefined, publish: () => undefined };

/**
 * Counts kept by Powertools Metrics and written as EMF to stdout, which CloudWatch Logs turns into
 * metrics. The Metrics instance is made on the first count, not at init (issue 12): most requests
 * count nothing.
 */
export function powertoolsMetrics(options: { namespace: string; serviceName: string }): MetricsRecorder {
  let metrics: Metrics | undefined;
  return {
    count: (name, value) => {
      metrics ??= new Metrics({ namespace: options.namespace, serviceName: options.serviceName, logger });
      metrics.addMetric(name, MetricUnit.Count, value);
    },
    publish: () => {
      // Most requests count nothing; publishing an empty set only makes Powertools warn.
      if (metrics?.hasStoredMetrics()) metrics.publishStoredMetrics();
    },
  };
}

function configuredRecorder(): MetricsRecorder {
  if (!runningInLambda()) return noMetrics;
  return powertoolsMetrics({ namespace: process.env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE, serviceName });
}

let recorder: MetricsRecorder = configuredRecorder();

/** Adds `value` (default 1) to a business metric of this invocation. */
export function countMetric(name: MetricName, value = 1): void {
  recorder.count(name, value);
}

/** Publishes this invocation's counts. A failure is logged, never thrown: metrics must not fail a request. */
export function publishMetrics(): void {
  try {
    recorder.publish();
  } catch (error) {
    logger.warn('metrics: publishing failed', { error });
  }
}

/** Replaces the recorder (tests record counts); no argument goes back to the configured one. */
export function setMetricsRecorder(replacement?: MetricsRecorder): void {
  recorder = replacement ?? configuredRecorder();
}
