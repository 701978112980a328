import { agentTargets } from '../agents/agent-calls.js';
import type { DialExtras } from '../call-config/dial-extras.js';

/**
 * Targets a call is offered to before the offer's buyers: the engine's port, as buyers come to it
 * through shared/routing/. An attempt without a buyer (`buyer_id` null) is such a target's: the
 * engine claims it on arrival, rings it and frees it when its leg ends through this port alone,
 * and the targets' modules import nothing of the engine. Today they are the agents of the offer's
 * call centers (shared/agents/agent-calls.ts).
 */
export interface FirstTargets {
  /**
   * Offers a new inbound call to a target of its offer: claims one and makes it the call's ringing
   * attempt 1 (mutating `call`, to be saved) with `buyerIds` queued behind; its id, or undefined
   * when none took the call (it then goes to its buyers).
   */
  routeFirst(companyId: number, call: TargetCall, offer: Record<string, unknown> | undefined, buyerIds: ReadonlySet<number>, at: Date, note: (type: string, detail: Record<string, unknown>) => void): Promise<number | undefined>;
  /** Where to ring the target of a ringing attempt without a buyer; undefined when it is gone. */
  dialTarget(companyId: number, call: TargetCall, attempt: { agent_id?: number }): Promise<DialTarget | undefined>;
  /** The target's leg of the call is over (its dial ended, or the call did): it is free again. */
  legEnded(companyId: number, targetId: number, callId: number, at: Date, talkSeconds: number): Promise<void>;
}

/** Where and how a dial rings its target (a buyer, or a target before buyers), for the carrier adapters. */
export interface DialTarget {
  /** The buyer dialed; null when an agent is (agentId). */
  buyerId: number | null;
  /** The agent dialed (a target before buyers, call-targets.ts). */
  agentId?: number;
  name: string | null;
  /** E.164 number or sip: URI. */
  number: string;
  timeoutSeconds: number;
  dtmfTones: string | null;
  pressOneToAccept: boolean;
  /** Caller id to show the buyer. */
  callerId: string | null;
  uuid: string;
  secureToken: string;
  /** Configured SIP headers for a SIP buyer (sip_headers), beside the secure-token ones. */
  sipHeaders?: DialExtras['sipHeaders'];
  /** Record this dial (call_recording_rules): dual or mono channels; null/absent: no recording. */
  record?: DialExtras['record'];
}

/** The call as a target sees it (a call record is a plain object). */
type TargetCall = { id: number; uuid: string } & Record<string, unknown>;

/** The targets before buyers the engine calls: wired here, checked against the port by the compiler. */
export const firstTargets: FirstTargets = agentTargets;
