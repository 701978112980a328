import type { CallInstruction } from '../calls/call-flow.js';
import { getCall } from '../calls/call-store.js';
import { getRecord } from '../db/records.js';
import { escapeXml } from '../voice/twiml.js';
import { playbackUrls } from './sounds.js';

/**
 * Where calls play the offer's sounds (the offers' whisper_sound_file_id and
 * hold_sound_playlist_id): the whisper a press-one buyer hears, and the hold playlist the caller
 * hears before each buyer is dialed. Twilio's <Dial> cannot play a URL while the buyer rings
 * (`ringTone` takes a country code), so the playlist is a <Play> before the <Dial>: the caller's
 * leg is answered, hears it, then hears the buyer ring.
 */
async function offerOfCall(companyId: number, callId: number): Promise<Record<string, unknown> | undefined> {
  const call = await getCall(companyId, callId);
  return typeof call?.offer_id === 'number' ? getRecord(companyId, 'offers', call.offer_id) : undefined;
}

/** The offer's whisper sound for a buyer of this call; [] to say the default prompt. */
export async function whisperSounds(companyId: number, callId: number, at: Date): Promise<string[]> {
  const offer = await offerOfCall(companyId, callId);
  return typeof offer?.whisper_sound_file_id === 'number' ? playbackUrls(companyId, { sound_file_id: offer.whisper_sound_file_id }, at) : [];
}

/** <Play> elements inserted before the TwiML's verbs. Pure. */
export function withPlaysBefore(twiml: string, urls: readonly string[]): string {
  if (!urls.length) return twiml;
  return twiml.replace('<Response>', `<Response>${urls.map((url) => `<Play>${escapeXml(url)}</Play>`).join('')}`);
}

/** The TwiML of a dial with the offer's hold playlist before it; other instructions as they are. */
export async function withHoldSounds(instruction: CallInstruction, twiml: string, at: Date): Promise<string> {
  if (instruction.kind !== 'dial') return twiml;
  // A dial built with its offer at hand names the playlist (null: none); else the call's offer is read.
  const playlistId = instruction.holdPlaylistId !== undefined ? instruction.holdPlaylistId : (await offerOfCall(instruction.companyId, instruction.callId))?.hold_sound_playlist_id;
  if (typeof playlistId !== 'number') return twiml;
  return withPlaysBefore(twiml, await playbackUrls(instruction.companyId, { sound_playlist_id: playlistId }, at));
}
