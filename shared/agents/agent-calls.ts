import { getRecord } from '../db/records.js';
import { claimFirstAgent, releaseAgent } from './agent-claims.js';
import { agentCandidates, offerOrder } from './availability.js';
import { servingCenterIds } from './call-center-effects.js';

/**
 * Agents as routing targets of inbound calls (docs/resources.md, "Agents and call centers"):
 * `agentTargets` is what the call engine offers a call to before its buyers (its port,
 * shared/calls/call-targets.ts); this module knows nothing of the engine. Agents come first: a call on an offer
 * served by an enabled call center rings the longest-idle available agent (claimed for the call,
 * availability.ts and agent-claims.ts) as attempt 1, with the offer's buyers queued behind; an
 * agent who does not answer (or is busy) is released and the call falls through to the buyers
 * like any unanswered dial. An agent's attempt has `agent_id` and no buyer.
 */

/** How long an agent's phone rings before the call falls through to the buyers. */
export const AGENT_RING_SECONDS = 20;

/** The call fields this module reads and writes (a call record is a plain object). */
type AgentCall = { id: number; uuid: string; lead_id?: unknown; caller_number?: unknown; secure_token?: unknown } & Record<string, unknown>;

/** Appends a timeline entry to the call (the engine's own appender, which bounds the timeline). */
export type NoteOnCall = (type: string, detail: Record<string, unknown>) => void;

/** An agent's attempt on a call's `attempts` (the engine's attempt, without a buyer). */
export interface AgentAttempt {
  attempt: number;
  buyer_id: null;
  buyer_name: null;
  agent_id: number;
  status: 'ringing';
  started_at: string;
  answered_at: null;
  answered_duration: null;
  released: false;
}

/** Where and how the engine rings an agent (the engine's dial target, without a buyer). */
export interface AgentDialTarget {
  buyerId: null;
  agentId: number;
  name: string | null;
  number: string;
  timeoutSeconds: number;
  dtmfTones: null;
  pressOneToAccept: false;
  callerId: string | null;
  uuid: string;
  secureToken: string;
}

/** The attempt of an agent, ringing from `at`. */
export function agentAttempt(attempt: number, agent: Record<string, unknown>, at: Date): AgentAttempt {
  return {
    attempt,
    buyer_id: null,
    buyer_name: null,
    agent_id: Number(agent.id),
    status: 'ringing',
    started_at: at.toISOString(),
    answered_at: null,
    answered_duration: null,
    released: false,
  };
}

/** Where and how to ring an agent: its number or SIP address, showing the caller's own number. */
export function agentDialTarget(agent: Record<string, unknown>, call: AgentCall): AgentDialTarget {
  return {
    buyerId: null,
    agentId: Number(agent.id),
    name: typeof agent.name === 'string' ? agent.name : null,
    number: String(agent.number ?? ''),
    timeoutSeconds: AGENT_RING_SECONDS,
    dtmfTones: null,
    pressOneToAccept: false,
    callerId: typeof call.caller_number === 'string' ? call.caller_number : null,
    uuid: call.uuid,
    secureToken: String(call.secure_token),
  };
}

/**
 * Offers a new inbound call to an agent of the offer's call centers, before its buyers: claims the
 * first available agent it can and makes it attempt 1 (mutating `call`, to be saved), with
 * `buyerIds` queued for the fall-through. The agent's id, or undefined when no agent took it (the
 * call is then routed to buyers as usual). Costs nothing for an offer without call centers.
 */
export async function routeToAgent(companyId: number, call: AgentCall, offer: Record<string, unknown> | undefined, buyerIds: ReadonlySet<number>, at: Date, note: NoteOnCall): Promise<number | undefined> {
  const centerIds = servingCenterIds(offer);
  if (centerIds.length === 0) return undefined;
  const ordered = offerOrder(await agentCandidates(companyId, centerIds));
  const { claimed, taken } = await claimFirstAgent(companyId, ordered, { id: call.id, uuid: call.uuid, leadId: typeof call.lead_id === 'number' ? call.lead_id : null }, at);
  note('agent_routing', { call_center_ids: centerIds, available: ordered.map(({ agent }) => agent.id), chosen: claimed?.agent.id ?? null, taken });
  if (!claimed) return undefined;
  const agent = claimed.agent;
  call.attempts = [agentAttempt(1, agent, at)];
  call.queue = [...buyerIds];
  call.agent_id = Number(agent.id);
  call.agent = typeof agent.name === 'string' ? agent.name : null;
  note('dial', { attempt: 1, agent_id: agent.id, number: agent.number });
  return Number(agent.id);
}

/** Where to ring the agent of a call's ringing attempt; undefined if the agent is gone. */
export async function agentToDial(companyId: number, call: AgentCall, attempt: { agent_id?: number }): Promise<AgentDialTarget | undefined> {
  const agent = typeof attempt.agent_id === 'number' ? await getRecord(companyId, 'voice_agents', attempt.agent_id) : undefined;
  return agent ? agentDialTarget(agent, call) : undefined;
}

/** The agent's part of the call is over (its dial ended, or the call did): the agent is available again. */
export async function agentLegEnded(companyId: number, agentId: number, callId: number, at: Date, talkSeconds: number): Promise<void> {
  await releaseAgent(companyId, agentId, callId, at, talkSeconds);
}

/** Agents as the call engine's targets before buyers (shared/calls/call-targets.ts wires them in). */
export const agentTargets = {
  routeFirst: routeToAgent,
  dialTarget: agentToDial,
  legEnded: agentLegEnded,
};
