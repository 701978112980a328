import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { S3ObjectStorage } from '../../shared/adapters/aws/s3-object-storage.js';
import { FileObjectStorage } from '../../shared/adapters/local/file-object-storage.js';
import { audioSeconds, decodeAudio, MAX_AUDIO_BYTES, sniffAudio, SOUND_UPLOAD_LIMIT, typeMatches } from '../../shared/call-config/sound-audio.js';
import { publicApiBase, servedAudioUrl } from '../../shared/call-config/sounds.js';
import { isMachine, messageTwiml } from '../../shared/call-config/amd-flows.js';
import { withPlaysBefore } from '../../shared/call-config/call-sounds.js';
import { mp3Bytes, wavBytes } from '../fixtures/audio.js';

const client = () => new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });

describe('S3 object storage for sound files', () => {
  it('puts bytes, gets them back, deletes them, and answers undefined for a missing key', async () => {
    const s3 = mockClient(S3Client);
    const bytes = wavBytes(0.1);
    s3.on(PutObjectCommand).resolves({});
    s3.on(GetObjectCommand, { Bucket: 'b', Key: 'sounds/1/a.wav' }).resolves({ Body: { transformToByteArray: async () => new Uint8Array(bytes) } as never });
    s3.on(GetObjectCommand, { Bucket: 'b', Key: 'sounds/1/gone.wav' }).rejects(new NoSuchKey({ message: 'gone', $metadata: {} }));
    s3.on(DeleteObjectCommand).resolves({});
    const storage = new S3ObjectStorage(client(), 'b');
    await storage.put({ key: 'sounds/1/a.wav', body: new Uint8Array(bytes), contentType: 'audio/wav' });
    expect(s3.commandCalls(PutObjectCommand)[0]!.args[0].input).toMatchObject({ Bucket: 'b', Key: 'sounds/1/a.wav', ContentType: 'audio/wav', ServerSideEncryption: 'AES256' });
    expect(Buffer.from((await storage.get('sounds/1/a.wav'))!).equals(bytes)).toBe(true);
    expect(await storage.get('sounds/1/gone.wav')).toBeUndefined();
    await storage.delete('sounds/1/a.wav');
    expect(s3.commandCalls(DeleteObjectCommand).map((entry) => entry.args[0].input)).toEqual([{ Bucket: 'b', Key: 'sounds/1/a.wav' }]);
    s3.restore();
  });

  it('presigns a GetObject URL of the bucket and key that expires when asked, without calling S3', async () => {
    const s3 = mockClient(S3Client);
    const url = new URL(await new S3ObjectStorage(client(), 'sound-bucket').presignedGetUrl('sounds/7/abc.mp3', 3600));
    expect(url.protocol).toBe('https:');
    expect(url.hostname).toBe('sound-bucket.s3.us-east-1.amazonaws.com');
    expect(url.pathname).toBe('/sounds/7/abc.mp3');
    expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(url.searchParams.get('x-id')).toBe('GetObject');
    expect(s3.calls()).toHaveLength(0);
    s3.restore();
  });
});

describe('local object storage for sound files', () => {
  it('reads back what it wrote, deletes it (twice is harmless), and has no URLs of its own', async () => {
    const storage = new FileObjectStorage(mkdtempSync(join(tmpdir(), 'sounds-')));
    const bytes = new Uint8Array(mp3Bytes(100));
    await storage.put({ key: 'sounds/1/x.mp3', body: bytes, contentType: 'audio/mpeg' });
    expect(await storage.get('sounds/1/x.mp3')).toEqual(bytes);
    await storage.delete('sounds/1/x.mp3');
    await storage.delete('sounds/1/x.mp3');
    expect(await storage.get('sounds/1/x.mp3')).toBeUndefined();
    expect(await storage.presignedGetUrl()).toBeUndefined();
    await expect(storage.get('../outside')).rejects.toThrow('leaves the storage folder');
  });
});

