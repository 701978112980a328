import { describe, expect, it } from 'vitest';
import { AWS_PRICES, PRICES_DATE, PRICE_SOURCES } from '../../bench/aws-prices.js';
import { estimateMonthlyCost, FIGURES, stackFacts, type StackFacts } from '../../bench/cost-model.js';

/** The cost model on plain numbers: sums, proportions, what volume moves and what stays fixed. */
const prices = AWS_PRICES['us-east-1']!;
const stack: StackFacts = stackFacts({ memoryMb: 512, routeGroupCount: 14, metricNames: 10, staleSweepMinutes: 5 });
const lineOf = (estimate: ReturnType<typeof estimateMonthlyCost>, service: string, item: string) => estimate.lines.find((line) => line.service === service && line.item.startsWith(item))!;

describe('monthly cost estimate', () => {
  it('derives the stack\'s fixed parts from its code', () => {
    expect(stack).toMatchObject({ functions: 20, alarms: 50, customMetrics: 10, scheduledRunsPerMonth: 43_200 + 8_640 });
  });

  it('prices DynamoDB from the measured units per operation', () => {
    const estimate = estimateMonthlyCost({ callsPerMonth: 1000, pingsPerCall: 0, leadsPerMonth: 0 }, stack, prices);
    const reads = lineOf(estimate, 'DynamoDB', 'read');
    // Per call: 15.0 measured + 2 of the delivery.
    expect(reads.quantity).toBe(1000 * (FIGURES.callReadUnits.value + FIGURES.deliveryReadUnitsPerCall.value));
    expect(reads.usd).toBeCloseTo((reads.quantity / 1e6) * 0.125, 10);
    expect(reads.basis).toBe('measured');
    const writes = lineOf(estimate, 'DynamoDB', 'write');
    expect(writes.quantity).toBe(1000 * (36 + 3));
  });

  it('counts a post per call only when partners ping, and prices Lambda GB-seconds at the stack\'s memory', () => {
    const without = estimateMonthlyCost({ callsPerMonth: 10_000, pingsPerCall: 0, leadsPerMonth: 0 }, stack, prices);
    const withPings = estimateMonthlyCost({ callsPerMonth: 10_000, pingsPerCall: 3, leadsPerMonth: 0 }, stack, prices);
    // 3 pings and 1 post per call more through API Gateway.
    expect(withPings.counts.apiRequests - without.counts.apiRequests).toBe(40_000);
    const extraBusyMs = 30_000 * FIGURES.pingMs.value + 10_000 * FIGURES.postMs.value;
    const extraInitMs = 40_000 * FIGURES.coldStartShare.value * FIGURES.initMs.value;
    expect(withPings.counts.gbSeconds - without.counts.gbSeconds).toBeCloseTo(((extraBusyMs + extraInitMs) / 1000) * 0.5, 6);
    const doubled = estimateMonthlyCost({ callsPerMonth: 10_000, pingsPerCall: 0, leadsPerMonth: 0 }, { ...stack, memoryMb: 1024 }, prices);
    expect(lineOf(doubled, 'Lambda', 'duration').usd).toBeCloseTo(2 * lineOf(without, 'Lambda', 'duration').usd, 10);
  });

  it('keeps fixed costs when idle and adds up per service, total and per 1,000 calls', () => {
    const idle = estimateMonthlyCost({ callsPerMonth: 0, pingsPerCall: 3, leadsPerMonth: 0 }, stack, prices);
    expect(lineOf(idle, 'CloudWatch', 'alarms').usd).toBeCloseTo(5.0, 10);
    expect(lineOf(idle, 'KMS', 'secrets key').usd).toBe(1);
    expect(idle.per1000Calls).toBe(0);
    const busy = estimateMonthlyCost({ callsPerMonth: 100_000, pingsPerCall: 3, leadsPerMonth: 50_000 }, stack, prices);
    const sum = busy.lines.reduce((total, line) => total + line.usd, 0);
    expect(busy.total).toBeCloseTo(sum, 10);
    expect(busy.byService.reduce((total, entry) => total + entry.usd, 0)).toBeCloseTo(sum, 10);
    expect(busy.per1000Calls).toBeCloseTo(busy.total / 100, 10);
    // More calls cost more in total and less per call (fixed costs spread).
    const big = estimateMonthlyCost({ callsPerMonth: 1_000_000, pingsPerCall: 3, leadsPerMonth: 500_000 }, stack, prices);
    expect(big.total).toBeGreaterThan(busy.total);
    expect(big.per1000Calls).toBeLessThan(busy.per1000Calls);
  });

  it('records X-Ray\'s reservoir, then 5% of the rest', () => {
    const busy = estimateMonthlyCost({ callsPerMonth: 1_000_000, pingsPerCall: 3, leadsPerMonth: 0 }, stack, prices);
    const reservoir = 30 * 24 * 3600;
    expect(lineOf(busy, 'X-Ray', 'traces').quantity).toBeCloseTo(reservoir + (busy.counts.invocations - reservoir) * 0.05, 6);
  });

  it('names its date and sources, and says of every figure how it is known', () => {
    expect(PRICES_DATE).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(PRICE_SOURCES.every((url) => url.startsWith('https://aws.amazon.com/'))).toBe(true);
    for (const figure of Object.values(FIGURES)) expect(figure.source.length).toBeGreaterThan(10);
  });
});
