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
  it('reads in 2 steps (3 for an update), 2 reads once the instance knows the token, and writes one transaction holding its do-not-call log entry', async () => {
    const company = await createTestCompany('lead-requests');
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Leads' });
    const schedule = await createThrough(gateway, company, '/api/v1/schedules', { name: 'S', offer_id: offer.id });
    const blocked = '+14155557003';
    expect((await call(gateway, { method: 'POST', path: `/api/v1/contacts/${encodeURIComponent(blocked)}/caller_block`, authorization: company.authorization })).status).toBe(200);
    const cases = [
      // The token's first submission in this instance: the blacklist entry and the company's event
      // consumer counts are read beside the contact's Query (one BatchGetItem).
      { token: schedule.lead_token, caller: '+14155557001', reads: 3, steps: 2, blacklistGets: 1, blocked: false },
      // Known token: the blacklist entry and the consumer counts are read in the token lookup's BatchGetItem.
      { token: schedule.lead_token, caller: '+14155557002', reads: 2, steps: 2, blacklistGets: 0, blocked: false },
      { token: schedule.lead_token, caller: blocked, reads: 2, steps: 2, blacklistGets: 0, blocked: true },
      { token: offer.lead_token, caller: '+14155557004', reads: 3, steps: 2, blacklistGets: 1, blocked: false },
      // An update adds the versioned read of the lead it updates.
      { token: schedule.lead_token, caller: '+14155557001', reads: 3, steps: 3, blacklistGets: 0, blocked: false },
    ];
    for (const expected of cases) {
      log.reset();
      const reply = await call(gateway, { method: 'POST', path: `/api/v1/leads?lead_token=${expected.token}&caller_id=${encodeURIComponent(expected.caller)}&first_name=Ada` });
      expect(reply.status, reply.text).toBe(200);
      const requests = ofService(log.requests);
      const writes = requests.filter((request) => !READS.has(request.command));
      expect(writes.map((request) => request.command)).toEqual(['TransactWriteItemsCommand']);
      const members = (writes[0]!.input.TransactItems as Array<Record<string, any>>).map((item) => item.Put?.Item ?? {});
      expect(members).toContainEqual(expect.objectContaining({ pk: expect.stringMatching(/#dnc_check_logs#/), caller_number: expected.caller, source: 'lead', blocked: expected.blocked, lead_id: reply.body.lead.id }));
      const reads = requests.filter((request) => READS.has(request.command));
      expect({ reads: reads.length, steps: new Set(reads.map((request) => request.step)).size }, expected.caller).toEqual({ reads: expected.reads, steps: expected.steps });
      // The blacklist read outside the token lookup's BatchGetItem (beside the contact's Query, with the event consumer counts).
      const lateBlacklistReads = reads.filter((request) => {
        const input = JSON.stringify(request.input);
        return input.includes('#blacklist') && !input.includes('lead_token');
      });
      expect(lateBlacklistReads.length).toBe(expected.blacklistGets);
    }

    const logs = await call(gateway, { method: 'GET', path: '/api/v1/dnc_check_logs?source=lead', authorization: company.authorization });
    expect(logs.status, logs.text).toBe(200);
    expect(logs.body.dnc_check_logs.map((entry: Record<string, unknown>) => [entry.caller_number, entry.blocked])).toEqual(
      [...cases].reverse().map((each) => [each.caller, each.blocked]),
    );
  });
});
