import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { useReportingTimeZone } from '../company.js';
import { dayBounds, formatMoney, intervalMs, queryString, statsSeries } from '../logic.js';
import { Empty, ErrorBox, html, rowsOf, Section, useApi } from '../ui.js';

/** Calls and leads over time (uPlot charts from calls/stats and leads/stats) and by category (calls/reports, leads/reports). */
interface SeriesStyle {
  label: string;
  stroke: string;
  money: boolean;
}

const CALL_SERIES: Record<string, SeriesStyle> = {
  calls: { label: 'Calls', stroke: '#1f5fbf', money: false },
  buyer_converted: { label: 'Conversions', stroke: '#2e7d32', money: false },
  revenue: { label: 'Revenue', stroke: '#6a1b9a', money: true },
  payout: { label: 'Payout', stroke: '#b35c00', money: true },
  profit: { label: 'Profit', stroke: '#00695c', money: true },
};

const LEAD_SERIES: Record<string, SeriesStyle> = {
  leads: { label: 'Leads', stroke: '#1f5fbf', money: false },
  converted: { label: 'Converted', stroke: '#2e7d32', money: false },
};

interface ChartKind {
  /** `data-chart` of the figure: what the browser tests look for. */
  name: 'calls' | 'leads';
  series: Record<string, SeriesStyle>;
  title: string;
  countLabel: string;
  caption: string;
}

const CALLS_CHART: ChartKind = {
  name: 'calls',
  series: CALL_SERIES,
  title: 'Calls and money',
  countLabel: 'Calls',
  caption: 'Calls, conversions, revenue, payout and profit',
};
const LEADS_CHART: ChartKind = { name: 'leads', series: LEAD_SERIES, title: 'Leads', countLabel: 'Leads', caption: 'Leads and converted leads' };

function Chart({ kind, rows, interval, metadata }: { kind: ChartKind; rows: Array<Record<string, unknown>>; interval: string; metadata: Record<string, unknown> | undefined }) {
  const target = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!target.current) return undefined;
    const stepMs = intervalMs(interval);
    const fromMs = Date.parse(String(metadata?.created_at_from));
    const toMs = Date.parse(String(metadata?.created_at_to));
    const grid = stepMs && !Number.isNaN(fromMs) && !Number.isNaN(toMs) ? { fromMs, toMs, stepMs } : undefined;
    const measures = Object.keys(kind.series);
    const withMoney = measures.some((measure) => kind.series[measure]!.money);
    const { x, series } = statsSeries(rows, measures, grid);
    const bars = uPlot.paths.bars!({ size: [0.6, 24] });
    const width = Math.max(320, Math.min(1000, target.current.clientWidth || 800));
    const chart = new uPlot(
      {
        width,
        height: 280,
        title: `${kind.title} per ${interval}`,
        scales: { x: { time: true }, count: {}, ...(withMoney ? { money: {} } : {}) },
        // Counts as bars, money as lines on a scale of its own.
        series: [
          {},
          ...measures.map((measure) => {
            const style = kind.series[measure]!;
            return style.money
              ? { label: style.label, stroke: style.stroke, width: 2, scale: 'money', points: { show: x.length < 60 } }
              : { label: style.label, stroke: style.stroke, fill: `${style.stroke}55`, width: 1, scale: 'count', paths: bars, points: { show: false } };
          }),
        ],
        axes: [{}, { scale: 'count', label: kind.countLabel }, ...(withMoney ? [{ scale: 'money', side: 1, label: 'USD', grid: { show: false } }] : [])],
      },
      [x, ...measures.map((measure) => series[measure]!)],
      target.current,
    );
    return () => chart.destroy();
  }, [kind, rows, interval, metadata]);
  return html`<figure class="chart">
    <div ref=${target} data-chart=${kind.name} data-points=${String(new Set(rows.map((row) => row.interval_start)).size)}></div>
    <figcaption class="sr-only">${kind.caption} per ${interval}; the table below has the figures by category.</figcaption>
  </figure>`;
}

