import { keys, type Key } from '../db/keys.js';
import { getRecord, getRecords, type StoredRecord } from '../db/records.js';
import { selectedBuyerIds } from '../routing/router.js';
import { chosenRouterId, decideMenu, isLiveRouter, type CallerInput } from './router-matching.js';
import { playbackUrls } from './sounds.js';

/**
 * IVR menus on the call path (docs/call-configuration.md, "IVR routers and key presses"). A call
 * whose tracking number or offer has an enabled call router is not routed at once: it waits in
 * the `ivr` status while the carrier gathers the caller's keys (or words), and each answer is
 * decided here and applied by the call state machine (routerAnswered in shared/calls/call-inbound.ts).
 */

/** The call's status while the caller is in a menu (in progress, no buyer yet). */
export const IVR_STATUS = 'ivr';

/** Menus one call may pass through (repeats and router-to-router hops): a default-answer loop ends. */
export const MAX_IVR_STEPS = 20;

/** Where a call is in its menus, kept on the call (`ivr`). `step` names the gather the carrier answers. */
export interface IvrState {
  router_id: number;
  step: number;
  /** Plays of this router after its first (no or invalid input). */
  repeats: number;
  /** The previous gather got keys or words that matched nothing (so the invalid-input text is said). */
  invalid?: boolean;
}

/** What the carrier plays and gathers: the `gather` call instruction's content. */
export interface GatherStep {
  companyId: number;
  callId: number;
  step: number;
  /** Text to say when no sound plays (and before the prompt after invalid input). */
  say: string[];
  playUrls: string[];
  numDigits: number;
  timeoutSeconds: number;
  speech: boolean;
}

/**
 * The enabled router of a call: the tracking number's, else the offer's. The two unique lookups
 * (call_routers.phone_number_id / offer_id) are read with the call's other keyed items
 * (callRouterKeys), then the router by id (callRouterFrom), only when a lookup was found.
 */
export function callRouterKeys(companyId: number, numberId: number, offerId: number | null): { byNumber: Key; byOffer?: Key } {
  return {
    byNumber: keys.lookup(companyId, 'call_routers', 'phone_number_id', String(numberId)),
    ...(offerId !== null ? { byOffer: keys.lookup(companyId, 'call_routers', 'offer_id', String(offerId)) } : {}),
  };
}

/** The enabled router the lookups as read point at (the number's first); one GetItem when there is one. */
export async function callRouterFrom(companyId: number, lookups: { byNumber?: Record<string, unknown>; byOffer?: Record<string, unknown> }): Promise<StoredRecord | undefined> {
  const routerId = chosenRouterId(lookups);
  if (routerId === undefined) return undefined;
  const router = await getRecord(companyId, 'call_routers', routerId);
  return router && isLiveRouter(router) ? router : undefined;
}

/** The first menu of a call. */
export function firstIvrState(router: StoredRecord): IvrState {
  return { router_id: router.id, step: 1, repeats: 0 };
}

/** The gather for where the call stands in its menus; undefined when its router is gone. */
export async function gatherFor(companyId: number, callId: number, state: IvrState, at: Date): Promise<GatherStep | undefined> {
  const router = await getRecord(companyId, 'call_routers', state.router_id);
  if (!router) return undefined;
  const playUrls = await playbackUrls(companyId, { sound_file_id: router.sound_file_id as number | null, sound_playlist_id: router.sound_playlist_id as number | null }, at);
  const say = [
    ...(state.invalid && typeof router.invalid_input_text === 'string' && router.invalid_input_text ? [router.invalid_input_text] : []),
    ...(playUrls.length === 0 && typeof router.prompt_text === 'string' && router.prompt_text ? [router.prompt_text] : []),
  ];
  return {
    companyId,
    callId,
    step: state.step,
    say,
    playUrls,
    numDigits: Number(router.max_digits ?? 1),
    timeoutSeconds: Number(router.timeout_seconds ?? 5),
    speech: router.speech_enabled === true,
  };
}

/** What the call does after a gather, for the state machine to apply. */
export type IvrOutcome =
  | { kind: 'gather'; state: IvrState; tokens: Record<string, unknown>; entry: Record<string, unknown> }
  | { kind: 'route'; buyerIds: Set<number>; offer?: { id: number; name: string | null }; tokens: Record<string, unknown>; entry: Record<string, unknown> }
  | { kind: 'hangup'; tokens: Record<string, unknown>; entry: Record<string, unknown> };

