import { PayloadTooLargeError } from './input-limits.js';

/**
 * API Gateway and Lambda refuse responses over 6 MB (the client would see a bare 502). Lists
 * stop adding rows at this budget and page on, and any other answer over it is a clear 413.
 */
export const RESPONSE_BUDGET_BYTES = 5_000_000;

/** How many of `rows`, in order, fit the budget as JSON (at least one: a single row is always far smaller). */
export function rowsWithinBudget(rows: readonly unknown[], budget: number = RESPONSE_BUDGET_BYTES): number {
  let total = 2;
  for (let index = 0; index < rows.length; index++) {
    total += Buffer.byteLength(JSON.stringify(rows[index]) ?? 'null', 'utf8') + 1;
    if (total > budget) return Math.max(index, 1);
  }
  return rows.length;
}

/** Refuses a response body over the budget, naming `per_page`, the parameter that sizes a list. */
export function assertResponseWithinBudget(body: string | undefined): void {
  if (body !== undefined && body.length > RESPONSE_BUDGET_BYTES && Buffer.byteLength(body, 'utf8') > RESPONSE_BUDGET_BYTES) {
    throw new PayloadTooLargeError('per_page', `makes the response larger than ${RESPONSE_BUDGET_BYTES} bytes; ask for fewer records per page or fewer columns`);
  }
}
