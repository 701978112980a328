/**
 * Tells the time. Every request and domain change takes its "now" from here, so tests can pin
 * the time (a rate-limit minute, a buyer's business hours, a UTC day) instead of racing the
 * wall clock. AWS and local mode: the system clock.
 */
export interface Clock {
  now(): Date;
}
