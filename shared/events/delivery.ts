import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../adapters/clock.js';
import { emailPort, eventQueue } from '../adapters/index.js';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import { getRecord, queryAllRecords } from '../db/records.js';
import { logger } from '../logger.js';
import { METRIC } from '../observability/metric-names.js';
import { countMetric } from '../observability/metrics.js';
import type { DomainEvent, EventQueueMessage, OutboxEnvelope, QueueMessage } from '../ports/events.js';
import { claimDelivery, markDelivered, releaseDelivery } from './delivery-claims.js';
import { configuredAllowedCidrs } from '../outbound/address-policy.js';
import { sendOutbound, type OutboundResult } from '../outbound/send.js';
import { eventPayload, objectKindOf } from './payload.js';
import { delayAfter, maxAttempts, retryPolicyFromEnv, type RetryPolicy } from './retry-schedule.js';
import { signatureHeaders } from './signing.js';
import { deliveryFailed, deliverySucceeded, signingSecrets } from './subscription-state.js';
import { renderTemplate } from './templates.js';
import { outgoingWebhookMatches, subscriptionMatches } from './event-matching.js';
import { recordWebhookAttempt, type WebhookAttempt } from './webhook-logs.js';
import { webhookMessages } from './webhook-messages.js';

/**
 * The delivery function's work (docs/events.md), the same in AWS (SQS -> functions/delivery) and
 * locally (the table queue -> shared/local/delivery-worker.ts). Each queue message is one of:
 * - an outbox envelope: its outbox item deleted, its events fanned out and its other messages
 *   forwarded, each to be handled (and retried) on its own;
 * - an event: fanned out into one message per matching subscription and outgoing webhook URL;
 * - a delivery, a webhook or an e-mail: claimed (idempotency), sent, logged; a failure is
 *   retried after the schedule's next delay (the message's visibility is pushed out), and after
 *   the last attempt the message is left to the queue's redrive policy: the dead-letter queue.
 */
export interface QueueRecord {
  messageId: string;
  receiptHandle: string;
  body: string;
  /** 1 on the first receive: the attempt number. */
  receiveCount: number;
}

/** A claim outlives a send (10 s timeout) with room, so a live worker's claim is never taken over. */
const CLAIM_LEASE_SECONDS = 60;

/** Messages handled at once from one batch. */
const PARALLEL = 10;

/** The failed records' message ids (SQS partial batch response). */
export async function deliverBatch(records: readonly QueueRecord[]): Promise<string[]> {
  const failed: string[] = [];
  for (let start = 0; start < records.length; start += PARALLEL) {
    const slice = records.slice(start, start + PARALLEL);
    const outcomes = await Promise.all(
      slice.map((record) =>
        handleRecord(record).catch((error: unknown) => {
          // An unexpected error (DynamoDB throttled...): the message comes back after its visibility timeout.
          logger.error('delivery: message failed', { error, messageId: record.messageId });
          return false;
        }),
      ),
    );
    outcomes.forEach((ok, index) => {
      if (!ok) failed.push(slice[index]!.messageId);
    });
  }
  return failed;
}

async function handleRecord(record: QueueRecord): Promise<boolean> {
  let message: EventQueueMessage;
  try {
    message = JSON.parse(record.body) as EventQueueMessage;
  } catch {
    // Not ours to understand: left to fail until the dead-letter queue keeps it for a human.
    logger.error('delivery: unreadable message', { messageId: record.messageId });
    return false;
  }
  switch (message.kind) {
    case 'outbox':
      return openEnvelope(message, record);
    case 'event':
      await sendAll(await fanOut(message.companyId, [message.event]));
      return true;
    case 'delivery':
      return deliverToSubscription(message, record);
    case 'webhook':
      return sendWebhook(message, record);
    case 'email':
      return sendEmail(message, record);
    default:
      logger.error('delivery: unknown message kind', { messageId: record.messageId });
      return false;
  }
}

