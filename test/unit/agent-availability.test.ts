import { describe, expect, it } from 'vitest';
import { centersServing, isAgentAvailable } from '../../shared/agents/availability.js';

/** Which agents can be offered a call (shared/agents/availability.ts), from plain records. */
describe('isAgentAvailable', () => {
  const agent = { id: 1, enabled: true };
  it('needs the widget to say available', () => {
    expect(isAgentAvailable({ agent, widget: { system_status: 'available' } })).toBe(true);
    for (const system_status of ['offline', 'on_call', 'wrap_up', 'away']) expect(isAgentAvailable({ agent, widget: { system_status } })).toBe(false);
    expect(isAgentAvailable({ agent })).toBe(false);
  });
  it('is taken out by a status that pauses, or by the agent being disabled', () => {
    const widget = { system_status: 'available' };
    expect(isAgentAvailable({ agent, widget, status: { pause_agent: true } })).toBe(false);
    expect(isAgentAvailable({ agent, widget, status: { pause_agent: false, unpause_agent: true } })).toBe(true);
    expect(isAgentAvailable({ agent: { ...agent, enabled: false }, widget })).toBe(false);
  });
});

describe('centersServing', () => {
  it('keeps the enabled centers listing the offer', () => {
    const centers = [
      { id: 1, offer_ids: [5, 6], enabled: true },
      { id: 2, offer_ids: [6], enabled: false },
      { id: 3, offer_ids: [7] },
      { id: 4, offer_ids: [6] },
      { id: 5 },
    ];
    expect([...centersServing(centers, 6)]).toEqual([1, 4]);
    expect([...centersServing(centers, 8)]).toEqual([]);
  });
});
