import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { EmailMessage, EmailPort } from '../../ports/email.js';

/** E-mail through Amazon SES (v2 API) from a verified sender address. */
export class SesEmail implements EmailPort {
  constructor(
    private readonly client: SESv2Client,
    private readonly from: string,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    // Imported here, not at the top: a bundle that may mail loads the SES client on its first
    // e-mail, not at init (a static import of an external is loaded at init even if unused).
    const { SendEmailCommand } = await import('@aws-sdk/client-sesv2');
    await this.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: message.text, Charset: 'UTF-8' } },
          },
        },
        EmailTags: [{ Name: 'kind', Value: message.kind }],
      }),
    );
  }
}
