/**
 * The call engine's public face: the carrier-neutral call state machine (its statuses and moves:
 * call-states.ts), in the stages a call goes through, each in its own module:
 *   arrival and its reads         call-arrival.ts (call-start-reads.ts)
 *   inbound configuration         call-inbound.ts (token matchers, state limits, IVR answers)
 *   choosing and claiming targets call-routing.ts (buyers; agents through call-targets.ts; bids: call-bids.ts)
 *   the dial plan                 call-dial-plan.ts (dial-reads.ts)
 *   a dial's outcome              dial-outcome.ts (answered; ended: done, or the next buyer)
 *   the end and its money         call-end.ts, call-conversion.ts (rollups.ts, conversions.ts)
 *   the outbound leg              call-outbound.ts
 *   changes besides the flow      call-updates.ts (API changes, recordings, transcriptions)
 * Every move is saved through call-transition.ts. Carrier adapters and the API import from here.
 */
export type { Attempt } from './call-states.js';
export { UnknownCallError, type CallForChange } from './call-transition.js';
export type { CallInstruction } from './call-dial-plan.js';
export type { DialTarget } from './call-targets.js';
export { startCall, type IncomingCall } from './call-arrival.js';
export { routerAnswered } from './call-inbound.js';
export { buyerAnswered, dialResult, type DialOutcome } from './dial-outcome.js';
export { callFigures, endStaleCall, finishCall, rollupWrites, type CallEnding } from './call-end.js';
export { outboundAnswered, startOutboundCall, type OutboundCall } from './call-outbound.js';
export { adjustCall, recordingReady, recordOnTimeline, transcriptionChanged, type TranscriptionChange } from './call-updates.js';
