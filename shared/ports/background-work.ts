/**
 * Work a request starts and something else finishes: a contact import that outlasts one time
 * budget goes on without the client (shared/contact-imports/import-work.ts); a deleted contact
 * field's values are deleted (shared/contact-fields/field-cleanup.ts). AWS: a message on
 * the lead runner's steps queue (SQS, delay allowed), which the runner takes with its lead
 * steps; local and tests: a queue in the table with the steps queue's semantics, which the
 * service drains itself (shared/adapters/local/table-work.ts).
 */
export type BackgroundWork = { kind: 'contact_import'; companyId: number; importId: number } | { kind: 'contact_field_cleanup'; companyId: number; fieldId: number };

export interface BackgroundWorkPort {
  /** Queues the work, to start after `delaySeconds` (at most 900). At least once: the work must be safe to run twice. */
  enqueue(work: BackgroundWork, delaySeconds?: number): Promise<void>;
}