function ids(value: unknown): number[] {
  return Array.isArray(value) ? value.filter((id): id is number => typeof id === 'number') : [];
}

/** A router's answers in menu order: its own, then each answer group's (BatchGets), and its default. */
async function menuOf(companyId: number, router: StoredRecord): Promise<{ answers: StoredRecord[]; defaultAnswer?: StoredRecord }> {
  const groups = await getRecords(companyId, 'call_router_answer_groups', ids(router.call_router_answer_group_ids));
  const answerIds = [...ids(router.call_router_answer_ids), ...groups.flatMap((group) => ids(group.call_router_answer_ids))];
  const defaultId = typeof router.default_call_router_answer_id === 'number' ? router.default_call_router_answer_id : undefined;
  const records = await getRecords(companyId, 'call_router_answers', defaultId !== undefined ? [...answerIds, defaultId] : answerIds);
  const byId = new Map(records.map((record) => [record.id, record]));
  return { answers: answerIds.flatMap((id) => byId.get(id) ?? []), defaultAnswer: defaultId !== undefined ? byId.get(defaultId) : undefined };
}

function tokensOf(answer: StoredRecord): Record<string, unknown> {
  return answer.token_values && typeof answer.token_values === 'object' && !Array.isArray(answer.token_values) ? (answer.token_values as Record<string, unknown>) : {};
}

/** Decides what the caller's input to the call's current menu does (reads the router, its answers, the destination). */
export async function decideIvrStep(companyId: number, state: IvrState, input: CallerInput): Promise<IvrOutcome> {
  const base = { router_id: state.router_id, step: state.step, digits: input.digits || null, speech: input.speech || null };
  const router = await getRecord(companyId, 'call_routers', state.router_id);
  if (!router) return { kind: 'hangup', tokens: {}, entry: { ...base, result: 'hangup', reason: 'router_deleted' } };
  if (state.step >= MAX_IVR_STEPS) return { kind: 'hangup', tokens: {}, entry: { ...base, result: 'hangup', reason: 'too_many_menu_steps' } };
  const { answers, defaultAnswer } = await menuOf(companyId, router);
  const decision = decideMenu(answers, defaultAnswer, input, state.repeats, Number(router.max_repeats ?? 0));
  if (decision.kind === 'repeat') {
    return { kind: 'gather', state: { router_id: router.id, step: state.step + 1, repeats: decision.repeats, invalid: decision.reason === 'invalid_input' }, tokens: {}, entry: { ...base, result: 'repeat', reason: decision.reason } };
  }
  if (decision.kind === 'hangup') return { kind: 'hangup', tokens: {}, entry: { ...base, result: 'hangup', reason: decision.reason } };
  const answer = decision.answer;
  const tokens = tokensOf(answer);
  const entry = { ...base, answer_id: answer.id, by: decision.by, destination_type: answer.destination_type };
  switch (answer.destination_type) {
    case 'offer': {
      const offer = typeof answer.offer_id === 'number' ? await getRecord(companyId, 'offers', answer.offer_id) : undefined;
      if (!offer) return { kind: 'hangup', tokens, entry: { ...entry, result: 'hangup', reason: 'offer_deleted' } };
      return { kind: 'route', buyerIds: await selectedBuyerIds(companyId, offer), offer: { id: offer.id, name: typeof offer.name === 'string' ? offer.name : null }, tokens, entry: { ...entry, result: 'route', offer_id: offer.id } };
    }
    case 'buyer_group': {
      const buyerIds = typeof answer.buyer_group_id === 'number' ? await selectedBuyerIds(companyId, { buyer_group_ids: [answer.buyer_group_id] }) : new Set<number>();
      return { kind: 'route', buyerIds, tokens, entry: { ...entry, result: 'route', buyer_group_id: answer.buyer_group_id } };
    }
    case 'router': {
      const next = typeof answer.next_call_router_id === 'number' ? await getRecord(companyId, 'call_routers', answer.next_call_router_id) : undefined;
      if (!next || next.enabled === false) return { kind: 'hangup', tokens, entry: { ...entry, result: 'hangup', reason: 'router_unavailable' } };
      return { kind: 'gather', state: { router_id: next.id, step: state.step + 1, repeats: 0 }, tokens, entry: { ...entry, result: 'router', next_call_router_id: next.id } };
    }
    default:
      return { kind: 'hangup', tokens, entry: { ...entry, result: 'hangup' } };
  }
}
