import { getRecords, queryAllRecords } from '../db/records.js';

/**
 * Which agents can be offered a call now (docs/resources.md, "Agents and call centers"): an
 * enabled agent of an enabled call center serving the offer, whose widget says `available`, and
 * whose agent status (if it has one) does not pause it. The decision is pure; the reads are two
 * Queries (the company's call centers and agents) and two BatchGets (widgets, statuses).
 */

export interface AgentCandidate {
  agent: Record<string, unknown>;
  widget?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

export function isAgentAvailable({ agent, widget, status }: AgentCandidate): boolean {
  return agent.enabled !== false && widget?.system_status === 'available' && status?.pause_agent !== true;
}

/** The enabled call centers serving `offerId`. */
export function centersServing(centers: readonly Record<string, unknown>[], offerId: number): Set<number> {
  return new Set(
    centers.filter((center) => center.enabled !== false && Array.isArray(center.offer_ids) && center.offer_ids.includes(offerId)).map((center) => Number(center.id)),
  );
}

/** The offer's call centers and their available agents, in agent id order. */
export async function availableAgentsForOffer(companyId: number, offerId: number): Promise<{ centerIds: number[]; agents: Record<string, unknown>[] }> {
  const centerIds = centersServing(await queryAllRecords(companyId, 'call_centers'), offerId);
  if (centerIds.size === 0) return { centerIds: [], agents: [] };
  const members = (await queryAllRecords(companyId, 'voice_agents')).filter((agent) => centerIds.has(Number(agent.call_center_id)) && agent.enabled !== false);
  if (members.length === 0) return { centerIds: [...centerIds], agents: [] };
  const statusIds = [...new Set(members.map((agent) => agent.agent_status_id).filter((id): id is number => typeof id === 'number'))];
  const [widgets, statuses] = await Promise.all([
    getRecords(companyId, 'agent_widgets', members.map((agent) => Number(agent.id))),
    statusIds.length ? getRecords(companyId, 'agent_statuses', statusIds) : Promise.resolve([]),
  ]);
  const widgetOf = new Map(widgets.map((widget) => [widget.id, widget]));
  const statusOf = new Map(statuses.map((status) => [status.id, status]));
  const agents = members
    .filter((agent) => isAgentAvailable({ agent, widget: widgetOf.get(Number(agent.id)), status: typeof agent.agent_status_id === 'number' ? statusOf.get(agent.agent_status_id) : undefined }))
    .sort((left, right) => Number(left.id) - Number(right.id));
  return { centerIds: [...centerIds], agents };
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
    errors: available ? {} : { base: [reason] },
    available_agents_count: found.agents.length,
    // Names and centers only: an agent's number is not the partner's to see.
    agents: found.agents.map((agent) => ({ voice_agent_id: agent.id, name: agent.name, call_center_id: agent.call_center_id })),
    call_center_ids: found.centerIds,
    test_mode: webhook.test_mode === true,
  };
}