function ReportTable({ rows, label, leads }: { rows: Array<Record<string, any>>; label: string; leads?: boolean }) {
  if (rows.length === 0) return html`<${Empty}>No ${leads ? 'leads' : 'calls'} in this range.<//>`;
  const columns = leads ? Object.keys(rows[0]!).filter((name) => !['category', 'value', 'name'].includes(name)) : ['calls', 'answered', 'buyer_converted', 'revenue', 'payout', 'profit'];
  return html`<table class="grid" aria-label=${label}>
    <thead><tr><th scope="col">${label}</th>${columns.map((name) => html`<th scope="col" class="num">${name.replace(/_/g, ' ')}</th>`)}</tr></thead>
    <tbody>
      ${rows.map(
        (row) => html`<tr key=${String(row.value)}>
          <td>${row.name ?? (row.value === null ? 'None' : String(row.value))}</td>
          ${columns.map((name) => html`<td class="num">${['revenue', 'payout', 'profit'].includes(name) ? formatMoney(row[name]) : String(row[name] ?? 0)}</td>`)}
        </tr>`,
      )}
    </tbody>
  </table>`;
}

export function Reports() {
  const [settings, setSettings] = useState({ category: 'buyer', interval: 'hour', from: '', to: '' });
  const range = dayBounds(settings.from, settings.to, useReportingTimeZone());
  const stats = useApi(`/calls/stats${queryString({ ...range, interval: settings.interval, category: settings.category })}`);
  const report = useApi(`/calls/reports${queryString({ ...range, category: settings.category })}`);
  const leadCategory = settings.category === 'buyer' ? 'offer' : settings.category;
  const leads = useApi(`/leads/reports${queryString({ ...range, category: leadCategory })}`);
  const leadStats = useApi(`/leads/stats${queryString({ ...range, interval: settings.interval, category: leadCategory })}`);
  const apply = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    setSettings({ category: String(form.get('category')), interval: String(form.get('interval')), from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') });
  };
  const statRows = rowsOf(stats.data, 'stats');
  const leadStatRows = rowsOf(leadStats.data, 'stats');
  const metadata = report.data?.metadata;
  return html`<${Section} title="Reports" loaded=${stats} what="the report">
    <form class="filters" onSubmit=${apply} aria-label="Report settings">
      <label>By <select name="category" value=${settings.category}><option value="buyer">Buyer</option><option value="offer">Offer</option><option value="traffic_source">Traffic source</option></select></label>
      <label>Per <select name="interval" value=${settings.interval}><option value="hour">Hour</option><option value="day">Day</option></select></label>
      <label>From <input type="date" name="from" value=${settings.from} /></label>
      <label>To <input type="date" name="to" value=${settings.to} /></label>
      <button type="submit">Show</button>
    </form>
    <p class="hint">${metadata ? `From ${metadata.created_at_from} to ${metadata.created_at_to} (${metadata.time_zone}).` : 'Without dates: today.'}</p>
    ${statRows.length ? html`<${Chart} kind=${CALLS_CHART} rows=${statRows} interval=${settings.interval} metadata=${stats.data?.metadata} />` : html`<${Empty}>No calls in this range to chart.<//>`}
    <h2>Calls by ${settings.category.replace('_', ' ')}</h2>
    <${ErrorBox} error=${report.error} />
    <${ReportTable} rows=${rowsOf(report.data, 'reports')} label=${settings.category.replace('_', ' ')} />
    <h2>Leads by ${leadCategory.replace('_', ' ')}</h2>
    <${ErrorBox} error=${leads.error ?? leadStats.error} />
    ${leadStatRows.length ? html`<${Chart} kind=${LEADS_CHART} rows=${leadStatRows} interval=${settings.interval} metadata=${leadStats.data?.metadata} />` : html`<${Empty}>No leads in this range to chart.<//>`}
    <${ReportTable} rows=${rowsOf(leads.data, 'reports')} label=${`Leads by ${leadCategory.replace('_', ' ')}`} leads=${true} />
  <//>`;
}
