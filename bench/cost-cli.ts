import { parseArgs } from 'node:util';
import { AWS_PRICES, PRICE_SOURCES, PRICES_DATE } from './aws-prices.js';
import { estimateMonthlyCost, FIGURES, stackFacts } from './cost-model.js';
import { FUNCTION_MEMORY_MB } from '../infra/function-sizing.js';
import { routeGroups } from '../shared/http/route-groups.js';
import { METRIC } from '../shared/observability/metric-names.js';
import { SWEEP_INTERVAL_MINUTES } from '../shared/calls/stale-calls.js';

/**
 * `npm run cost -- --calls-per-month 100000 [--pings-per-call 3] [--leads-per-month 50000]
 *   [--region us-east-1] [--figures]`: the monthly AWS bill of one stage at those volumes, per
 * service, and per 1,000 calls (bench/cost-model.ts; prices in bench/aws-prices.ts).
 * `--figures` lists every per-operation figure with its source, measured or assumed.
 */
const { values } = parseArgs({
  options: {
    'calls-per-month': { type: 'string' },
    'pings-per-call': { type: 'string', default: '3' },
    'leads-per-month': { type: 'string', default: '50000' },
    region: { type: 'string', default: 'us-east-1' },
    figures: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h' },
  },
});

const count = (name: string, text: string | undefined): number => {
  const value = Number(text);
  if (text === undefined || !Number.isFinite(value) || value < 0) {
    console.error(`--${name} must be a number of 0 or more`);
    process.exit(2);
  }
  return value;
};

if (values.help || values['calls-per-month'] === undefined) {
  console.error('usage: npm run cost -- --calls-per-month 100000 [--pings-per-call 3] [--leads-per-month 50000] [--region us-east-1] [--figures]');
  process.exit(values.help ? 0 : 2);
}
const prices = AWS_PRICES[values.region!];
if (!prices) {
  console.error(`No price table for ${values.region} in bench/aws-prices.ts (it has ${Object.keys(AWS_PRICES).join(', ')}): add the region's prices there.`);
  process.exit(2);
}
const volumes = {
  callsPerMonth: count('calls-per-month', values['calls-per-month']),
  pingsPerCall: count('pings-per-call', values['pings-per-call']),
  leadsPerMonth: count('leads-per-month', values['leads-per-month']),
};
const stack = stackFacts({ memoryMb: FUNCTION_MEMORY_MB, routeGroupCount: Object.keys(routeGroups).length, metricNames: Object.keys(METRIC).length, staleSweepMinutes: SWEEP_INTERVAL_MINUTES });
const estimate = estimateMonthlyCost(volumes, stack, prices);

const usd = (value: number) => (value >= 100 ? `$${value.toFixed(0)}` : value >= 1 ? `$${value.toFixed(2)}` : `$${value.toFixed(4)}`);
const qty = (value: number) => (value >= 100 ? Math.round(value).toLocaleString('en-US') : Number(value.toPrecision(3)).toLocaleString('en-US'));
console.log(
  `Monthly AWS estimate, ${values.region}, prices of ${PRICES_DATE}: ${volumes.callsPerMonth.toLocaleString('en-US')} calls, ` +
    `${volumes.pingsPerCall} pings per call, ${volumes.leadsPerMonth.toLocaleString('en-US')} leads (${stack.functions} functions at ${stack.memoryMb} MB, ${stack.alarms} alarms)\n`,
);
console.log('| service | item | quantity | USD | basis |\n|---|---|---|---|---|');
for (const line of estimate.lines) console.log(`| ${line.service} | ${line.item} | ${qty(line.quantity)} ${line.unit} | ${usd(line.usd)} | ${line.basis} |`);
console.log('\n| service | USD a month |\n|---|---|');
for (const entry of estimate.byService) console.log(`| ${entry.service} | ${usd(entry.usd)} |`);
console.log(`| **total** | **${usd(estimate.total)}** |`);
console.log(`\nPer 1,000 calls: ${usd(estimate.per1000Calls)} (the whole bill divided by the calls; fixed costs weigh more at low volume).`);
console.log('Not included: the carrier (numbers, minutes), Amazon Transcribe (per minute transcribed, when enabled), SES, data transfer, free tiers.');
if (values.figures) {
  console.log('\n| figure | value | basis | source |\n|---|---|---|---|');
  for (const [name, figure] of Object.entries(FIGURES)) console.log(`| ${name} | ${figure.value} | ${figure.basis} | ${figure.source} |`);
  console.log(`\nPrices: ${PRICE_SOURCES.join(', ')}`);
}
