/**
 * The US state codes (two letters, with DC) a state call limit may name, sorted. Apart from their
 * area codes (us-area-codes.ts, keyed by these), so validating a limit does not load the table.
 */
const CODES = ['AK', 'AL', 'AR', 'AZ', 'CA', 'CO', 'CT', 'DC', 'DE', 'FL', 'GA', 'HI', 'IA', 'ID', 'IL', 'IN', 'KS', 'KY', 'LA', 'MA', 'MD', 'ME', 'MI', 'MN', 'MO', 'MS', 'MT', 'NC', 'ND', 'NE', 'NH', 'NJ', 'NM', 'NV', 'NY', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VA', 'VT', 'WA', 'WI', 'WV', 'WY'] as const;

export type UsStateCode = (typeof CODES)[number];

export const US_STATE_CODES: readonly string[] = CODES;
