import { randomUUID } from 'node:crypto';
import { QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { emailPort, setEventQueue } from '../../shared/adapters/index.js';
import type { EmailOutbox } from '../../shared/adapters/local/email-outbox.js';
import { db, tableName } from '../../shared/db/client.js';
import { keys } from '../../shared/db/keys.js';
import { OUTBOX_GRACE_SECONDS, publishStaged, stageMessages, sweepOutbox } from '../../shared/events/outbox.js';
import { drainQueue } from '../../shared/local/delivery-worker.js';
import type { EventQueueMessage, QueueMessage } from '../../shared/ports/events.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { useDynamoRequests } from '../fixtures/dynamo-requests.js';
import { deliverQueued, testQueue, useReceiver } from '../fixtures/events.js';
import { useGateway } from '../fixtures/gateway.js';
import { createThrough } from '../fixtures/records.js';

/**
 * The outbox's envelopes through the delivery function (shared/events/outbox.ts, delivery.ts):
 * a change's outbox item goes to the queue as one envelope, and the delivery function that
 * receives it deletes the item, fans out its events and forwards its other messages.
 */
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const gateway = useGateway();
const receiver = useReceiver();
const log = useDynamoRequests();

afterEach(() => setEventQueue());

const outboxItems = async (companyId: number) =>
  (await db.send(new QueryCommand({ TableName: tableName, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.outboxPartition(companyId) }, ConsistentRead: true }))).Items ?? [];

/** Saves a change (any item) with its messages' outbox items, as a write path does; what to publish. */
async function commit(companyId: number, messages: QueueMessage[]) {
  const { writes, staged } = stageMessages(companyId, messages, new Date());
  await db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: tableName, Item: { pk: `C#${companyId}#thing`, sk: randomUUID() } } }, ...writes] }));
  return staged;
}

const eventMessage = (company: TestCompany): Extract<QueueMessage, { kind: 'event' }> => {
  const id = randomUUID();
  return { kind: 'event', id, companyId: company.id, event: { id, name: 'call_changed', companyId: company.id, occurredAt: new Date().toISOString(), data: { id: 1, offer_id: null } } };
};

/** A company subscribed to call_changed at a target of its own; that target. */
async function subscribed(): Promise<{ company: TestCompany; target: string }> {
  const company = await createTestCompany('outbox-envelopes');
  const target = `${receiver.url}?sub=${randomUUID()}`;
  await createThrough(gateway, company, '/api/v1/subscriptions', { target_url: target, event: 'call_changed' });
  return { company, target };
}

const receivedAt = (target: string) => {
  const { pathname, search } = new URL(target);
  return receiver.received.filter((request) => request.url === pathname + search);
};

/** A webhook message to an outgoing webhook URL of the company, and an e-mail message; the webhook's target. */
async function otherWork(company: TestCompany) {
  const target = `${receiver.url}?hook=${randomUUID()}`;
  const url = await createThrough(gateway, company, '/api/v1/outgoing_webhook_urls', { url: target, http_method: 'POST', content_type: 'application/json' });
  const webhook = await createThrough(gateway, company, '/api/v1/outgoing_webhooks', { name: 'manual', trigger_type: 'manual', outgoing_url_ids: [url.id] });
  const subject = `Invitation ${randomUUID()}`;
  const messages: QueueMessage[] = [
    { kind: 'webhook', id: randomUUID(), companyId: company.id, outgoingWebhookId: webhook.id, urlId: url.id, source: { event: null, eventId: null, fireId: null, callId: null, leadId: null, tokens: { hello: 'world' } } },
    { kind: 'email', id: randomUUID(), companyId: company.id, email: { companyId: company.id, kind: 'team_invitation', to: 'ann@example.com', subject, text: 'Join us' } },
  ];
  return { target, subject, messages };
}

const emailsWith = (subject: string) => (emailPort() as EmailOutbox).sent.filter((mail) => mail.subject === subject);