/** The messages the events go out as: one per matching subscription and outgoing webhook URL; one read of each list for all the events. */
async function fanOut(companyId: number, events: readonly DomainEvent[]): Promise<QueueMessage[]> {
  const [subscriptions, webhooks] = await Promise.all([queryAllRecords(companyId, 'subscriptions'), queryAllRecords(companyId, 'outgoing_webhooks')]);
  return events.flatMap((event) => [
    ...subscriptions
      .filter((subscription) => subscriptionMatches(subscription, event))
      .map((subscription): QueueMessage => ({ kind: 'delivery', id: `${event.id}.s${subscription.id}`, companyId, event, subscriptionId: subscription.id })),
    ...webhooks
      .filter((webhook) => outgoingWebhookMatches(webhook, event))
      .flatMap((webhook) => webhookMessages(companyId, webhook, { key: event.id, event: event.name, eventId: event.id, fireId: null, object: event.data })),
  ]);
}

/** Queues messages, one request per ten. A repeated fan-out or forward sends the same message ids again; their claims make the copies send nothing. */
async function sendAll(messages: readonly QueueMessage[]): Promise<void> {
  if (messages.length) await eventQueue().send(messages);
}

/**
 * An outbox item's messages reached the queue (shared/events/outbox.ts): the item is deleted,
 * its events fanned out and its other messages (webhooks, deliveries, e-mails) forwarded as
 * messages of their own, so each keeps its own retry schedule. The item is deleted at once,
 * beside the fan-out's reads rather than after the send: from receipt on the envelope holds the
 * messages durably and a failure retries the envelope, while an item kept until the end would
 * have the sweeper send a second envelope during those retries. Deleting an item already gone is
 * no error (a redelivered or re-sent envelope).
 */
async function openEnvelope(envelope: OutboxEnvelope, record: QueueRecord): Promise<boolean> {
  // The key comes from the message: only ever an outbox item of the envelope's own company.
  if (envelope.key.pk !== keys.outboxPartition(envelope.companyId)) {
    logger.error('delivery: an outbox envelope names a key outside its company\'s outbox', { messageId: record.messageId });
    return false;
  }
  const events = envelope.messages.flatMap((message) => (message.kind === 'event' ? [message.event] : []));
  const forwarded = envelope.messages.filter((message) => message.kind !== 'event');
  const [, fannedOut] = await Promise.all([db.send(new DeleteCommand({ TableName: tableName, Key: envelope.key })), events.length ? fanOut(envelope.companyId, events) : []]);
  await sendAll([...fannedOut, ...forwarded]);
  return true;
}

interface AttemptContext {
  policy: RetryPolicy;
  record: QueueRecord;
  now: Date;
}

/** Logs the attempt, settles the claim and schedules the next attempt; true when delivered. */
async function settleAttempt(
  companyId: number,
  messageId: string,
  result: OutboundResult,
  context: AttemptContext,
  log: Omit<WebhookAttempt, 'attempt' | 'max_attempts' | 'success' | 'status_code' | 'duration_ms' | 'response_excerpt' | 'error' | 'next_attempt_at'>,
): Promise<{ delivered: boolean; last: boolean; logId: number; error: string }> {
  const attempt = context.record.receiveCount;
  countMetric(result.ok ? METRIC.deliveriesSucceeded : METRIC.deliveriesFailed);
  const delay = result.ok ? undefined : delayAfter(context.policy, attempt);
  const error = result.error ?? (result.ok ? '' : `HTTP ${result.status}`);
  const logId = await recordWebhookAttempt(
    companyId,
    {
      ...log,
      attempt,
      max_attempts: maxAttempts(context.policy),
      success: result.ok,
      status_code: result.status,
      duration_ms: result.durationMs,
      response_excerpt: result.responseExcerpt || null,
      error: result.ok ? null : error,
      next_attempt_at: delay !== undefined ? new Date(context.now.getTime() + delay * 1000).toISOString() : null,
    },
    context.now,
  );
  if (result.ok) {
    await markDelivered(companyId, messageId, context.now);
    return { delivered: true, last: false, logId, error };
  }
  await releaseDelivery(companyId, messageId, context.now);
  // After the last attempt the message becomes visible at once, and the queue's redrive policy
  // moves it to the dead-letter queue on its next receive.
  await eventQueue().retryLater(context.record.receiptHandle, delay ?? 0);
  return { delivered: false, last: delay === undefined, logId, error };
}

