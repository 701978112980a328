import { describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { SesEmail } from '../../shared/adapters/aws/ses-email.js';
import { EmailOutbox } from '../../shared/adapters/local/email-outbox.js';

describe('SES e-mail adapter', () => {
  it('sends exactly one SendEmail with sender, recipient, subject, text and kind tag', async () => {
    const ses = mockClient(SESv2Client);
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    await new SesEmail(new SESv2Client({ region: 'us-east-1' }), 'noreply@calls.example').send({
      companyId: 1,
      kind: 'team_invitation',
      to: 'ops@buyer.example',
      subject: 'You are invited',
      text: 'Hello',
    });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({
      FromEmailAddress: 'noreply@calls.example',
      Destination: { ToAddresses: ['ops@buyer.example'] },
      Content: { Simple: { Subject: { Data: 'You are invited', Charset: 'UTF-8' }, Body: { Text: { Data: 'Hello', Charset: 'UTF-8' } } } },
      EmailTags: [{ Name: 'kind', Value: 'team_invitation' }],
    });
    ses.restore();
  });

  it('propagates a failure so the caller can report it', async () => {
    const ses = mockClient(SESv2Client);
    ses.on(SendEmailCommand).rejects(new Error('MessageRejected'));
    await expect(
      new SesEmail(new SESv2Client({ region: 'us-east-1' }), 'a@b.example').send({ companyId: 1, kind: 'k', to: 'c@d.example', subject: 's', text: 't' }),
    ).rejects.toThrow('MessageRejected');
    ses.restore();
  });
});

describe('local e-mail outbox', () => {
  it('records what would be sent, in order', async () => {
    const outbox = new EmailOutbox();
    await outbox.send({ companyId: 2, kind: 'team_invitation', to: 'a@x.example', subject: 's1', text: 't1' });
    await outbox.send({ companyId: 2, kind: 'team_invitation', to: 'b@x.example', subject: 's2', text: 't2' });
    expect(outbox.sent.map((message) => message.to)).toEqual(['a@x.example', 'b@x.example']);
    expect(outbox.sent[0]).toMatchObject({ companyId: 2, kind: 'team_invitation', subject: 's1' });
  });
});
