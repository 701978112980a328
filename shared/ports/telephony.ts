/** An outbound call to place: the carrier calls `to` showing `from`, and asks `answerUrl` what to do once answered. */
export interface OutboundCallRequest {
  to: string;
  from: string;
  /** The service's webhook the carrier requests when the callee answers (TwiML in, like `incoming`). */
  answerUrl: string;
  /** The service's webhook for the call's status changes (no-answer, busy, completed). */
  statusUrl: string;
  /** Seconds to ring the callee before giving up. */
  timeoutSeconds: number;
  /**
   * Ask the carrier whether a person or a machine answered, waiting for a machine's greeting to
   * end, and tell the answer webhook (AnsweredBy) — the offer has an answering machine flow.
   */
  machineDetection?: boolean;
}

export interface OutboundSms {
  to: string;
  from: string;
  body: string;
}

/** Controls calls and texts at the carrier. */
export interface TelephonyPort {
  /** Ends the carrier's call; resolves when the carrier accepted the request. */
  hangup(carrierCallId: string): Promise<void>;
  /** Places an outbound call; resolves with the carrier's call id once the carrier accepted it. */
  placeCall(request: OutboundCallRequest): Promise<{ carrierCallId: string }>;
  /** Sends a text message; resolves with the carrier's message id. */
  sendSms(message: OutboundSms): Promise<{ carrierMessageId: string }>;
  /** Replaces what the carrier's call is doing with `twiml` (a key press transfer dials elsewhere). */
  redirect(carrierCallId: string, twiml: string): Promise<void>;
  /** Plays DTMF `digits` (0-9, *, #, w = half a second pause) into the carrier's call. */
  sendDigits(carrierCallId: string, digits: string): Promise<void>;
}
