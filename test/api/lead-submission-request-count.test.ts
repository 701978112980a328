import { describe, expect, it } from 'vitest';
import { midDayTomorrow, usePinnedClockForAll } from '../fixtures/clock.js';
import { createTestCompany } from '../fixtures/company.js';
import { useDynamoRequests, type LoggedRequest } from '../fixtures/dynamo-requests.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * What a lead submission (`POST /api/v1/leads`) asks of DynamoDB, counted through an SDK
 * middleware (docs/benchmarks.md, "Leads"): the token lookup, then the contact's leads beside
 * the do-not-call check, then one transaction that carries the lead and its do-not-call log
 * entry. The local scheduler's and queue's own items (`SCHED#`, `Q#`) are SQS or Scheduler
 * requests in AWS and are not counted.
 */
const gateway = useGateway();
const log = useDynamoRequests();
usePinnedClockForAll(midDayTomorrow);

const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand']);
const ofService = (requests: LoggedRequest[]) => requests.filter((request) => !/"(SCHED|Q)#/.test(JSON.stringify(request.input)));

describe('a lead submission', () => {
  it('reads in 2 steps (3 for an update) and writes one transaction that holds its do-not-call log entry', async () => {
    const company = await createTestCompany('lead-requests');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Leads' });
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'S', offer_id: offer.id });
    const submit = async (token: string, caller: string) => {
      log.reset();
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${token}&caller_id=${encodeURIComponent(caller)}&first_name=Ada` });
      expect(reply.status, reply.text).toBe(200);
      return { lead: reply.body.lead as Record<string, any>, requests: ofService(log.requests) };
    };

    for (const [token, caller, readSteps] of [[schedule.lead_token, '+14155557001', 2], [offer.lead_token, '+14155557002', 2], [schedule.lead_token, '+14155557001', 3]] as const) {
      const { lead, requests } = await submit(token, caller);
      const writes = requests.filter((request) => !READS.has(request.command));
      expect(writes.map((request) => request.command)).toEqual(['TransactWriteItemsCommand']);
      const members = (writes[0]!.input.TransactItems as Array<Record<string, any>>).map((item) => item.Put?.Item ?? {});
      expect(members).toContainEqual(expect.objectContaining({ pk: expect.stringMatching(/#dnc_check_logs#/), caller_number: caller, source: 'lead', lead_id: lead.id }));
      const reads = requests.filter((request) => READS.has(request.command));
      // The token lookup; the contact's leads with the blacklist entry beside it; an update adds the versioned read of the lead.
      expect(new Set(reads.map((request) => request.step)).size).toBe(readSteps);
      expect(reads.filter((request) => request.command === 'GetItemCommand' && JSON.stringify(request.input).includes('#blacklist')).length).toBe(1);
    }

    const logs = await call(gateway, { method: 'GET', path: '/api/v1/dnc_check_logs?source=lead', authorization: company.authorization });
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.dnc_check_logs.map((entry: Record<string, unknown>) => entry.caller_number)).toEqual(['+14155557001', '+14155557002', '+14155557001']);
  });
});
