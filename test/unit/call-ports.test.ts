import { describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { SqsEvents, sqsBatches } from '../../shared/adapters/aws/sqs-events.js';
import { TwilioCallControl } from '../../shared/adapters/aws/twilio-call-control.js';
import { TwilioNumbers } from '../../shared/adapters/aws/twilio-numbers.js';

describe('SQS event queue adapter', () => {
  const event = { id: 'e-1', name: 'call_ended' as const, companyId: 7, occurredAt: '2026-11-21T06:00:00.000Z', data: { id: 1 } };
  const message = (n: number) => ({ kind: 'event' as const, id: `e-${n}`, companyId: 7, event: { ...event, id: `e-${n}` } });

  it('sends messages in batches of ten with the message as body and its kind and company as attributes', async () => {
    const sqs = mockClient(SQSClient);
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const messages = Array.from({ length: 12 }, (_, n) => message(n));
    await new SqsEvents(new SQSClient({ region: 'us-east-1' }), 'https://sqs.example/queue').send(messages);
    const calls = sqs.commandCalls(SendMessageBatchCommand);
    expect(calls.map((call) => call.args[0].input.Entries!.length)).toEqual([10, 2]);
    expect(calls[0]!.args[0].input.QueueUrl).toBe('https://sqs.example/queue');
    expect(calls[0]!.args[0].input.Entries![0]).toEqual({
      Id: '0',
      MessageBody: JSON.stringify(messages[0]),
      MessageAttributes: { kind: { DataType: 'String', StringValue: 'event' }, company_id: { DataType: 'Number', StringValue: '7' } },
    });
    sqs.restore();
  });

  it('sends an outbox envelope as one message, its kind `outbox`, its messages inside the body', async () => {
    const sqs = mockClient(SQSClient);
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [] });
    const envelope = { kind: 'outbox' as const, id: 'outbox.0001#e-1', companyId: 7, key: { pk: 'C#7#outbox', sk: '0001#e-1' }, messages: [message(1), message(2)] };
    await new SqsEvents(new SQSClient({ region: 'us-east-1' }), 'https://sqs.example/queue').send([envelope]);
    expect(sqs.commandCalls(SendMessageBatchCommand).map((call) => call.args[0].input)).toEqual([
      {
        QueueUrl: 'https://sqs.example/queue',
        Entries: [{ Id: '0', MessageBody: JSON.stringify(envelope), MessageAttributes: { kind: { DataType: 'String', StringValue: 'outbox' }, company_id: { DataType: 'Number', StringValue: '7' } } }],
      },
    ]);
    sqs.restore();
  });

  it('keeps each batch under SQS\'s 256 KB, a big message going alone', () => {
    const kb = (n: number) => 'x'.repeat(n * 1024);
    expect(sqsBatches([kb(100), kb(100), kb(100), kb(1)])).toEqual([[0, 1], [2, 3]]);
    expect(sqsBatches(Array.from({ length: 11 }, () => kb(1)))).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10]]);
    expect(sqsBatches([kb(250), kb(1)])).toEqual([[0], [1]]);
    expect(sqsBatches([])).toEqual([]);
  });

  it('fails when SQS refuses an entry, so the outbox keeps the message for the sweeper', async () => {
    const sqs = mockClient(SQSClient);
    sqs.on(SendMessageBatchCommand).resolves({ Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] });
    await expect(new SqsEvents(new SQSClient({ region: 'us-east-1' }), 'https://sqs.example/queue').send([message(1)])).rejects.toThrow(/refused 1 of 1/);
    sqs.restore();
  });

  it('makes a failed message visible again after the retry delay, at most 12 hours', async () => {
    const sqs = mockClient(SQSClient);
    sqs.on(ChangeMessageVisibilityCommand).resolves({});
    const adapter = new SqsEvents(new SQSClient({ region: 'us-east-1' }), 'https://sqs.example/queue');
    await adapter.retryLater('handle-1', 300);
    await adapter.retryLater('handle-2', 86_400);
    expect(sqs.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: 'https://sqs.example/queue', ReceiptHandle: 'handle-1', VisibilityTimeout: 300 },
      { QueueUrl: 'https://sqs.example/queue', ReceiptHandle: 'handle-2', VisibilityTimeout: 43_200 },
    ]);
    sqs.restore();
  });
});

