import { useState } from 'preact/hooks';
import { downloadCsv } from '../api.js';
import { useReportingTimeZone } from '../company.js';
import { dayBounds, formatDuration, formatMoney, formatTime, queryString } from '../logic.js';
import { Empty, ErrorBox, html, rowsOf, Section, useAction, useApi } from '../ui.js';

/** The calls list with the API's filters, paged by the API's cursor; a call's detail at `#/calls/<id>`. */
const STATUSES = ['ringing', 'in_progress', 'completed', 'no_answer', 'no_buyer', 'blocked', 'canceled', 'busy', 'failed'];
const PER_PAGE = 25;

interface Filters {
  from: string;
  to: string;
  offer_id: string;
  buyer_id: string;
  traffic_source_id: string;
  status: string;
  buyer_converted: string;
}

const NO_FILTERS: Filters = { from: '', to: '', offer_id: '', buyer_id: '', traffic_source_id: '', status: '', buyer_converted: '' };

function filterParams(filters: Filters, timeZone: string | undefined) {
  const { from, to, ...rest } = filters;
  return { ...dayBounds(from, to, timeZone), ...rest };
}

function Options({ data, root, label }: { data: any; root: string; label: string }) {
  return html`<option value="">Any ${label}</option>${rowsOf(data, root).map((row) => html`<option value=${row.id}>${row.name ?? row.id}</option>`)}`;
}

export function Calls({ id }: { id?: string }) {
  return id ? html`<${CallDetail} id=${id} />` : html`<${CallList} />`;
}

function CallList() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  // Cursors of the pages before this one: the API pages forward only, so going back reuses them.
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const timeZone = useReportingTimeZone();
  const path = `/calls${queryString({ ...filterParams(filters, timeZone), per_page: PER_PAGE, cursor })}`;
  const loaded = useApi(path);
  const offers = useApi('/offers?per_page=500&columns=id,name');
  const buyers = useApi('/buyers?per_page=500&columns=id,name');
  const sources = useApi('/traffic_sources?per_page=500&columns=id,name');
  const csv = useAction();
  const calls = rowsOf(loaded.data, 'calls');
  const next = loaded.data?.metadata?.next_cursor;

  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    setFilters(Object.fromEntries(Object.keys(NO_FILTERS).map((name) => [name, String(form.get(name) ?? '')])) as unknown as Filters);
    setCursors([]);
  };

  return html`<${Section} title="Calls" loaded=${loaded} what="calls"
    actions=${html`<button type="button" disabled=${csv.busy} onClick=${() => csv.run(() => downloadCsv(`/calls.csv${queryString({ ...filterParams(filters, timeZone), per_page: 500 })}`, 'calls.csv'))}>Download CSV</button>`}>
    <form class="filters" onSubmit=${apply} aria-label="Filter calls">
      <label>From <input type="date" name="from" value=${filters.from} /></label>
      <label>To <input type="date" name="to" value=${filters.to} /></label>
      <label>Offer <select name="offer_id" value=${filters.offer_id}><${Options} data=${offers.data} root="offers" label="offer" /></select></label>
      <label>Buyer <select name="buyer_id" value=${filters.buyer_id}><${Options} data=${buyers.data} root="buyers" label="buyer" /></select></label>
      <label>Traffic source <select name="traffic_source_id" value=${filters.traffic_source_id}><${Options} data=${sources.data} root="traffic_sources" label="traffic source" /></select></label>
      <label>Status <select name="status" value=${filters.status}><option value="">Any status</option>${STATUSES.map((status) => html`<option value=${status}>${status.replace('_', ' ')}</option>`)}</select></label>
      <label>Converted <select name="buyer_converted" value=${filters.buyer_converted}><option value="">Either</option><option value="true">Converted</option><option value="false">Not converted</option></select></label>
      <button type="submit">Apply</button>
    </form>
    <p class="hint">Dates are whole days in the time zone the API reads them in; without them, the last 30 days.</p>
    <${ErrorBox} error=${csv.error} />
    ${calls.length === 0
      ? html`<${Empty}>No calls match.<//>`
      : html`<table class="grid" aria-label="Calls">
          <thead><tr><th scope="col">Started</th><th scope="col">Caller</th><th scope="col">Offer</th><th scope="col">Buyer</th><th scope="col">Traffic source</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Converted</th><th scope="col">Revenue</th></tr></thead>
          <tbody>
            ${calls.map(
              (call) => html`<tr key=${call.id} data-call-id=${call.id}>
                <td><a href=${`#/calls/${call.id}`}>${formatTime(call.created_at)}</a></td>
                <td>${call.caller_number}</td>
                <td>${call.offer ?? '—'}</td>
                <td class="buyer">${call.buyer ?? '—'}</td>
                <td>${call.traffic_source ?? '—'}</td>
                <td>${String(call.status).replace('_', ' ')}</td>
                <td class="num">${formatDuration(call.total_duration ?? 0)}</td>
                <td>${call.buyer_converted ? 'Yes' : 'No'}</td>
                <td class="num">${formatMoney(call.revenue)}</td>
              </tr>`,
            )}
          </tbody>
        </table>`}
    <nav class="pager" aria-label="Pages of calls">
      <button type="button" disabled=${cursors.length === 0} onClick=${() => setCursors(cursors.slice(0, -1))}>Previous page</button>
      <button type="button" disabled=${!next || next === '0' || calls.length < PER_PAGE} onClick=${() => setCursors([...cursors, String(next)])}>Next page</button>
    </nav>
  <//>`;
}

function CallDetail({ id }: { id: string }) {
  const loaded = useApi(`/calls/${encodeURIComponent(id)}`);
  const events = useApi(`/calls/${encodeURIComponent(id)}/events`);
  const call = loaded.data?.call;
  const timeline = rowsOf(events.data, 'events');
  const shown = ['status', 'caller_number', 'number', 'offer', 'buyer', 'traffic_source', 'created_at', 'ended_at', 'total_duration', 'answered_duration', 'buyer_converted', 'revenue', 'payout', 'profit'];
  return html`<${Section} title=${call ? `Call from ${call.caller_number}` : 'Call'} loaded=${loaded} what="the call">
    <p><a href="#/calls">← All calls</a></p>
    ${call
      ? html`<dl class="facts">${shown.map((name) => html`<dt>${name.replace(/_/g, ' ')}</dt><dd>${typeof call[name] === 'boolean' ? (call[name] ? 'yes' : 'no') : String(call[name] ?? '—')}</dd>`)}</dl>
          <h2>Timeline</h2>
          <${ErrorBox} error=${events.error} />
          ${events.loading && !events.data
            ? html`<p class="loading" role="status">Loading the timeline…</p>`
            : timeline.length === 0
              ? html`<${Empty}>No events recorded.<//>`
              : html`<ol class="timeline">
                  ${timeline.map((event) => {
                    const { position, at, type, ...rest } = event;
                    return html`<li key=${position}><time>${formatTime(at)}</time> <strong>${String(type).replace(/_/g, ' ')}</strong> <code>${Object.entries(rest).map(([name, value]) => `${name}: ${typeof value === 'object' ? JSON.stringify(value) : value}`).join(', ')}</code></li>`;
                  })}
                </ol>`}`
      : null}
  <//>`;
}