describe('checking uploaded audio', () => {
  it('tells WAV and MP3 (ID3 tag or frame sync) from anything else by their bytes', () => {
    expect(sniffAudio(wavBytes(0.1))).toBe('wav');
    expect(sniffAudio(mp3Bytes(10))).toBe('mp3');
    expect(sniffAudio(Buffer.concat([Buffer.from('ID3'), Buffer.alloc(20)]))).toBe('mp3');
    expect(sniffAudio(Buffer.from('RIFF0000AVI '))).toBeUndefined();
    expect(sniffAudio(Buffer.from('%PDF-1.4'))).toBeUndefined();
    expect(sniffAudio(new Uint8Array())).toBeUndefined();
    expect(typeMatches('wav', 'audio/x-wav')).toBe(true);
    expect(typeMatches('wav', 'audio/mpeg')).toBe(false);
  });

  it('measures WAV from its chunks and constant-bitrate MP3 from its first frame', () => {
    expect(audioSeconds('wav', wavBytes(2, 8000))).toBe(2);
    expect(audioSeconds('mp3', mp3Bytes(32_000))).toBe(2);
    expect(audioSeconds('wav', Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
  });

  it('decodes base64 (a data: URL too) and bounds it', () => {
    const decoded = decodeAudio(`data:audio/wav;base64,${wavBytes(0.1).toString('base64')}`);
    expect(decoded).toMatchObject({ ok: true, format: 'wav', seconds: 0.1 });
    expect(decodeAudio('')).toEqual({ ok: false, message: "can't be blank" });
    expect(decodeAudio('abc')).toEqual({ ok: false, message: 'is not base64' });
    expect(decodeAudio(Buffer.alloc(MAX_AUDIO_BYTES + 3).toString('base64'))).toEqual({ ok: false, message: `is larger than ${MAX_AUDIO_BYTES} bytes of audio` });
    // The upload route's limits fit Lambda's 6 MB request and the 5 MB response budget.
    expect(SOUND_UPLOAD_LIMIT.chars).toBe(4_000_000);
    expect(SOUND_UPLOAD_LIMIT.bodyBytes).toBeLessThan(6_000_000 * 0.75);
  });
});

describe('sound and machine TwiML', () => {
  it('puts plays before the verbs, escaped; nothing changes without URLs', () => {
    const twiml = '<?xml version="1.0" encoding="UTF-8"?><Response><Dial>x</Dial></Response>';
    expect(withPlaysBefore(twiml, ['https://a/x?b=1&c=2'])).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Play>https://a/x?b=1&amp;c=2</Play><Dial>x</Dial></Response>');
    expect(withPlaysBefore(twiml, [])).toBe(twiml);
  });

  it('leaves a message by sound, else by text, then hangs up', () => {
    expect(messageTwiml(['https://a/1'], 'ignored')).toContain('<Response><Play>https://a/1</Play><Hangup/></Response>');
    expect(messageTwiml([], 'Call us <back>')).toContain('<Response><Say>Call us &lt;back&gt;</Say><Hangup/></Response>');
    expect(messageTwiml([], null)).toContain('<Response><Hangup/></Response>');
  });

  it("reads Twilio's AnsweredBy: machines and fax are not people; human and unknown are", () => {
    for (const machine of ['machine_start', 'machine_end_beep', 'machine_end_silence', 'machine_end_other', 'fax']) expect(isMachine(machine)).toBe(true);
    for (const person of ['human', 'unknown', '']) expect(isMachine(person)).toBe(false);
  });

  it("serves local audio at the API's public base", () => {
    expect(publicApiBase({ VOICE_WEBHOOK_BASE: 'https://api.example.com/api/v1/voice/twilio/' })).toBe('https://api.example.com');
    expect(servedAudioUrl('tok_en', { PORT: '4000' })).toBe('http://127.0.0.1:4000/api/v1/sound_files/audio/tok_en');
  });
});
