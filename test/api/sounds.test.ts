import { describe, expect, it } from 'vitest';
import { MAX_AUDIO_BYTES, SOUND_UPLOAD_LIMIT } from '../../shared/call-config/sound-audio.js';
import { getRecord } from '../../shared/db/records.js';
import { simulateCall } from '../../shared/local/call-simulator.js';
import { mp3Bytes, wavBase64, wavBytes } from '../fixtures/audio.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { expect404, expect422, recordOf } from '../fixtures/envelope.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, listThrough } from '../fixtures/records.js';
import { VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Sound files and playlists through the API: uploads checked for size and type, the audio kept in
 * object storage and served to the carrier by the file's playback token, deleted with the record;
 * and the offer's sounds in the TwiML of its calls (hold playlist before each dial, whisper).
 */
const gateway = useGateway();
usePinnedClock(midDayTomorrow);

const upload = (company: TestCompany, json: Record<string, unknown>) => call(gateway, { method: 'POST', path: '/api/v1/sound_files', authorization: company.authorization, json });

/** Fetches an audio URL the service gave the carrier, through this test's gateway. */
async function fetchAudio(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(`${gateway.baseUrl}${new URL(url).pathname}`);
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('sound files', () => {
  it('stores an uploaded WAV: metadata in the record, the bytes in object storage, served by the playback URL', async () => {
    const company = await createTestCompany('sounds');
    const reply = await upload(company, { name: 'Welcome', description: 'greeting', audio_base64: wavBase64(0.5) });
    const file = recordOf(reply, 'sound_file');
    expect(file).toMatchObject({ name: 'Welcome', description: 'greeting', content_type: 'audio/wav', size_bytes: wavBytes(0.5).length, duration_seconds: 0.5, type: 'SoundFile' });
    expect(file.storage_key).toMatch(new RegExp(`^sounds/${company.id}/[0-9a-f-]{36}\\.wav$`));
    expect(file).not.toHaveProperty('audio_base64');
    expect(file).not.toHaveProperty('playback_token');

    const token = (await getRecord(company.id, 'sound_files', file.id))!.playback_token as string;
    const served = await fetchAudio(`http://x/api/v1/sound_files/audio/${token}`);
    expect(served.status).toBe(200);
    expect(served.type).toBe('audio/wav');
    expect(served.bytes.equals(wavBytes(0.5))).toBe(true);
    expect((await fetchAudio('http://x/api/v1/sound_files/audio/not-a-real-token-at-all-0000')).status).toBe(404);

    const shown = recordOf(await call(gateway, { path: `/api/v1/sound_files/${file.id}`, authorization: company.authorization }), 'sound_file');
    expect(shown).toEqual(file);
    expect((await listThrough(gateway, company, '/api/v1/sound_files', 'sound_files')).map((row) => row.id)).toEqual([file.id]);
  });

  it('takes MP3 (declared or not) and estimates its length from the bitrate', async () => {
    const company = await createTestCompany('sounds-mp3');
    const file = recordOf(await upload(company, { name: 'Hold', content_type: 'audio/mpeg', audio_base64: mp3Bytes(16_000).toString('base64') }), 'sound_file');
    expect(file).toMatchObject({ content_type: 'audio/mpeg', size_bytes: 16_000, duration_seconds: 1 });
    expect(file.storage_key).toMatch(/\.mp3$/);
    // Wrapped in the root node, as Rails-style clients send it, the long field is still allowed.
    const wrapped = recordOf(await upload(company, { sound_file: { name: 'Wrapped', audio_base64: mp3Bytes(40_000).toString('base64') } }), 'sound_file');
    expect(wrapped).toMatchObject({ name: 'Wrapped', size_bytes: 40_000, duration_seconds: 2.5 });
  });

  it('refuses a body that is not audio, a declared type the bytes contradict, bad base64 and a missing name, storing nothing', async () => {
    const company = await createTestCompany('sounds-refused');
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64)]);
    expect422(await upload(company, { name: 'Logo', audio_base64: png.toString('base64') }), { audio_base64: ['is not audio (audio/mpeg, audio/wav, audio/x-wav)'] });
    expect422(await upload(company, { name: 'Text', content_type: 'audio/mpeg', audio_base64: Buffer.from('hello there, not audio').toString('base64') }), { audio_base64: ['is not audio (audio/mpeg, audio/wav, audio/x-wav)'] });
    expect422(await upload(company, { name: 'Liar', content_type: 'audio/mpeg', audio_base64: wavBase64(0.1) }), { content_type: ['does not match the audio (WAV)'] });
    expect422(await upload(company, { name: 'Garbled', audio_base64: '%%%not base64%%%' }), { audio_base64: ['is not base64'] });
    expect422(await upload(company, { name: 'Video', content_type: 'video/mp4', audio_base64: wavBase64(0.1) }), { content_type: ['is not included in the list (audio/mpeg, audio/wav, audio/x-wav)'] });
    expect422(await upload(company, { audio_base64: wavBase64(0.1) }), { name: ['is required'] });
    expect(await listThrough(gateway, company, '/api/v1/sound_files', 'sound_files')).toEqual([]);
  });

  it('refuses audio over the size limit (422 on the field) and a body over the upload route\'s limit (413)', async () => {
    const company = await createTestCompany('sounds-large');
    const over = Buffer.concat([wavBytes(0.1), Buffer.alloc(MAX_AUDIO_BYTES + 3 - wavBytes(0.1).length)]);
    const tooLong = await upload(company, { name: 'Long', audio_base64: over.toString('base64') });
    expect(tooLong.status, tooLong.text.slice(0, 300)).toBe(422);
    expect(tooLong.body.errors.audio_base64[0]).toMatch(/^is too long \(maximum is 4000000 characters\)$/);
    const huge = await call(gateway, { method: 'POST', path: '/api/v1/sound_files', authorization: company.authorization, json: { name: 'Huge', audio_base64: 'A', pad: 'x'.repeat(SOUND_UPLOAD_LIMIT.bodyBytes) } });
    expect(huge.status).toBe(413);
    expect(huge.body.errors).toEqual({ body: [`is larger than ${SOUND_UPLOAD_LIMIT.bodyBytes} bytes`] });
    // Just under the limit is taken: the limit is the audio's, not a round number of the body's.
    const under = Buffer.concat([wavBytes(0.1), Buffer.alloc(MAX_AUDIO_BYTES - wavBytes(0.1).length)]);
    expect(recordOf(await upload(company, { name: 'Just fits', audio_base64: under.toString('base64') }), 'sound_file').size_bytes).toBe(MAX_AUDIO_BYTES);
    // Other routes keep the ordinary body limit.
    const elsewhere = await call(gateway, { method: 'POST', path: '/api/v1/sound_playlists', authorization: company.authorization, json: { name: 'x', audio_base64: 'x'.repeat(20_000) } });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors.audio_base64).toEqual(['is too long (maximum is 10000 characters)']);
  });

  it('renames but never replaces the audio, and deletes the audio with the record', async () => {
    const company = await createTestCompany('sounds-lifecycle');
    const file = await createThrough(gateway, company, '/api/v1/sound_files', { name: 'Old', audio_base64: wavBase64(0.1) });
    const token = (await getRecord(company.id, 'sound_files', file.id))!.playback_token as string;
    const renamed = recordOf(await call(gateway, { method: 'PUT', path: `/api/v1/sound_files/${file.id}`, authorization: company.authorization, json: { name: 'New' } }), 'sound_file');
    expect(renamed).toMatchObject({ name: 'New', storage_key: file.storage_key, size_bytes: file.size_bytes });
    expect422(await call(gateway, { method: 'PUT', path: `/api/v1/sound_files/${file.id}`, authorization: company.authorization, json: { audio_base64: wavBase64(0.2) } }), {
      audio_base64: ['cannot be changed: upload a new sound file'],
    });
    expect((await fetchAudio(`http://x/api/v1/sound_files/audio/${token}`)).status).toBe(200);
    expect((await call(gateway, { method: 'DELETE', path: `/api/v1/sound_files/${file.id}`, authorization: company.authorization })).status).toBe(200);
    expect((await fetchAudio(`http://x/api/v1/sound_files/audio/${token}`)).status).toBe(404);
    expect404(await call(gateway, { path: `/api/v1/sound_files/${file.id}`, authorization: company.authorization }));
  });
});

