import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatTime, leadProgress, queryString } from '../logic.js';
import { Empty, ErrorBox, html, rowsOf, Section, useAction, useApi } from '../ui.js';

/** Leads by schedule and status; a lead's progress and next action at `#/leads/<id>`, with opt out and remove. */
const STATUSES = ['active', 'completed', 'expired', 'opted_out', 'removed', 'blocked'];

export function Leads({ id }: { id?: string }) {
  return id ? html`<${LeadDetail} id=${id} />` : html`<${LeadList} />`;
}

function LeadList() {
  const [filters, setFilters] = useState({ schedule_id: '', status: '' });
  const [cursors, setCursors] = useState<string[]>([]);
  const loaded = useApi(`/leads${queryString({ ...filters, per_page: 25, cursor: cursors.at(-1) })}`);
  const schedules = useApi('/schedules?per_page=500');
  const leads = rowsOf(loaded.data, 'leads');
  const scheduleNames = new Map(rowsOf(schedules.data, 'schedules').map((schedule) => [schedule.id, schedule.name]));
  const next = loaded.data?.metadata?.next_cursor;
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    setFilters({ schedule_id: String(form.get('schedule_id') ?? ''), status: String(form.get('status') ?? '') });
    setCursors([]);
  };
  return html`<${Section} title="Leads" loaded=${loaded} what="leads">
    <form class="filters" onSubmit=${apply} aria-label="Filter leads">
      <label>Schedule <select name="schedule_id" value=${filters.schedule_id}><option value="">Any schedule</option>${rowsOf(schedules.data, 'schedules').map((schedule) => html`<option value=${schedule.id}>${schedule.name}</option>`)}</select></label>
      <label>Status <select name="status" value=${filters.status}><option value="">Any status</option>${STATUSES.map((status) => html`<option value=${status}>${status.replace('_', ' ')}</option>`)}</select></label>
      <button type="submit">Apply</button>
    </form>
    ${leads.length === 0
      ? html`<${Empty}>No leads match.<//>`
      : html`<table class="grid" aria-label="Leads">
          <thead><tr><th scope="col">Created</th><th scope="col">Caller</th><th scope="col">Schedule</th><th scope="col">Status</th><th scope="col">Next action</th></tr></thead>
          <tbody>
            ${leads.map(
              (lead) => html`<tr key=${lead.id}>
                <td><a href=${`#/leads/${lead.id}`}>${formatTime(lead.created_at)}</a></td>
                <td>${lead.caller_id ?? lead.email ?? '—'}</td>
                <td>${scheduleNames.get(lead.schedule_id) ?? (lead.schedule_id ? `#${lead.schedule_id}` : '—')}</td>
                <td>${String(lead.status ?? '').replace('_', ' ')}</td>
                <td>${formatTime(lead.next_action_at) || '—'}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
    <nav class="pager" aria-label="Pages of leads">
      <button type="button" disabled=${cursors.length === 0} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
      <button type="button" disabled=${!next || next === '0'} onClick=${() => setCursors([...cursors, String(next)])}>Next page</button>
    </nav>
  <//>`;
}

function LeadDetail({ id }: { id: string }) {
  const loaded = useApi(`/leads/${encodeURIComponent(id)}`);
  const change = useAction();
  const lead = loaded.data?.lead;
  const actions = useApi(lead?.schedule_id ? `/schedule_actions?schedule_id=${lead.schedule_id}&per_page=500` : null);
  const progress = lead ? leadProgress(lead, rowsOf(actions.data, 'schedule_actions')) : [];
  const end = async (status: 'opted_out' | 'removed') => {
    if (await change.run(() => api(`/leads/${encodeURIComponent(id)}`, { method: 'PUT', body: { status } }))) await loaded.reload();
  };
  const facts = ['status', 'end_reason', 'schedule_id', 'phase', 'action_index', 'current_action_id', 'contact_attempts', 'next_action_at', 'call_ids', 'converted', 'caller_id', 'email', 'created_at', 'updated_at'];
  return html`<${Section} title=${lead ? `Lead ${lead.caller_id ?? lead.id}` : 'Lead'} loaded=${loaded} what="the lead">
    <p><a href="#/leads">← All leads</a></p>
    <${ErrorBox} error=${change.error} />
    ${lead
      ? html`<dl class="facts">${facts.filter((name) => name in lead).map((name) => html`<dt>${name.replace(/_/g, ' ')}</dt><dd>${Array.isArray(lead[name]) ? lead[name].join(', ') || '—' : String(lead[name] ?? '—')}</dd>`)}</dl>
          ${lead.status === 'active'
            ? html`<div class="actions">
                <button type="button" disabled=${change.busy} onClick=${() => end('opted_out')}>Opt out</button>
                <button type="button" class="danger" disabled=${change.busy} onClick=${() => end('removed')}>Remove</button>
              </div>`
            : null}
          ${lead.schedule_id
            ? html`<h2>Schedule actions</h2>
                <${ErrorBox} error=${actions.error} />
                ${progress.length === 0
                  ? html`<${Empty}>${actions.loading ? 'Loading the actions…' : 'The schedule has no actions.'}<//>`
                  : html`<ol class="timeline">${progress.map((action) => html`<li key=${action.id} class=${`action ${action.state.replace(' ', '-')}`}><strong>${action.name}</strong> (${action.type.replace(/_/g, ' ')}${action.phase === 'end_of_schedule_actions' ? ', end of schedule' : ''}): ${action.state === 'next' ? `next${lead.next_action_at ? `, at ${formatTime(lead.next_action_at)}` : ''}` : action.state}</li>`)}</ol>`}`
            : null}`
      : null}
  <//>`;
}
