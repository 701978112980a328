import type { TelephonyPort } from '../../ports/telephony.js';

/** Local telephony: records hang-up requests (the call simulator has no carrier to tell). */
export class CallControlRecorder implements TelephonyPort {
  readonly hungUp: string[] = [];

  async hangup(carrierCallId: string): Promise<void> {
    this.hungUp.push(carrierCallId);
  }
}
