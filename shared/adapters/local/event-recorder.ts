import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { DomainEvent, EventsPort } from '../../ports/events.js';

/**
 * The local events adapter: keeps every published event in memory (tests read `published`) and,
 * with a folder (`npm start` uses DATA_DIR/outbox), appends it to events.jsonl there. Delivery to
 * subscribers is not done locally yet.
 */
export class EventRecorder implements EventsPort {
  readonly published: DomainEvent[] = [];

  constructor(private readonly folder?: string) {
    if (folder) mkdirSync(folder, { recursive: true });
  }

  async publish(event: DomainEvent): Promise<void> {
    this.published.push(event);
    if (this.folder) appendFileSync(join(this.folder, 'events.jsonl'), `${JSON.stringify(event)}\n`);
  }
}
