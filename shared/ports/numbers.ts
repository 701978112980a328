/** What to look for when searching a carrier's available numbers. */
export interface NumberSearch {
  /** Three-digit North American area code. */
  area_code?: string;
  /** Digits the number must contain (`*` matches any one digit). */
  contains?: string;
  /** At most this many candidates. */
  limit: number;
}

/** A number the carrier now rents to the deployment. */
export interface PurchasedNumber {
  /** E.164, as the carrier wrote it. */
  number: string;
  /** The carrier's id of the rented number, needed to release it. */
  provider_id: string;
}

/**
 * Rents and releases tracking numbers (all numbers E.164 strings). AWS: a Twilio-compatible
 * carrier; local and tests: a configured range of fictional numbers. The adapter does not know
 * which numbers this service already holds: the table's unique lookups decide that.
 */
export interface NumberProvider {
  /** Stored as the number's `provider` column (`twilio`, `local`). */
  readonly name: string;
  search(query: NumberSearch): Promise<string[]>;
  purchase(number: string): Promise<PurchasedNumber>;
  release(providerId: string, number: string): Promise<void>;
}

/** The carrier answered with an error (a non-2xx status, or a body that is not what it promises). */
export class NumberProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** The carrier's own error code, when it sent one. */
    readonly code?: number | string,
  ) {
    super(message);
    this.name = 'NumberProviderError';
  }
}

/** The number asked for cannot be rented (not offered, already rented, outside the range). */
export class NumberUnavailableError extends NumberProviderError {
  constructor(message: string, status?: number, code?: number | string) {
    super(message, status, code);
    this.name = 'NumberUnavailableError';
  }
}