describe('Twilio call control', () => {
  it('hangs up with Status=completed on the call, authenticated as the account', async () => {
    const requests: Array<{ url: string; init: RequestInit }> = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    await new TwilioCallControl({ accountSid: 'AC1', authToken: 'secret', baseUrl: 'https://carrier.test/' }, fakeFetch).hangup('CA9');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe('https://carrier.test/2010-04-01/Accounts/AC1/Calls/CA9.json');
    expect(requests[0]!.init.method).toBe('POST');
    expect(requests[0]!.init.body).toBe('Status=completed');
    expect((requests[0]!.init.headers as Record<string, string>).authorization).toBe(`Basic ${Buffer.from('AC1:secret').toString('base64')}`);
  });

  it('fails when the carrier refuses', async () => {
    const refusing = (async () => new Response('{}', { status: 404 })) as unknown as typeof fetch;
    await expect(new TwilioCallControl({ accountSid: 'AC1', authToken: 'secret' }, refusing).hangup('CA9')).rejects.toThrow('HTTP 404');
  });

  it('redirects a live call to new TwiML and plays digits into it, each by updating the call', async () => {
    const requests: Array<{ url: string; init: RequestInit }> = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return new Response('{}', { status: 200 });
    }) as unknown as typeof fetch;
    const control = new TwilioCallControl({ accountSid: 'AC1', authToken: 'secret', baseUrl: 'https://carrier.test' }, fakeFetch);
    await control.redirect('CA9', '<Response><Dial><Number>+14155550100</Number></Dial></Response>');
    await control.sendDigits('CA9', '12#');
    expect(requests.map((request) => request.url)).toEqual(['https://carrier.test/2010-04-01/Accounts/AC1/Calls/CA9.json', 'https://carrier.test/2010-04-01/Accounts/AC1/Calls/CA9.json']);
    expect(requests.map((request) => Object.fromEntries(new URLSearchParams(String(request.init.body))))).toEqual([
      { Twiml: '<Response><Dial><Number>+14155550100</Number></Dial></Response>' },
      { Twiml: '<?xml version="1.0" encoding="UTF-8"?><Response><Play digits="12#"/></Response>' },
    ]);
    await expect(new TwilioCallControl({ accountSid: 'AC1', authToken: 'secret' }, (async () => new Response('{}', { status: 400 })) as unknown as typeof fetch).sendDigits('CA9', '1')).rejects.toThrow('HTTP 400');
  });
});

describe('Twilio numbers: voice webhooks of bought numbers', () => {
  it('points a bought number at the service\'s incoming, status and SMS webhooks', async () => {
    let body = '';
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      body = String(init.body);
      return new Response(JSON.stringify({ sid: 'PN1', phone_number: '+14155550123' }), { status: 201 });
    }) as unknown as typeof fetch;
    const provider = new TwilioNumbers({ accountSid: 'AC1', authToken: 'secret', fetch: fakeFetch, voiceWebhookBase: 'https://api.example/api/v1/voice/twilio/' });
    await provider.purchase('+14155550123');
    expect(Object.fromEntries(new URLSearchParams(body))).toEqual({
      PhoneNumber: '+14155550123',
      VoiceUrl: 'https://api.example/api/v1/voice/twilio/incoming',
      VoiceMethod: 'POST',
      StatusCallback: 'https://api.example/api/v1/voice/twilio/status',
      StatusCallbackMethod: 'POST',
      SmsUrl: 'https://api.example/api/v1/voice/twilio/sms',
      SmsMethod: 'POST',
    });
  });
});
