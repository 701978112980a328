import type { LargeFieldLimit } from '../http/input-limits.js';

/**
 * Sound files' audio, checked before anything is stored (pure; the resource is
 * shared/call-config/sound-files-resource.ts). Uploads arrive as base64 in the JSON body, so their size is
 * bounded by what reaches the function: Lambda takes at most 6 MB of request and answers at most
 * RESPONSE_BUDGET_BYTES (5 MB); 3 MB of audio is 4 MB of base64 either way, with room for the
 * rest of the body. That is about three minutes of 128 kbit/s MP3: prompts, whispers, hold music.
 */
export const MAX_AUDIO_BYTES = 3_000_000;

/** The upload route's limits: the base64 of MAX_AUDIO_BYTES, and a body with room for the other fields. */
export const SOUND_UPLOAD_LIMIT: LargeFieldLimit = {
  field: 'audio_base64',
  chars: Math.ceil(MAX_AUDIO_BYTES / 3) * 4,
  bodyBytes: Math.ceil(MAX_AUDIO_BYTES / 3) * 4 + 100_000,
};

/** Where sound files' audio is kept in object storage; the functions with the objects ports may reach these keys only. */
export const SOUND_KEY_PREFIX = 'sounds/';

export const AUDIO_CONTENT_TYPES = ['audio/mpeg', 'audio/wav', 'audio/x-wav'] as const;
export type AudioContentType = (typeof AUDIO_CONTENT_TYPES)[number];

/** What the bytes are, by their magic numbers: WAV (RIFF....WAVE) or MP3 (an ID3 tag or an MPEG audio frame sync). */
export function sniffAudio(bytes: Uint8Array): 'wav' | 'mp3' | undefined {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (bytes.length >= 3 && ascii(0, 3) === 'ID3') return 'mp3';
  // Frame sync: 11 set bits, then MPEG version and layer III (what audio/mpeg files carry).
  if (bytes.length >= 4 && bytes[0] === 0xff && (bytes[1]! & 0xe6) === 0xe2) return 'mp3';
  return undefined;
}

/** Declared types each format may be sent as. */
const TYPES_OF: Record<'wav' | 'mp3', readonly AudioContentType[]> = { wav: ['audio/wav', 'audio/x-wav'], mp3: ['audio/mpeg'] };

/** Whether a declared content type agrees with the sniffed format. */
export function typeMatches(format: 'wav' | 'mp3', declared: string): boolean {
  return (TYPES_OF[format] as readonly string[]).includes(declared);
}

export function defaultType(format: 'wav' | 'mp3'): AudioContentType {
  return TYPES_OF[format][0]!;
}

const readU32 = (bytes: Uint8Array, at: number) => (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16)) + bytes[at + 3]! * 0x1000000;

/** Seconds of a PCM WAV: the data chunk's size over the fmt chunk's byte rate; undefined when the chunks are not there. */
function wavSeconds(bytes: Uint8Array): number | undefined {
  let byteRate: number | undefined;
  for (let at = 12; at + 8 <= bytes.length; ) {
    const id = String.fromCharCode(...bytes.subarray(at, at + 4));
    const size = readU32(bytes, at + 4);
    if (id === 'fmt ' && at + 16 <= bytes.length) byteRate = readU32(bytes, at + 16);
    if (id === 'data') return byteRate ? Math.min(size, bytes.length - at - 8) / byteRate : undefined;
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/** kbit/s of MPEG-1 Layer III, by the header's bitrate index. */
const MP3_BITRATES = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];

/** Seconds of a constant-bitrate MP3, from its first frame's bitrate (a variable-bitrate file is estimated). */
function mp3Seconds(bytes: Uint8Array): number | undefined {
  let at = 0;
  if (bytes.length >= 10 && String.fromCharCode(...bytes.subarray(0, 3)) === 'ID3') {
    at = 10 + ((bytes[6]! & 0x7f) << 21) + ((bytes[7]! & 0x7f) << 14) + ((bytes[8]! & 0x7f) << 7) + (bytes[9]! & 0x7f);
  }
  for (; at + 4 <= bytes.length && at < 64_000; at++) {
    // MPEG-1 Layer III frame header.
    if (bytes[at] === 0xff && (bytes[at + 1]! & 0xfe) === 0xfa) {
      const kbps = MP3_BITRATES[bytes[at + 2]! >> 4];
      return kbps ? ((bytes.length - at) * 8) / (kbps * 1000) : undefined;
    }
  }
  return undefined;
}

/** Seconds of audio, rounded to a tenth, when cheap to tell; null otherwise. */
export function audioSeconds(format: 'wav' | 'mp3', bytes: Uint8Array): number | null {
  const seconds = format === 'wav' ? wavSeconds(bytes) : mp3Seconds(bytes);
  return seconds === undefined || !Number.isFinite(seconds) ? null : Math.round(seconds * 10) / 10;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export type DecodedAudio = { ok: true; bytes: Uint8Array; format: 'wav' | 'mp3'; seconds: number | null } | { ok: false; message: string };

/** Base64 text (a `data:audio/...;base64,` prefix allowed) as checked audio, or why not. Pure. */
export function decodeAudio(text: string): DecodedAudio {
  const payload = text.replace(/^data:[a-z0-9/+.-]+;base64,/i, '').replace(/\s+/g, '');
  if (!payload) return { ok: false, message: "can't be blank" };
  if (payload.length % 4 !== 0 || !BASE64.test(payload)) return { ok: false, message: 'is not base64' };
  const bytes = new Uint8Array(Buffer.from(payload, 'base64'));
  if (bytes.length > MAX_AUDIO_BYTES) return { ok: false, message: `is larger than ${MAX_AUDIO_BYTES} bytes of audio` };
  const format = sniffAudio(bytes);
  if (!format) return { ok: false, message: `is not audio (${AUDIO_CONTENT_TYPES.join(', ')})` };
  return { ok: true, bytes, format, seconds: audioSeconds(format, bytes) };
}
