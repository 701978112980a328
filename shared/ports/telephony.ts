/** Controls live calls at the carrier (hanging up now; transfers later). */
export interface TelephonyPort {
  /** Ends the carrier's call; resolves when the carrier accepted the request. */
  hangup(carrierCallId: string): Promise<void>;
}
