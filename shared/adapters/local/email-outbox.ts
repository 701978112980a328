import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EmailMessage, EmailPort } from '../../ports/email.js';
import { clock } from '../clock.js';

/**
 * The local e-mail adapter: nothing leaves the machine. Every message is kept in memory (tests
 * read `sent`) and, when a folder is given (`npm start` uses DATA_DIR/outbox), appended to
 * emails.jsonl there so a developer can see what would have been sent.
 */
export class EmailOutbox implements EmailPort {
  readonly sent: Array<EmailMessage & { sent_at: string }> = [];

  constructor(private readonly folder?: string) {
    if (folder) mkdirSync(folder, { recursive: true });
  }

  async send(message: EmailMessage): Promise<void> {
    const entry = { ...message, sent_at: clock().now().toISOString() };
    this.sent.push(entry);
    if (this.folder) appendFileSync(join(this.folder, 'emails.jsonl'), `${JSON.stringify(entry)}\n`);
  }
}