describe('outbox envelopes', () => {
  it('a change\'s envelope reaching the delivery function deletes its outbox item and fans out its events, reading the subscriptions once for all of them', async () => {
    const { company, target } = await subscribed();
    const events = [eventMessage(company), eventMessage(company)];
    const staged = await commit(company.id, events);
    await publishStaged(staged);
    // Published: one envelope in the queue, the item still there until the envelope is received.
    expect((await testQueue().peek()).map((body) => JSON.parse(body) as EventQueueMessage)).toEqual([expect.objectContaining({ kind: 'outbox', companyId: company.id, messages: events })]);
    expect(await outboxItems(company.id)).toHaveLength(1);

    log.reset();
    expect(await drainQueue(testQueue(), { maxBatches: 1 })).toEqual({ handled: 1, failed: 0 });
    expect(await outboxItems(company.id)).toHaveLength(0);
    const listReads = log.requests.filter((request) => request.command === 'QueryCommand' && /#(subscriptions|outgoing_webhooks)\b/.test(JSON.stringify(request.input.ExpressionAttributeValues)));
    expect(listReads).toHaveLength(2);
    await deliverQueued();
    expect(receivedAt(target).map((request) => JSON.parse(request.body).id).sort()).toEqual(events.map((message) => message.event.id).sort());
  });

  it('a send that fails leaves the item; the sweeper sends it as an envelope, which delivers it once', async () => {
    const { company, target } = await subscribed();
    const event = eventMessage(company);
    setEventQueue({ send: async () => Promise.reject(new Error('queue unavailable')), retryLater: async () => undefined });
    await publishStaged(await commit(company.id, [event]));
    setEventQueue();
    expect(await outboxItems(company.id)).toHaveLength(1);
    await deliverQueued();
    expect(receivedAt(target)).toHaveLength(0);

    const swept = await sweepOutbox(new Date(Date.now() + (OUTBOX_GRACE_SECONDS + 1) * 1000), { companyIds: [company.id] });
    expect(swept).toEqual({ companies: 1, items: 1, sent: 1 });
    const queued = (await testQueue().peek()).map((body) => JSON.parse(body) as EventQueueMessage);
    expect(queued).toEqual([expect.objectContaining({ kind: 'outbox', messages: [event] })]);
    await deliverQueued();
    expect(receivedAt(target)).toHaveLength(1);
    expect(await outboxItems(company.id)).toHaveLength(0);
  });

  it('an envelope mixing an event, a webhook and an e-mail fans out the event and forwards the others as messages of their own', async () => {
    const { company, target } = await subscribed();
    const other = await otherWork(company);
    const event = eventMessage(company);
    await publishStaged(await commit(company.id, [event, ...other.messages]));
    expect(await testQueue().peek()).toHaveLength(1);

    await drainQueue(testQueue(), { maxBatches: 1 });
    // Each now has its own message (and its own retry schedule): the event's delivery, the webhook, the e-mail.
    const queued = (await testQueue().peek()).map((body) => JSON.parse(body) as EventQueueMessage);
    expect(queued.map((message) => message.kind).sort()).toEqual(['delivery', 'email', 'webhook']);
    expect(queued.filter((message) => message.kind !== 'delivery')).toEqual(other.messages);
    await deliverQueued();
    expect(receivedAt(target)).toHaveLength(1);
    expect(receivedAt(other.target).map((request) => JSON.parse(request.body))).toEqual([{ hello: 'world' }]);
    expect(emailsWith(other.subject)).toHaveLength(1);
  });

  it('a redelivered or re-sent envelope sends nothing twice: event delivery, webhook and e-mail', async () => {
    const { company, target } = await subscribed();
    const other = await otherWork(company);
    const staged = await commit(company.id, [eventMessage(company), ...other.messages]);
    // The same envelope twice at once (SQS's at-least-once, a sweeper's re-send), and once more after both were handled.
    await testQueue().send([...staged.envelopes, ...staged.envelopes]);
    await deliverQueued();
    await testQueue().send(staged.envelopes);
    await deliverQueued();
    expect(receivedAt(target)).toHaveLength(1);
    expect(receivedAt(other.target)).toHaveLength(1);
    expect(emailsWith(other.subject)).toHaveLength(1);
    expect(await outboxItems(company.id)).toHaveLength(0);
  });

  it('refuses an envelope naming a key outside its company\'s outbox: nothing deleted, nothing sent', async () => {
    const { company } = await subscribed();
    const other = await createTestCompany('outbox-envelopes-other');
    const staged = await commit(other.id, [eventMessage(other)]);
    const [envelope] = staged.envelopes;
    await testQueue().send([{ ...envelope!, companyId: company.id }]);
    expect(await drainQueue(testQueue(), { maxBatches: 1 })).toEqual({ handled: 1, failed: 1 });
    expect(await outboxItems(other.id)).toHaveLength(1);
  });
});