async function deliverToSubscription(message: Extract<QueueMessage, { kind: 'delivery' }>, record: QueueRecord): Promise<boolean> {
  const { companyId, event } = message;
  const now = clock().now();
  const subscription = await getRecord(companyId, 'subscriptions', message.subscriptionId);
  // Deleted since the event: there is nobody to deliver to.
  if (!subscription) return true;
  if ((await claimDelivery(companyId, message.id, now, CLAIM_LEASE_SECONDS)) !== 'claimed') return true;
  const policy = retryPolicyFromEnv();
  const body = eventPayload(event);
  const target = String(subscription.target_url);
  const headers = { 'content-type': 'application/json', ...signatureHeaders(event.id, now, body, await signingSecrets(companyId, subscription, now)) };
  const result = await sendOutbound({ url: target, method: 'POST', headers, body }, { allowed: configuredAllowedCidrs() });
  const outcome = await settleAttempt(companyId, message.id, result, { policy, record, now }, {
    kind: 'subscription',
    event: event.name,
    event_id: event.id,
    subscription_id: subscription.id,
    outgoing_webhook_id: null,
    outgoing_webhook_url_id: null,
    webhook_manual_fire_id: null,
    call_id: objectKindOf(event.name) === 'call' && typeof event.data.id === 'number' ? event.data.id : null,
    lead_id: objectKindOf(event.name) === 'lead' && typeof event.data.id === 'number' ? event.data.id : null,
    http_method: 'POST',
    target_url: target,
  });
  if (outcome.delivered) await deliverySucceeded(companyId, subscription);
  else if (await deliveryFailed(companyId, subscription, { last: outcome.last, error: outcome.error }, policy, now)) {
    logger.warn('subscription disabled: its deliveries kept failing', { companyId, subscriptionId: subscription.id });
  }
  return outcome.delivered;
}

const BODY_MODE = { 'application/json': 'json', 'application/x-www-form-urlencoded': 'form', 'text/plain': 'text' } as const;

