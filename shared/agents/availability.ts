import { getRecord, getRecords, queryAllRecords } from '../db/records.js';
import { servingCenterIds } from './call-center-effects.js';

/**
 * Which agents can be offered a call now (docs/resources.md, "Agents and call centers"): an
 * enabled agent of an enabled call center serving the offer, whose widget says `available`, and
 * whose agent status (if it has one) does not pause it; longest idle first. The decisions are
 * pure; the reads are the offer's stored call center ids (on the offer record the caller has
 * already read, call-center-effects.ts), then, only when it has some, one Query of the company's
 * agents and one BatchGet each of their widgets and statuses, side by side.
 */

export interface AgentCandidate {
  agent: Record<string, unknown>;
  widget?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export function isAgentAvailable({ agent, widget, status }: AgentCandidate): boolean {
  return agent.enabled !== false && widget?.system_status === 'available' && status?.pause_agent !== true;
}

const idleSince = (candidate: AgentCandidate): number => {
  const changed = candidate.widget?.system_status_changed_at;
  const time = typeof changed === 'string' ? Date.parse(changed) : Number.NaN;
  return Number.isFinite(time) ? time : Number.NEGATIVE_INFINITY;
};

/**
 * The available candidates in the order calls are offered to them: longest idle first (the
 * earliest `system_status_changed_at`, when the widget last turned `available`: an agent just
 * back from a call waits behind those who waited longer), ties by agent id.
 */
export function offerOrder(candidates: readonly AgentCandidate[]): AgentCandidate[] {
  return candidates.filter(isAgentAvailable).sort((left, right) => idleSince(left) - idleSince(right) || Number(left.agent.id) - Number(right.agent.id));
}

/** The enabled agents of `centerIds` with their widgets and statuses (any availability). */
export async function agentCandidates(companyId: number, centerIds: readonly number[]): Promise<AgentCandidate[]> {
  if (centerIds.length === 0) return [];
  const centers = new Set(centerIds);
  const members = (await queryAllRecords(companyId, 'voice_agents')).filter((agent) => centers.has(Number(agent.call_center_id)) && agent.enabled !== false);
  if (members.length === 0) return [];
  const statusIds = [...new Set(members.map((agent) => agent.agent_status_id).filter((id): id is number => typeof id === 'number'))];
  const [widgets, statuses] = await Promise.all([
    getRecords(companyId, 'agent_widgets', members.map((agent) => Number(agent.id))),
    statusIds.length ? getRecords(companyId, 'agent_statuses', statusIds) : Promise.resolve([]),
  ]);
  const widgetOf = new Map(widgets.map((widget) => [widget.id, widget]));
  const statusOf = new Map(statuses.map((status) => [status.id, status]));
  return members.map((agent) => ({ agent, widget: widgetOf.get(Number(agent.id)), status: typeof agent.agent_status_id === 'number' ? statusOf.get(agent.agent_status_id) : undefined }));
}

/** The offer's serving call centers and their available agents, in offer order. */
export async function availableAgents(companyId: number, offer: Record<string, unknown> | undefined): Promise<{ centerIds: number[]; agents: AgentCandidate[] }> {
  const centerIds = servingCenterIds(offer);
  return { centerIds, agents: offerOrder(await agentCandidates(companyId, centerIds)) };
}

/** The same for an offer id (one GetItem of the offer first). */
export async function availableAgentsForOffer(companyId: number, offerId: number): Promise<{ centerIds: number[]; agents: AgentCandidate[] }> {
  return availableAgents(companyId, await getRecord(companyId, 'offers', offerId));
}

/** The answer of a `check_for_available_instant_agent` ping: whether the offer's call centers have an available agent. */
export async function agentPingAnswer(companyId: number, webhook: Record<string, unknown>, blacklisted: boolean): Promise<Record<string, unknown>> {
  const found = typeof webhook.offer_id === 'number' && !blacklisted ? await availableAgentsForOffer(companyId, webhook.offer_id) : { centerIds: [], agents: [] };
  const reason = blacklisted
    ? 'The caller is blacklisted'
    : typeof webhook.offer_id !== 'number'
      ? 'No offer is set on this webhook'
      : found.centerIds.length === 0
        ? 'No call center serves this offer'
        : 'No agent is available';
  const available = found.agents.length > 0;
  return {
    success: available,
    status: 200,
    errors: available ? [] : [reason],
    available_agents_count: found.agents.length,
    // Names and centers only: an agent's number is not the partner's to see.
    agents: found.agents.map(({ agent }) => ({ voice_agent_id: agent.id, name: agent.name, call_center_id: agent.call_center_id })),
    call_center_ids: found.centerIds,
    test_mode: webhook.test_mode === true,
  };
}