describe('sound playlists', () => {
  it('keeps an ordered list of the company\'s sound files with a loop count', async () => {
    const company = await createTestCompany('playlists');
    const first = await createThrough(gateway, company, '/api/v1/sound_files', { name: 'One', audio_base64: wavBase64(0.1) });
    const second = await createThrough(gateway, company, '/api/v1/sound_files', { name: 'Two', audio_base64: wavBase64(0.2) });
    const playlist = await createThrough(gateway, company, '/api/v1/sound_playlists', { name: 'Hold', sound_file_ids: [second.id, first.id], loop: 3 });
    expect(playlist).toMatchObject({ name: 'Hold', sound_file_ids: [second.id, first.id], loop: 3, type: 'SoundPlaylist' });
    const updated = recordOf(await call(gateway, { method: 'PUT', path: `/api/v1/sound_playlists/${playlist.id}`, authorization: company.authorization, json: { sound_file_ids: `${first.id}` } }), 'sound_playlist');
    expect(updated).toMatchObject({ sound_file_ids: [first.id], loop: 3 });
  });

  it('refuses an empty list, unknown or another company\'s files, and loops out of bounds', async () => {
    const company = await createTestCompany('playlists-refused');
    const other = await createTestCompany('playlists-other');
    const theirs = await createThrough(gateway, other, '/api/v1/sound_files', { name: 'Theirs', audio_base64: wavBase64(0.1) });
    const mine = await createThrough(gateway, company, '/api/v1/sound_files', { name: 'Mine', audio_base64: wavBase64(0.1) });
    const post = (json: Record<string, unknown>) => call(gateway, { method: 'POST', path: '/api/v1/sound_playlists', authorization: company.authorization, json });
    expect422(await post({ name: 'Empty', sound_file_ids: [] }), { sound_file_ids: ["can't be blank"] });
    expect422(await post({ name: 'Foreign', sound_file_ids: [mine.id, theirs.id + 1000] }), { sound_file_ids: [`does not exist: ${theirs.id + 1000}`] });
    expect422(await post({ name: 'Loop', sound_file_ids: [mine.id], loop: 0 }), { loop: ['must be greater than or equal to 1'] });
    expect422(await post({ name: 'Loop', sound_file_ids: [mine.id], loop: 21 }), { loop: ['must be less than or equal to 20'] });
    // The other company's file has an id this company does not have (its first file is id 1 too, so use its second).
    const theirSecond = await createThrough(gateway, other, '/api/v1/sound_files', { name: 'Theirs 2', audio_base64: wavBase64(0.1) });
    expect422(await post({ name: 'Theirs', sound_file_ids: [theirSecond.id] }), { sound_file_ids: [`does not exist: ${theirSecond.id}`] });
  });
});

