/**
 * The fields an API client may change on a call (functions/calls/call-changes.ts validates them;
 * a unit test keeps the two the same): what a team's calls permission may limit writes to.
 */
export const CALL_WRITABLE_FIELDS = ['first_name', 'last_name', 'email', 'address', 'city', 'state', 'zip', 'revenue', 'payout', 'buyer_converted', 'offer_converted', 'data'] as const;
