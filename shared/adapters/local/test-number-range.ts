import { NumberUnavailableError, type NumberProvider, type NumberSearch, type PurchasedNumber } from '../../ports/numbers.js';

/**
 * The local number provider: hands out numbers from a configured range, by default the fictional
 * +1 415 555-0100 to 555-0199 (valid in format, never assigned to anyone). It keeps no state
 * about who holds what — the service's unique lookups decide which numbers are taken — and
 * records purchases and releases in memory so tests and developers can see them.
 */
export const DEFAULT_LOCAL_NUMBER_RANGE = '+14155550100..+14155550199';

/** Ranges larger than this are a configuration mistake (and would make searches slow). */
const MAX_RANGE_SIZE = 100_000;

export interface NumberRange {
  first: number;
  last: number;
  /** Digits of every number in the range (numbers are `+` and this many digits). */
  width: number;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/** Parses `+14155550100..+14155550199` (both ends E.164, same length, inclusive). Pure. */
export function parseNumberRange(text: string): NumberRange {
  const [from, to, ...rest] = text.trim().split('..');
  if (!from || !to || rest.length || !E164.test(from) || !E164.test(to) || from.length !== to.length) {
    throw new Error(`Invalid number range "${text}": use +<first>..+<last>, both E.164 of the same length`);
  }
  const first = Number(from.slice(1));
  const last = Number(to.slice(1));
  if (last < first) throw new Error(`Invalid number range "${text}": the last number is below the first`);
  if (last - first + 1 > MAX_RANGE_SIZE) throw new Error(`Invalid number range "${text}": more than ${MAX_RANGE_SIZE} numbers`);
  return { first, last, width: from.length - 1 };
}

function formatNumber(range: NumberRange, value: number): string {
  return `+${String(value).padStart(range.width, '0')}`;
}

/** `*` matches any one digit; everything else literally (the search schema allows digits and `*`). */
function containsPattern(contains: string): RegExp {
  return new RegExp(contains.replace(/[^0-9*]/g, '').replace(/\*/g, '\\d'));
}

/** Whether a number matches a search: area code of a +1 number, digits anywhere after the `+`. Pure. */
export function matchesSearch(number: string, query: Omit<NumberSearch, 'limit'>): boolean {
  if (query.area_code && !number.startsWith(`+1${query.area_code}`)) return false;
  if (query.contains && !containsPattern(query.contains).test(number.slice(1))) return false;
  return true;
}

export class TestNumberRange implements NumberProvider {
  readonly name = 'local';
  readonly range: NumberRange;
  readonly purchases: PurchasedNumber[] = [];
  readonly releases: Array<{ provider_id: string; number: string }> = [];

  constructor(range: string = DEFAULT_LOCAL_NUMBER_RANGE) {
    this.range = parseNumberRange(range);
  }

  includes(number: string): boolean {
    if (!E164.test(number) || number.length !== this.range.width + 1) return false;
    const value = Number(number.slice(1));
    return value >= this.range.first && value <= this.range.last;
  }

  async search(query: NumberSearch): Promise<string[]> {
    const found: string[] = [];
    for (let value = this.range.first; value <= this.range.last && found.length < query.limit; value++) {
      const number = formatNumber(this.range, value);
      if (matchesSearch(number, query)) found.push(number);
    }
    return found;
  }

  async purchase(number: string): Promise<PurchasedNumber> {
    if (!this.includes(number)) throw new NumberUnavailableError(`${number} is not in the local number range`);
    const purchased = { number, provider_id: `LOCAL${number.slice(1)}` };
    this.purchases.push(purchased);
    return purchased;
  }

  async release(providerId: string, number: string): Promise<void> {
    this.releases.push({ provider_id: providerId, number });
  }
}