describe("the offer's sounds in its calls", () => {
  async function setup() {
    const company = await createTestCompany('call-sounds');
    const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'Press one', number: '+12125553001', press_one_to_accept: true });
    const whisper = await createThrough(gateway, company, '/api/v1/sound_files', { name: 'Whisper', audio_base64: wavBase64(0.3) });
    const music = await createThrough(gateway, company, '/api/v1/sound_files', { name: 'Music', content_type: 'audio/mpeg', audio_base64: mp3Bytes(8000).toString('base64') });
    const hold = await createThrough(gateway, company, '/api/v1/sound_playlists', { name: 'Hold', sound_file_ids: [music.id], loop: 2 });
    const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Solar', buyer_ids: [buyer.id], whisper_sound_file_id: whisper.id, hold_sound_playlist_id: hold.id });
    const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
    return { company, buyer, whisper, music, hold, offer, number: number.number as string };
  }

  it('plays the hold playlist (loop times) before the dial and the whisper sound to the buyer, with URLs that serve the audio', async () => {
    const s = await setup();
    expect(s.offer).toMatchObject({ whisper_sound_file_id: s.whisper.id, hold_sound_playlist_id: s.hold.id });
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155552999', to: s.number, buyers: [{ answer: true, answerAfter: 2, talk: 30, keys: '1' }] });
    expect(result.outcome).toBe('completed');
    const incoming = result.steps[0]!.response;
    const holdUrls = [...incoming.matchAll(/<Play>([^<]+)<\/Play>/g)].map((match) => match[1]!.replace(/&amp;/g, '&'));
    expect(holdUrls).toHaveLength(2);
    expect(incoming.indexOf('<Play>')).toBeLessThan(incoming.indexOf('<Dial'));
    const held = await fetchAudio(holdUrls[0]!);
    expect(held).toMatchObject({ status: 200, type: 'audio/mpeg' });
    expect(held.bytes.equals(mp3Bytes(8000))).toBe(true);

    const whisperStep = result.steps.find((step) => step.request.includes('/whisper?'))!;
    expect(whisperStep.response).toMatch(/<Gather [^>]*><Play>[^<]+<\/Play><\/Gather>/);
    expect(whisperStep.response).not.toContain('<Say>');
    const whisperUrl = /<Play>([^<]+)<\/Play>/.exec(whisperStep.response)![1]!;
    const whispered = await fetchAudio(whisperUrl);
    expect(whispered.status).toBe(200);
    expect(whispered.bytes.equals(wavBytes(0.3))).toBe(true);
  });

  it('falls back to the spoken prompt and a plain dial when the offer names no sounds (or they were deleted)', async () => {
    const s = await setup();
    await call(gateway, { method: 'DELETE', path: `/api/v1/sound_files/${s.whisper.id}`, authorization: s.company.authorization });
    await call(gateway, { method: 'PUT', path: `/api/v1/offers/${s.offer.id}`, authorization: s.company.authorization, json: { hold_sound_playlist_id: null } });
    const result = await simulateCall({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: '+14155552998', to: s.number, buyers: [{ answer: true, answerAfter: 2, talk: 30, keys: '1' }] });
    expect(result.outcome).toBe('completed');
    expect(result.steps[0]!.response).not.toContain('<Play>');
    expect(result.steps.find((step) => step.request.includes('/whisper?'))!.response).toContain('<Say>Press 1 to accept this call.</Say>');
  });

  it("refuses another company's sounds on an offer", async () => {
    const company = await createTestCompany('call-sounds-foreign');
    const other = await createTestCompany('call-sounds-other');
    await createThrough(gateway, other, '/api/v1/sound_files', { name: 'One', audio_base64: wavBase64(0.1) });
    const theirs = await createThrough(gateway, other, '/api/v1/sound_files', { name: 'Two', audio_base64: wavBase64(0.1) });
    const reply = await call(gateway, { method: 'POST', path: '/api/v1/offers', authorization: company.authorization, json: { name: 'X', whisper_sound_file_id: theirs.id, hold_sound_playlist_id: 99 } });
    expect422(reply, { whisper_sound_file_id: [`does not exist: ${theirs.id}`], hold_sound_playlist_id: ['does not exist: 99'] });
  });
});