async function sendWebhook(message: Extract<QueueMessage, { kind: 'webhook' }>, record: QueueRecord): Promise<boolean> {
  const { companyId, source } = message;
  const now = clock().now();
  const target = await getRecord(companyId, 'outgoing_webhook_urls', message.urlId);
  if (!target) {
    // Nothing to send; the fire counts the URL as failed once, however many copies of the
    // message arrive (the claim, settled at once).
    if (source.fireId !== null && (await claimDelivery(companyId, message.id, now, CLAIM_LEASE_SECONDS)) === 'claimed') {
      await noteFireOutcome(companyId, source.fireId, { logId: null, delivered: false, final: true, status: null, error: 'the outgoing webhook URL was deleted' }, now);
      await markDelivered(companyId, message.id, now);
    }
    return true;
  }
  if ((await claimDelivery(companyId, message.id, now, CLAIM_LEASE_SECONDS)) !== 'claimed') return true;
  const policy = retryPolicyFromEnv();
  const method = (typeof target.http_method === 'string' ? target.http_method : 'POST') as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const contentType = typeof target.content_type === 'string' ? target.content_type : 'application/json';
  const mode = BODY_MODE[contentType as keyof typeof BODY_MODE] ?? 'text';
  let url = String(target.url);
  let result: OutboundResult;
  try {
    url = renderTemplate(String(target.url), source.tokens, 'url');
    const body =
      method === 'GET'
        ? undefined
        : typeof target.body === 'string' && target.body
          ? renderTemplate(target.body, source.tokens, mode)
          : mode === 'json'
            ? JSON.stringify(source.tokens)
            : new URLSearchParams(Object.entries(source.tokens).map(([name, value]): [string, string] => [name, value === null || value === undefined ? '' : String(value)])).toString();
    const headers: Record<string, string> = {
      ...Object.fromEntries(Object.entries((target.headers ?? {}) as Record<string, unknown>).map(([name, value]) => [name, renderTemplate(String(value), source.tokens, 'text')])),
      ...(body !== undefined ? { 'content-type': contentType } : {}),
      'webhook-id': message.id,
    };
    result = await sendOutbound({ url, method, headers, body }, { allowed: configuredAllowedCidrs() });
  } catch (error) {
    // A template that renders too large: a failed attempt whose log says why, not a lost message.
    result = { ok: false, status: null, durationMs: 0, responseExcerpt: '', error: `template: ${error instanceof Error ? error.message : String(error)}`, refused: false };
  }
  const outcome = await settleAttempt(companyId, message.id, result, { policy, record, now }, {
    kind: 'outgoing_webhook',
    event: source.event,
    event_id: source.eventId,
    subscription_id: null,
    outgoing_webhook_id: message.outgoingWebhookId,
    outgoing_webhook_url_id: message.urlId,
    webhook_manual_fire_id: source.fireId,
    call_id: source.callId,
    lead_id: source.leadId,
    http_method: method,
    target_url: url,
  });
  if (source.fireId !== null) {
    await noteFireOutcome(companyId, source.fireId, { logId: outcome.logId, delivered: outcome.delivered, final: outcome.delivered || outcome.last, status: result.status, error: outcome.delivered ? null : outcome.error }, now);
  }
  return outcome.delivered;
}

/** Records an attempt of a manual fire on the fire: its log id, and the count of URLs delivered or given up. */
async function noteFireOutcome(
  companyId: number,
  fireId: number,
  outcome: { logId: number | null; delivered: boolean; final: boolean; status: number | null; error: string | null },
  now: Date,
): Promise<void> {
  const counter = outcome.final ? (outcome.delivered ? 'delivered_count' : 'failed_count') : undefined;
  await db.send(
    new UpdateCommand({
      TableName: tableName,
      Key: keys.record(companyId, 'webhook_manual_fires', fireId),
      UpdateExpression: [
        'SET webhook_log_ids = list_append(if_not_exists(webhook_log_ids, :empty), :log), last_status_code = :status, last_error = :error, updated_at = :now',
        counter ? `ADD ${counter} :one` : '',
      ].join(' '),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: {
        ':empty': [],
        ':log': outcome.logId === null ? [] : [outcome.logId],
        ':status': outcome.status,
        ':error': outcome.error,
        ':now': now.toISOString(),
        ...(counter ? { ':one': 1 } : {}),
      },
    }),
  ).catch((error: unknown) => logger.warn('delivery: could not note the outcome on the manual fire', { error, companyId, fireId }));
}

async function sendEmail(message: Extract<QueueMessage, { kind: 'email' }>, record: QueueRecord): Promise<boolean> {
  const now = clock().now();
  if ((await claimDelivery(message.companyId, message.id, now, CLAIM_LEASE_SECONDS)) !== 'claimed') return true;
  try {
    await emailPort().send(message.email);
  } catch (error) {
    logger.warn('delivery: e-mail failed, retrying', { error, companyId: message.companyId, kind: message.email.kind });
    await releaseDelivery(message.companyId, message.id, now);
    await eventQueue().retryLater(record.receiptHandle, delayAfter(retryPolicyFromEnv(), record.receiveCount) ?? 0);
    return false;
  }
  await markDelivered(message.companyId, message.id, now);
  return true;
}
