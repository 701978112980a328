import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parse as parseCsv } from 'csv-parse/sync';
import { getLookup } from '../../shared/db/records.js';
import { keys } from '../../shared/db/keys.js';
import { newMessageSid, simulateText } from '../../shared/local/text-simulator.js';
import { MAX_BODY_CHARS } from '../../shared/messaging/inbound-sms.js';
import { midDayTomorrow, usePinnedClock } from '../fixtures/clock.js';
import { createTestCompany, type TestCompany } from '../fixtures/company.js';
import { deliverQueued, useReceiver } from '../fixtures/events.js';
import { call, useGateway } from '../fixtures/gateway.js';
import { createThrough, receiveEvents } from '../fixtures/records.js';
import { queuedEvents, VOICE_TOKEN } from '../fixtures/voice.js';

/**
 * Incoming text messages (docs/resources.md): the carrier's inbound-SMS webhook stores a text to
 * a tracking number once, as the number's company's record, and raises `incoming_text_message`
 * through the outbox, the queue and the delivery function to the company's subscriptions.
 */
// The subscription's receiver listens on this machine (the SSRF guard refuses loopback otherwise).
process.env.WEBHOOK_ALLOWED_CIDRS = '127.0.0.0/8';

const gateway = useGateway();
const receiver = useReceiver();
usePinnedClock(midDayTomorrow);

const CALLER = '+14155552671';

async function setup(label: string): Promise<{ company: TestCompany; number: string; numberId: number; offerId: number }> {
  const company = await createTestCompany(label);
  const buyer = await createThrough(gateway, company, '/api/v1/buyers', { name: 'B', number: '+12125551000' });
  const offer = await createThrough(gateway, company, '/api/v1/offers', { name: 'Offer', buyer_ids: [buyer.id] });
  const number = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offer.id });
  return { company, number: number.number as string, numberId: number.id as number, offerId: offer.id as number };
}

const text = (fields: { from?: string; to: string; body: string; messageSid?: string; mediaUrls?: string[]; signature?: string | null }) =>
  simulateText({ baseUrl: gateway.baseUrl, authToken: VOICE_TOKEN, from: fields.from ?? CALLER, ...fields });

const list = async (company: TestCompany, query = '') => {
  const reply = await call(gateway, { path: `/api/v1/incoming_text_messages${query}`, authorization: company.authorization });
  expect(reply.status, reply.text).toBe(200);
  return reply.body;
};

