/**
 * Every DynamoDB key of the service is built here; nothing else concatenates key strings.
 * Company-owned keys start with `C#<company id>` so one company's data can never be addressed
 * with another's id.
 */
export type Key = { pk: string; sk: string };

/** Ids are zero-padded in sort keys so that string order is numeric order. */
const ID_WIDTH = 16;

export function padId(id: number): string {
  return String(id).padStart(ID_WIDTH, '0');
}

function companyPrefix(companyId: number): string {
  return `C#${companyId}`;
}

export const keys = {
  company: (companyId: number): Key => ({ pk: companyPrefix(companyId), sk: 'COMPANY' }),

  /** Partition holding every record of a configuration resource for one company. */
  resourcePartition: (companyId: number, resource: string): string => `${companyPrefix(companyId)}#${resource}`,

  record: (companyId: number, resource: string, id: number): Key => ({
    pk: keys.resourcePartition(companyId, resource),
    sk: padId(id),
  }),

  /**
   * Live counters of a buyer, in the buyers partition beside its record (routing reads both by
   * key, in the same BatchGet); `stats#` sorts after every zero-padded id, so a key range reads
   * records alone.
   */
  buyerStats: (companyId: number, buyerId: number): Key => ({ pk: keys.resourcePartition(companyId, 'buyers'), sk: `stats#${padId(buyerId)}` }),

  /** A blacklisted caller number; the partition lists the company's blacklist. */
  blacklist: (companyId: number, number: string): Key => ({ pk: `${companyPrefix(companyId)}#blacklist`, sk: number }),

  /**
   * High-volume records (logs, calls) live in one partition per company, resource and UTC day,
   * so writes spread over partitions and a day is one Query; sort key = padded time-sortable id.
   */
  dayPartition: (companyId: number, resource: string, day: string): string => `${companyPrefix(companyId)}#${resource}#${day}`,

  /** Requests counted for a rate limit in one window; expires with its window (TTL). */
  rateCounter: (companyId: number, scope: string, window: string): Key => ({ pk: `${companyPrefix(companyId)}#rate#${scope}`, sk: window }),

  /** A tracking number held for one caller after a post, so their call reaches the pinged buyers. */
  numberReservation: (companyId: number, number: string, caller: string): Key => ({
    pk: `${companyPrefix(companyId)}#number_reservations`,
    sk: `${number}#${caller}`,
  }),

  /**
   * Counters of a state call limit (shared/call-config/state-limit-counters.ts): `live` counts its
   * calls in progress, `day#<YYYY-MM-DD>` its calls of a UTC day (expires by TTL).
   */
  stateLimitCounter: (companyId: number, limitId: number, period: string): Key => ({ pk: `${companyPrefix(companyId)}#state_limit_counters`, sk: `${padId(limitId)}#${period}` }),

  /**
   * A ring pool number given to a landing-page visitor (dynamic number insertion): the tokens
   * their matched visitor_token_matchers set, held until `held_until`; one item per number, so
   * the call's number lookup reads it with one GetItem.
   */
  visitorNumberHold: (companyId: number, number: string): Key => ({ pk: `${companyPrefix(companyId)}#visitor_numbers`, sk: number }),

  /** Index keys of a call: gsi1 lists live calls (sparse: only while in progress), gsi2 a caller's calls. */
  liveCalls: (companyId: number): string => `${companyPrefix(companyId)}#live_calls`,
  callsOfCaller: (companyId: number, caller: string): string => `${companyPrefix(companyId)}#calls_of#${caller}`,

  /**
   * Index keys of a lead (shared/leads/lead-store.ts): gsi2 lists a contact's leads (caller
   * number, else `email:<address>`), sort key `<owner>#<padded id>` with owner `o<offer id>` or
   * `s<schedule id>`, so one Query finds the newest lead of a token and caller; gsi1 (sparse)
   * lists a company's active leads waiting for a step, by due time, for the overdue-step sweeper.
   */
  leadsOfContact: (companyId: number, contact: string): string => `${companyPrefix(companyId)}#leads_of#${contact}`,
  leadsWaiting: (companyId: number): string => `${companyPrefix(companyId)}#leads_waiting`,

  /**
   * Lead statistics per company and UTC month (shared/leads/lead-rollups.ts): sort key
   * `<category>#<value>#<DD>T<HH>`, so one Query reads a category, or one value of it, for a month.
   */
  leadRollups: (companyId: number, month: string): string => `${companyPrefix(companyId)}#lead_rollups#${month}`,
  leadRollup: (companyId: number, month: string, category: string, value: string, day: string, hour: string): Key => ({
    pk: keys.leadRollups(companyId, month),
    sk: `${category}#${value}#${day}T${hour}`,
  }),

  /** A contact's editable fields (first_name, notes...), one item per company and caller number. */
  contact: (companyId: number, number: string): Key => ({ pk: `${companyPrefix(companyId)}#contacts`, sk: number }),

  /**
   * gsi1 key of a schedule action: the actions of one schedule (`none` for actions of no
   * schedule), so a lead's step reads its schedule's actions with one Query, not the company's.
   */
  scheduleActionsOf: (companyId: number, scheduleId: number | null): string => `${companyPrefix(companyId)}#schedule_actions_of#${scheduleId ?? 'none'}`,

  /**
   * Index keys of a tracking number (shared/numbers/number-index.ts): gsi1 lists an offer's
   * numbers, gsi2 a ring pool's, each sparse (only while the number has one), sort key the padded
   * id, so a post reads its offer's or pool's numbers with one Query, in id order.
   */
  numbersOfOffer: (companyId: number, offerId: number): string => `${companyPrefix(companyId)}#numbers_of_offer#${offerId}`,
  numbersOfPool: (companyId: number, poolId: number): string => `${companyPrefix(companyId)}#numbers_of_pool#${poolId}`,

  /** When a buyer last paid for a caller, for the duplicate timeframe of conversions. */
  lastConversion: (companyId: number, scope: string, caller: string): Key => ({ pk: `${companyPrefix(companyId)}#conversions#${scope}`, sk: caller }),

  /**
   * Calls created per company and UTC day (shared/calls/call-day-counts.ts): `calls` and one
   * count per UTC hour (`h00`..`h23`), added in the transaction that creates the call, in one of
   * the day's shards (`<day>#<shard 00..15>`, so concurrent calls seldom touch one item); one
   * partition per company, so a list's window is one Query of its days' shards.
   */
  callDayCounts: (companyId: number): string => `${companyPrefix(companyId)}#call_day_counts`,
  callDayCount: (companyId: number, day: string, shard: number): Key => ({ pk: keys.callDayCounts(companyId), sk: `${day}#${String(shard).padStart(2, '0')}` }),
  /** The day-count partition and the sort key bounds of every shard of days `first`..`last`. */
  callDayCountDays: (companyId: number, first: string, last: string): { pk: string; low: string; high: string } => ({
    pk: keys.callDayCounts(companyId),
    low: `${first}#`,
    high: `${last}#\uffff`,
  }),

  /** Call statistics rolled up per UTC hour and cell (shared/calls/rollups.ts; reports never read calls). */
  callRollup: (companyId: number, day: string, hour: string, category: string, value: string): Key => ({
    pk: `${companyPrefix(companyId)}#call_rollups#${day}`,
    sk: `${hour}#${category}#${value}`,
  }),

  /** The rollup partition of a company's UTC day, and the sort key bounds of hours `first`..`last`. */
  callRollupHours: (companyId: number, day: string, first: string, last: string): { pk: string; low: string; high: string } => ({
    pk: `${companyPrefix(companyId)}#call_rollups#${day}`,
    low: `${first}#`,
    high: `${last}#\uffff`,
  }),

  /**
   * Charges (advanced call analysis...) summed per company, UTC day and kind with atomic ADDs;
   * one partition per company, so a day range is one Query.
   */
  chargeRollup: (companyId: number, day: string, kind: string): Key => ({ pk: keys.chargeRollups(companyId), sk: `${day}#${kind}` }),
  chargeRollups: (companyId: number): string => `${companyPrefix(companyId)}#charge_rollups`,

  /** Number impressions counted per UTC day, ring pool and number; one partition per company and UTC month. */
  impressionRollup: (companyId: number, day: string, poolId: number, number: string): Key => ({ pk: keys.impressionRollups(companyId, day.slice(0, 7)), sk: `${day}#${poolId}#${number}` }),
  impressionRollups: (companyId: number, month: string): string => `${companyPrefix(companyId)}#impression_rollups#${month}`,
  /**
   * The rows of a contact import still to process, in chunks of at most a few hundred KB (an item
   * holds 400 KB), beside the import record (by its uuid) until the import finishes.
   */
  contactImportRows: (companyId: number, importUuid: string, chunk: number): Key => ({ pk: `${companyPrefix(companyId)}#contact_import_rows#${importUuid}`, sk: String(chunk).padStart(4, '0') }),

  /**
   * A deleted contact field whose values are still being deleted in the background
   * (shared/contact-fields/field-cleanup.ts): written in the field's delete transaction, deleted
   * when the cleanup is done; one partition per company, so one Query lists what is pending.
   */
  contactFieldCleanups: (companyId: number): string => `${companyPrefix(companyId)}#contact_field_cleanups`,
  contactFieldCleanup: (companyId: number, fieldId: number): Key => ({ pk: keys.contactFieldCleanups(companyId), sk: padId(fieldId) }),

  /**
   * Real-time bidding (docs/rtb.md): a buyer's bid log, one partition per buyer, newest last
   * (time-sortable ids), expiring by TTL; the live bids of one caller and tokens, one item per
   * hash of them, so one GetItem answers for every bidding buyer; and pings, bids and wins per
   * buyer summed per UTC hour, one item an hour (an attribute per buyer and figure), so a ping
   * adds one UpdateItem however many buyers it asked.
   */
  buyerBids: (companyId: number, buyerId: number): string => `${companyPrefix(companyId)}#buyer_bids#${buyerId}`,
  bidCache: (companyId: number, hash: string): Key => ({ pk: `${companyPrefix(companyId)}#bid_cache#${hash}`, sk: 'BIDS' }),
  bidStats: (companyId: number, day: string): string => `${companyPrefix(companyId)}#bid_stats#${day}`,

  /** Per-company id sequence for a configuration resource. */
  sequence: (companyId: number, resource: string): Key => ({ pk: `${companyPrefix(companyId)}#seq`, sk: resource }),

  /** Sequences that are not owned by a company (company ids themselves). */
  globalSequence: (name: string): Key => ({ pk: 'SEQ', sk: name }),

  /** Unique lookup item, written in the same transaction as the record it points at. */
  lookup: (companyId: number, resource: string, field: string, value: string): Key => ({
    pk: `${companyPrefix(companyId)}#${resource}#by_${field}#${value}`,
    sk: 'LOOKUP',
  }),

  /** Unique lookup for values that arrive without credentials (lead and offer tokens). */
  globalLookup: (resource: string, field: string, value: string): Key => ({
    pk: `G#${resource}#by_${field}#${value}`,
    sk: 'LOOKUP',
  }),

  /** Deployment-wide secrets the service makes for itself (e.g. the cursor signing key). */
  secret: (name: string): Key => ({ pk: 'SECRET', sk: name }),

  /** API key pair, found by its public half (global: the caller's company is not known yet). */
  apiKey: (publicKey: string): Key => ({ pk: `APIKEY#${publicKey}`, sk: 'APIKEY' }),

  /** Per-user auth token, found by the SHA-256 of the token (global, like API keys). */
  userToken: (tokenHash: string): Key => ({ pk: `USERTOKEN#${tokenHash}`, sk: 'USERTOKEN' }),

  /**
   * Local mode's queue (shared/adapters/local/table-queue.ts): one partition per queue, sort key
   * = due time then message id, so one Query reads the messages due now in order. Not company
   * data: the queue carries every company's events, as SQS does in AWS.
   */
  localQueue: (queue: string): string => `Q#${queue}`,
  localQueueMessage: (queue: string, visibleAtMs: number, messageId: string): Key => ({
    pk: `Q#${queue}`,
    sk: `${String(Math.max(0, Math.floor(visibleAtMs))).padStart(15, '0')}#${messageId}`,
  }),

  /**
   * Local mode's lead scheduler (shared/adapters/local/table-scheduler.ts): one partition per
   * scheduler name, sort key = due time then the entry, so one Query reads the entries due now.
   */
  localSchedule: (name: string): string => `SCHED#${name}`,
  localScheduleEntry: (name: string, dueMs: number, companyId: number, leadId: number, version: number): Key => ({
    pk: `SCHED#${name}`,
    sk: `${String(Math.max(0, Math.floor(dueMs))).padStart(15, '0')}#${companyId}#${leadId}#${version}`,
  }),

  /**
   * An outbox item: an event (or other queued work) written in the same transaction as the
   * change it describes, deleted by the delivery function when it receives the item's envelope.
   * Sort key = time-sortable id, so the outbox sweeper reads the items older than its grace
   * period with one Query per company, then the message's own id, so two messages of one
   * millisecond never share a key (a second Put of the same key would overwrite the first
   * message, or cancel the change's transaction).
   */
  outbox: (companyId: number, id: number, messageId: string): Key => ({ pk: keys.outboxPartition(companyId), sk: `${padId(id)}#${messageId}` }),
  outboxPartition: (companyId: number): string => `${companyPrefix(companyId)}#outbox`,

  /** The idempotency claim of one delivery (an event to a subscription, a webhook send, an e-mail). */
  deliveryClaim: (companyId: number, messageId: string): Key => ({ pk: `${companyPrefix(companyId)}#deliveries`, sk: messageId }),

  /** Company by name, so the key CLI and the seeder find an existing company. */
  companyByName: (name: string): Key => ({ pk: `COMPANYNAME#${name.toLowerCase()}`, sk: 'LOOKUP' }),
};
