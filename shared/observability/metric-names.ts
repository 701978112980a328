/**
 * The business metrics the functions publish (CloudWatch embedded metric format, namespace
 * METRICS_NAMESPACE) and the stack's dashboard and alarms read: declared once here.
 */
export const METRICS_NAMESPACE = 'CallTracking';

export const METRIC = {
  /** A call arrived at a tracking number (voice: incoming). */
  callsStarted: 'CallsStarted',
  /** A call ended (final carrier callback or the stale-call sweeper). */
  callsEnded: 'CallsEnded',
  /** A buyer conversion was booked on a call. */
  conversions: 'Conversions',
  /** An inbound webhook ping was answered (accepted or not). */
  pings: 'Pings',
  /** An inbound webhook post was answered. */
  posts: 'Posts',
  /** Calls the stale-call sweeper had to end: calls stuck in progress (call-engine health). */
  staleCallsEnded: 'StaleCallsEnded',
  /** Event deliveries and outgoing webhook sends that succeeded / failed an attempt. */
  deliveriesSucceeded: 'DeliveriesSucceeded',
  deliveriesFailed: 'DeliveriesFailed',
  /** Lead schedule steps the lead runner ran (AWS: Scheduler fires and queued steps). */
  leadStepsRun: 'LeadStepsRun',
  /** Lead steps the recovery sweeper had to schedule again (a crash between save and schedule). */
  overdueLeadSteps: 'OverdueLeadSteps',
} as const;

export type MetricName = (typeof METRIC)[keyof typeof METRIC];