describe('an inbound text to a tracking number', () => {
  it('becomes a record (list, show, CSV) and an incoming_text_message event delivered to a subscription', async () => {
    const { company, number, numberId, offerId } = await setup('texts-basic');
    const target = `${receiver.url}?sub=${randomUUID()}`;
    const subscribed = await call(gateway, { method: 'POST', path: '/api/v1/subscriptions', authorization: company.authorization, json: { target_url: target, event: 'incoming_text_message' } });
    expect(subscribed.status, subscribed.text).toBe(200);
    await deliverQueued();

    const sent = await text({ from: '(415) 555-2671', to: number, body: 'Is the solar offer still on?', mediaUrls: ['https://api.twilio.com/media/ME1'] });
    expect(sent.status).toBe(200);
    expect(sent.response).toContain('<Response/>');

    const listed = await list(company);
    expect(listed.incoming_text_messages).toHaveLength(1);
    const record = listed.incoming_text_messages[0];
    expect(record).toMatchObject({
      type: 'IncomingTextMessage',
      company_id: company.id,
      phone_number_id: numberId,
      offer_id: offerId,
      from: CALLER,
      to: number,
      body: 'Is the solar offer still on?',
      num_media: 1,
      media_urls: ['https://api.twilio.com/media/ME1'],
      carrier: 'twilio',
      carrier_message_id: sent.messageSid,
      contact_id: CALLER,
      opt_out: false,
      opt_out_keyword: null,
    });
    expect(record.received_at).toBe(record.created_at);

    const shown = await call(gateway, { path: `/api/v1/incoming_text_messages/${record.id}`, authorization: company.authorization });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.incoming_text_message).toEqual(record);

    const csv = await call(gateway, { path: '/api/v1/incoming_text_messages.csv?columns=id,from,body', authorization: company.authorization });
    expect(csv.status, csv.text).toBe(200);
    expect(parseCsv(csv.text)).toEqual([['id', 'from', 'body'], [String(record.id), CALLER, 'Is the solar offer still on?']]);

    await deliverQueued();
    const delivered = receiver.received.filter((request) => request.url.endsWith(target.slice(target.indexOf('?'))));
    expect(delivered).toHaveLength(1);
    const payload = JSON.parse(delivered[0]!.body);
    expect(payload).toMatchObject({ type: 'incoming_text_message', object: 'incoming_text_message', company_id: company.id });
    expect(payload.data).toMatchObject({ id: record.id, from: CALLER, body: 'Is the solar offer still on?', carrier_message_id: sent.messageSid });
  });

  it('is stored once when the carrier retries the webhook (same MessageSid)', async () => {
    const { company, number } = await setup('texts-retry');
    await receiveEvents(gateway, company, 'incoming_text_message');
    const messageSid = newMessageSid();
    for (let attempt = 0; attempt < 3; attempt++) expect((await text({ to: number, body: 'hello', messageSid })).status).toBe(200);
    const listed = await list(company);
    expect(listed.incoming_text_messages.map((row: any) => row.carrier_message_id)).toEqual([messageSid]);
    expect(listed.metadata.total_count).toBe(1);
    // One event: the retries' transactions were refused before staging anything.
    const events = (await queuedEvents()).filter((event) => event.name === 'incoming_text_message' && event.companyId === company.id);
    expect(events.map((event) => event.data.carrier_message_id)).toEqual([messageSid]);
  });

  it('is stored without an event where nothing receives the company\'s events (no subscription, no outgoing webhook)', async () => {
    const { company, number } = await setup('texts-unwatched');
    const messageSid = newMessageSid();
    expect((await text({ to: number, body: 'quiet', messageSid })).status).toBe(200);
    expect((await list(company)).incoming_text_messages.map((row: any) => row.carrier_message_id)).toEqual([messageSid]);
    expect((await queuedEvents()).filter((event) => event.companyId === company.id)).toEqual([]);
  });

  it('stores nothing for an unknown number or a bad signature, answering the carrier neutrally', async () => {
    const { company, number } = await setup('texts-refused');
    const unknownSid = newMessageSid();
    const unknown = await text({ to: '+19995550100', body: 'anyone?', messageSid: unknownSid });
    expect(unknown.status).toBe(200);
    expect(unknown.response).toContain('<Response/>');
    expect(await getLookup(keys.globalLookup('incoming_text_messages', 'carrier_message_id', unknownSid))).toBeUndefined();

    const forged = await text({ to: number, body: 'forged', signature: 'bm90IGEgc2lnbmF0dXJl' });
    expect(forged.status).toBe(403);
    const unsigned = await text({ to: number, body: 'unsigned', signature: null });
    expect(unsigned.status).toBe(403);
    expect((await list(company)).incoming_text_messages).toEqual([]);
  });

  it('trims a body longer than a text may be and bounds the media list, instead of refusing the carrier', async () => {
    const { company, number } = await setup('texts-bounds');
    const media = Array.from({ length: 12 }, (_, index) => `https://api.twilio.com/media/ME${index}`);
    const sent = await text({ to: number, body: 'x'.repeat(MAX_BODY_CHARS + 500), mediaUrls: media });
    expect(sent.status).toBe(200);
    const [record] = (await list(company)).incoming_text_messages;
    expect(record.body).toHaveLength(MAX_BODY_CHARS);
    expect(record.media_urls).toEqual(media.slice(0, 10));
  });

  it('records an opt-out keyword (STOP) on the record', async () => {
    const { company, number } = await setup('texts-stop');
    await text({ to: number, body: ' Stop ' });
    await text({ to: number, body: 'please stop calling me' });
    const rows = (await list(company, '?order=id')).incoming_text_messages;
    expect(rows.map((row: any) => [row.opt_out, row.opt_out_keyword])).toEqual([
      [true, 'stop'],
      [false, null],
    ]);
  });

  it('filters by phone_number_id, by caller number in any shape, and by date range', async () => {
    const { company, number, numberId, offerId } = await setup('texts-filters');
    const second = await createThrough(gateway, company, '/api/v1/phone_numbers', { offer_id: offerId });
    await text({ to: number, body: 'one' });
    await text({ from: '+12125559876', to: second.number, body: 'two' });
    const bodies = async (query: string) => (await list(company, query)).incoming_text_messages.map((row: any) => row.body).sort();
    expect(await bodies(`?phone_number_id=${numberId}`)).toEqual(['one']);
    expect(await bodies(`?phone_number_id=${second.id}`)).toEqual(['two']);
    expect(await bodies('?from=2125559876')).toEqual(['two']);
    expect(await bodies(`?from=${encodeURIComponent(CALLER)}`)).toEqual(['one']);
    expect(await bodies('?created_at_from=2000-01-01 00:00:00 +0000')).toEqual(['one', 'two']);
    expect(await bodies('?created_at_to=2000-01-01 00:00:00 +0000')).toEqual([]);
    const bad = await call(gateway, { path: '/api/v1/incoming_text_messages?from=not-a-number', authorization: company.authorization });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.from).toBeDefined();
  });

  it("is not visible to another company, nor can it be created, changed or deleted through the API", async () => {
    const { company, number } = await setup('texts-owner');
    const other = await setup('texts-other');
    await text({ to: number, body: 'private' });
    const [record] = (await list(company)).incoming_text_messages;
    expect((await list(other.company)).incoming_text_messages).toEqual([]);
    const foreign = await call(gateway, { path: `/api/v1/incoming_text_messages/${record.id}`, authorization: other.company.authorization });
    // The other company has no record of that id (ids are per company).
    expect(foreign.status).toBe(404);
    for (const [method, path] of [['POST', '/api/v1/incoming_text_messages'], ['PUT', `/api/v1/incoming_text_messages/${record.id}`], ['DELETE', `/api/v1/incoming_text_messages/${record.id}`]] as const) {
      const reply = await call(gateway, { method, path, authorization: company.authorization, json: { body: 'changed' } });
      // No such route: 405 where the path has other methods.
      expect([404, 405], `${method} ${path}`).toContain(reply.status);
    }
  });
});
