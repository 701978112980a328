import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { EmailPort } from '../ports/email.js';
import { SesEmail } from './aws/ses-email.js';
import { EmailOutbox } from './local/email-outbox.js';

/**
 * Wires each port to its adapter from the environment, once per process. Functions ask for a
 * port and never learn which mode they run in: `npm start` and the tests set the local
 * adapters, the CDK stack the AWS ones.
 */
const emailAdapter = process.env.EMAIL_ADAPTER ?? 'ses';

function createEmailPort(): EmailPort {
  if (emailAdapter === 'local') return new EmailOutbox(process.env.OUTBOX_DIR);
  if (emailAdapter === 'ses') {
    const from = process.env.EMAIL_FROM;
    if (!from) throw new Error('EMAIL_FROM must be set for the SES e-mail adapter');
    return new SesEmail(new SESv2Client({}), from);
  }
  throw new Error(`Unknown EMAIL_ADAPTER ${emailAdapter}`);
}

let email: EmailPort | undefined;

/** The e-mail port of this process (made on first use, so functions that never mail need no sender). */
export function emailPort(): EmailPort {
  email ??= createEmailPort();
  return email;
}
