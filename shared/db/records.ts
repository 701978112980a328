/**
 * Storage of configuration records (subscriptions, offers, buyers...): one partition per
 * company and resource, sort key = zero-padded id, ids from a per-company sequence whose item
 * also counts the records (kept in step by the same transactions that create and delete).
 */

// The store is kept in parts named after what they hold; its users import it from here.
export * from './record-items.js';
export * from './record-reads.js';
export * from './record-writes.js';
export * from './record-queries.js';
