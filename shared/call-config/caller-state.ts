import { parsePhone } from '../phone.js';
import { stateOfAreaCode } from './us-area-codes.js';
import { US_STATE_CODES } from './us-states.js';

/**
 * The US state a caller is in, for state call limits: the carrier's FromState when it names a
 * state, else the area code of a US caller number, else a `state` token of the call's data.
 * Undefined when none of them tells. Pure.
 */
const STATES = new Set(US_STATE_CODES);

function stateCode(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const code = value.trim().toUpperCase();
  return STATES.has(code) ? code : undefined;
}

/** The state of a US number's area code (E.164 or national), or undefined. */
export function stateOfNumber(number: string | null | undefined): string | undefined {
  if (!number) return undefined;
  const parsed = parsePhone(number, 'US');
  if (!parsed || parsed.countryCallingCode !== '1') return undefined;
  const national = String(parsed.nationalNumber);
  return national.length === 10 ? stateOfAreaCode(national.slice(0, 3)) : undefined;
}

export function callerState(facts: { carrierState?: string | null; caller?: string | null; tokens?: Readonly<Record<string, unknown>> }): string | undefined {
  return stateCode(facts.carrierState) ?? stateOfNumber(facts.caller) ?? stateCode(facts.tokens?.state);
}
