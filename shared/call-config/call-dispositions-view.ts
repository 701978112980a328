import { defineView } from '../resources/define.js';
import * as routing from '../resources/routing/configuration.js';

/** How the resources of call-dispositions-resource.ts are shown (their views); their write side stays there. Imports no schema. */

/** The effect flags, in the reference's order (agent_call_dispositions' columns). */
export const DISPOSITION_FLAGS = ['call_answered', 'agent_handled', 'buyer_handled', 'qualified', 'end_of_schedule', 'block_caller'] as const;

export const callDispositionsView = defineView({
  name: routing.callDispositions.name,
  type: 'CallDisposition',
  columns: ['company_id', 'name', 'short_name', 'key', 'text_color', 'background_color', 'offer_id', ...DISPOSITION_FLAGS],
  foreignKeys: { offer_id: { resource: 'offers', association: 'offer' } },
});

export const agentCallDispositionsView = defineView({
  name: routing.agentCallDispositions.name,
  type: 'AgentCallDisposition',
  columns: [
    'company_id',
    'call_id',
    'collaborator_id',
    'call_disposition_id',
    'key',
    'has_disposition',
    ...DISPOSITION_FLAGS,
    'notes',
    'text_color',
    'background_color',
    'name',
    'short_name',
  ],
  foreignKeys: { call_disposition_id: { resource: 'call_dispositions' } },
});

/** What an agent call disposition copies from its disposition when written. */
export const COPIED_FROM_DISPOSITION = ['key', 'name', 'short_name', 'text_color', 'background_color', ...DISPOSITION_FLAGS] as const;
