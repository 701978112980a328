import { randomUUID } from 'node:crypto';
import type { EventName } from '../events/event-names.js';
import type { QueueMessage } from '../ports/events.js';
import { boundTimeline, type TimelineEntry } from './call-limits.js';
import type { Attempt, Call } from './call-states.js';
import { callView } from './call-view.js';

/** What every stage writes on a call: its timeline entries and the messages of its events. */

/** Appends to the call's timeline; never fails, trims to the limits instead (call-limits.ts). */
export function timeline(call: Call, at: Date, type: string, detail: Record<string, unknown> = {}): void {
  call.timeline = boundTimeline([...(Array.isArray(call.timeline) ? (call.timeline as TimelineEntry[]) : []), { ...detail, at: at.toISOString(), type }]);
}

/** Who an attempt rang, for its timeline entries: the buyer (null for an agent) and the agent, if one. */
export function attemptTarget(attemptNumber: number, attempt: Attempt): Record<string, unknown> {
  return { attempt: attemptNumber, buyer_id: attempt.buyer_id, ...(attempt.agent_id !== undefined ? { agent_id: attempt.agent_id } : {}) };
}

/** The outbox messages of a call's events, as the call will be saved (docs/events.md). */
export function callEvents(companyId: number, names: readonly EventName[], call: Call, at: Date): QueueMessage[] {
  return names.map((name) => {
    const id = randomUUID();
    return { kind: 'event', id, companyId, event: { id, name, companyId, occurredAt: at.toISOString(), data: callView(call) } };
  });
}
