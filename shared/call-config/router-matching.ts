/**
 * Which answer of an IVR menu the caller chose, and what happens when they chose none. Pure
 * (docs/call-configuration.md, "IVR routers and key presses").
 */
export interface MenuAnswer {
  id: number;
  digits?: unknown;
  speech_keywords?: unknown;
  enabled?: unknown;
}

export interface CallerInput {
  /** Keys pressed (Twilio's `Digits`); '' when none. */
  digits: string;
  /** What the caller said (Twilio's `SpeechResult`); '' when nothing. */
  speech: string;
}

/** The keys as the menu compares them: a trailing # (the "I am done" key) does not count. */
function normalDigits(digits: string): string {
  const trimmed = digits.trim();
  return trimmed.length > 1 ? trimmed.replace(/#$/, '') : trimmed;
}

/** Words of a text, lower case, punctuation dropped, single-spaced. */
function words(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/**
 * The answer the caller chose, first in menu order: keys must equal the answer's digits; else a
 * speech result must contain one of its keywords as whole words. Disabled answers never match.
 */
export function matchAnswer<A extends MenuAnswer>(answers: readonly A[], input: CallerInput): A | undefined {
  const live = answers.filter((answer) => answer.enabled !== false);
  const pressed = normalDigits(input.digits);
  if (pressed) {
    const byKeys = live.find((answer) => typeof answer.digits === 'string' && answer.digits === pressed);
    if (byKeys) return byKeys;
  }
  const said = words(input.speech);
  if (!said) return undefined;
  const padded = ` ${said} `;
  return live.find((answer) => Array.isArray(answer.speech_keywords) && answer.speech_keywords.some((keyword) => typeof keyword === 'string' && words(keyword) !== '' && padded.includes(` ${words(keyword)} `)));
}

export type MenuDecision<A> =
  | { kind: 'answer'; answer: A; by: 'input' | 'default' }
  | { kind: 'repeat'; repeats: number; reason: 'no_input' | 'invalid_input' }
  | { kind: 'hangup'; reason: 'no_input' | 'invalid_input' };

/**
 * The menu's next step: the matching answer; else play it again while `repeats` (plays after the
 * first) stays within `maxRepeats`; then the default answer, or a hang-up when there is none.
 */
export function decideMenu<A extends MenuAnswer>(answers: readonly A[], defaultAnswer: A | undefined, input: CallerInput, repeats: number, maxRepeats: number): MenuDecision<A> {
  const answer = matchAnswer(answers, input);
  if (answer) return { kind: 'answer', answer, by: 'input' };
  const reason = input.digits.trim() || input.speech.trim() ? 'invalid_input' : 'no_input';
  if (repeats < maxRepeats) return { kind: 'repeat', repeats: repeats + 1, reason };
  if (defaultAnswer && defaultAnswer.enabled !== false) return { kind: 'answer', answer: defaultAnswer, by: 'default' };
  return { kind: 'hangup', reason };
}

/**
 * Which call router a call reads, from its two unique lookups as read (call_routers.phone_number_id
 * and offer_id): the tracking number's router wins over its offer's; undefined when neither has one.
 */
export function chosenRouterId(lookups: { byNumber?: Record<string, unknown>; byOffer?: Record<string, unknown> }): number | undefined {
  const found = lookups.byNumber ?? lookups.byOffer;
  return found ? Number(found.id) : undefined;
}

/** A router takes calls unless it is disabled (`enabled` absent counts as enabled). */
export function isLiveRouter(router: Readonly<Record<string, unknown>>): boolean {
  return router.enabled !== false;
}
