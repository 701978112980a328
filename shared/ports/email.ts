/** An e-mail the service sends (team invitations now; schedule e-mails later). */
export interface EmailMessage {
  companyId: number;
  /** What it is, for the outbox and logs (e.g. `team_invitation`). */
  kind: string;
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail. AWS: SES; local and tests: an outbox that records what would be sent. */
export interface EmailPort {
  send(message: EmailMessage): Promise<void>;
}
