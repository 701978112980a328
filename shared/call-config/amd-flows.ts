import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { recordOnTimeline } from '../calls/call-flow.js';
import { db, tableName } from '../db/client.js';
import { keys } from '../db/keys.js';
import type { LeadStepEntry } from '../leads/lead-record.js';
import { pendStep, schedulePending } from '../leads/lead-steps.js';
import { transitionLead, UnknownLeadError } from '../leads/lead-store.js';
import { logger } from '../logger.js';
import { HANGUP_TWIML, escapeXml } from '../voice/twiml.js';
import { playbackUrls } from './sounds.js';

/**
 * Answering machine flows (the offer_amd_flows resource): while an enabled flow exists for an
 * offer, its outbound calls are placed with machine detection (the carrier's AnsweredBy on the
 * answer webhook, after the greeting's end so a message lands on the recording), and a machine
 * gets the flow instead of a buyer: hang up; leave a message (a sound file, else the text said)
 * and hang up; or hang up and have the lead's schedule dial again later (a callback, the way
 * scheduled callbacks do it), at most `max_retries` times per lead.
 */
export interface AmdFlow {
  action: 'hang_up' | 'leave_message' | 'retry_later';
  sound_file_id: number | null;
  message_text: string | null;
  retry_after_minutes: number;
  max_retries: number;
  enabled: boolean;
}

/** The offer's flow, from its lookup item (one GetItem), or undefined when it has none. */
export async function amdFlowOf(companyId: number, offerId: number): Promise<AmdFlow | undefined> {
  const result = await db.send(new GetCommand({ TableName: tableName, Key: keys.lookup(companyId, 'offer_amd_flows', 'offer_id', String(offerId)) }));
  const item = result.Item;
  if (!item || typeof item.action !== 'string') return undefined;
  return {
    action: item.action as AmdFlow['action'],
    sound_file_id: typeof item.sound_file_id === 'number' ? item.sound_file_id : null,
    message_text: typeof item.message_text === 'string' ? item.message_text : null,
    retry_after_minutes: Number(item.retry_after_minutes ?? 60),
    max_retries: Number(item.max_retries ?? 3),
    enabled: item.enabled !== false,
  };
}

/** Whether outbound calls of the offer should ask the carrier to detect machines. */
export async function detectsMachines(companyId: number, offerId: number): Promise<boolean> {
  return (await amdFlowOf(companyId, offerId))?.enabled === true;
}

/** Twilio's AnsweredBy values that mean no person: machine_start, machine_end_beep/silence/other, fax. Pure. */
export function isMachine(answeredBy: string): boolean {
  return answeredBy.startsWith('machine_') || answeredBy === 'fax';
}

/** TwiML that plays the URLs (or says the text) once, then hangs up. Pure. */
export function messageTwiml(urls: readonly string[], text: string | null): string {
  const body = urls.length ? urls.map((url) => `<Play>${escapeXml(url)}</Play>`).join('') : text ? `<Say>${escapeXml(text)}</Say>` : '';
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${body}<Hangup/></Response>`;
}

/** Lead attribute counting the dials a machine answered that the flow retried. */
const RETRY_COUNT = 'amd_retry_count';

/**
 * Moves the lead's next step to a callback `minutes` from now (kept when a step is due sooner),
 * counting the retry; why not, when it cannot (no lead, ended, out of retries).
 */
async function scheduleRetry(companyId: number, leadId: number, flow: AmdFlow, at: Date): Promise<{ scheduled: true; callbackAt: string; retry: number } | { scheduled: false; reason: string }> {
  const callbackAt = new Date(at.getTime() + flow.retry_after_minutes * 60_000);
  try {
    type Decision = { reason: string } | { entry: LeadStepEntry; due: Date; retry: number };
    const { result } = await transitionLead<Decision>(companyId, leadId, (lead) => {
      if (lead.status !== 'active' || lead.schedule_id === null || lead.phase === null) return { result: { reason: 'lead_not_active' }, save: false };
      const done = Number((lead as Record<string, unknown>)[RETRY_COUNT] ?? 0);
      if (done >= flow.max_retries) return { result: { reason: 'max_retries_reached' }, save: false };
      (lead as Record<string, unknown>)[RETRY_COUNT] = done + 1;
      lead.callback_at = callbackAt.toISOString();
      const pending = lead.next_action_at ? Date.parse(lead.next_action_at) : Number.POSITIVE_INFINITY;
      const due = new Date(Math.min(pending, callbackAt.getTime()));
      return { result: { entry: pendStep(companyId, lead, due), due, retry: done + 1 }, save: true };
    }, at);
    if ('reason' in result) return { scheduled: false, reason: result.reason };
    await schedulePending(result.entry, result.due);
    return { scheduled: true, callbackAt: callbackAt.toISOString(), retry: result.retry };
  } catch (error) {
    if (error instanceof UnknownLeadError) return { scheduled: false, reason: 'lead_not_found' };
    throw error;
  }
}

/**
 * The answer webhook's step for an outbound call a machine answered: the TwiML of the offer's
 * flow, with the call's timeline saying what was done; undefined when the callee is a person (or
 * the carrier could not tell) or the offer has no enabled flow, so the call is routed as usual.
 */
export async function machineAnswered(companyId: number, call: Record<string, any>, answeredBy: string, at: Date): Promise<string | undefined> {
  if (!isMachine(answeredBy) || call.status !== 'dialing' || typeof call.offer_id !== 'number') return undefined;
  const flow = await amdFlowOf(companyId, call.offer_id);
  if (!flow?.enabled) return undefined;
  const detail: Record<string, unknown> = { answered_by: answeredBy, action: flow.action };
  let twiml = HANGUP_TWIML;
  if (flow.action === 'leave_message') {
    const urls = flow.sound_file_id !== null ? await playbackUrls(companyId, { sound_file_id: flow.sound_file_id }, at) : [];
    twiml = messageTwiml(urls, flow.message_text);
    detail.message = urls.length ? 'sound_file' : flow.message_text ? 'text' : 'none';
  } else if (flow.action === 'retry_later') {
    const retry = typeof call.lead_id === 'number' ? await scheduleRetry(companyId, call.lead_id, flow, at) : ({ scheduled: false, reason: 'no_lead' } as const);
    Object.assign(detail, retry.scheduled ? { callback_at: retry.callbackAt, retry: retry.retry } : { retry_not_scheduled: retry.reason });
  }
  try {
    await recordOnTimeline(companyId, call.id, 'answered_by_machine', detail, at, { answered_by: answeredBy });
  } catch (error) {
    logger.warn('could not record a machine answer on the call', { companyId, callId: call.id, error });
  }
  return twiml;
}
