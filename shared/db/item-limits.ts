import { HttpError } from '../http/errors.js';
import { partitionKeyNames, sortKeyNames } from './table-design.js';

/**
 * The last line of defence before DynamoDB: every command the document client sends is checked
 * here (shared/db/client.ts installs it), so a value that slipped past a route's validation is a
 * 4xx instead of a ValidationException answered as 500. Pure.
 */
export const STORAGE_LIMITS = {
  /** DynamoDB: partition key values under 2,048 bytes, sort key values under 1,024. */
  partitionKeyBytes: 2_047,
  sortKeyBytes: 1_023,
  /**
   * Largest item written whole (Put). DynamoDB's limit is 400 KB; the rest is headroom for the
   * attributes the service adds to an item later with updates (a call's timeline, counters).
   */
  itemBytes: 300_000,
  /** DynamoDB numbers: magnitude between 1e-130 and 1e126. */
  numberMagnitude: 1e125,
  numberPrecision: 1e-129,
} as const;

const PARTITION_ATTRIBUTES = new Set(partitionKeyNames);
const SORT_ATTRIBUTES = new Set(sortKeyNames);

/** A key value no item can have: nothing is stored under it (a read finds nothing, a write is refused). */
export class KeyTooLongError extends HttpError {
  constructor() {
    super(422, 'A value is too long to be stored or looked up', { base: ['contains a value too long to be stored or looked up'] });
  }
}

/** A record that would pass the item budget; `field` names its largest attribute. */
export class ItemTooLargeError extends HttpError {
  constructor(field: string, bytes: number, budget: number) {
    super(413, `The record would be ${bytes} bytes, over the budget of ${budget}`, {
      [field]: [`makes the record too large (${bytes} bytes; the budget is ${budget})`],
    });
  }
}

/** A map with an empty key: DynamoDB refuses empty attribute names at any depth. */
export class EmptyNameError extends HttpError {
  constructor(field: string) {
    super(422, `${field} has an empty name`, { [field]: ['has a member with an empty name'] });
  }
}

export class UnstorableNumberError extends HttpError {
  constructor(field: string) {
    super(422, `${field} is a number that cannot be stored`, { [field]: ['is a number that cannot be stored exactly'] });
  }
}

/**
 * DynamoDB's size of a value, closely enough for a budget: strings by UTF-8 bytes, numbers by
 * their digits, containers by their members plus a few bytes each. Iterative, so no nesting
 * depth can overflow the stack.
 */
export function valueSize(value: unknown): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (typeof current === 'string') total += Buffer.byteLength(current, 'utf8');
    else if (typeof current === 'number' || typeof current === 'bigint') total += Math.ceil(String(current).length / 2) + 1;
    else if (current === null || current === undefined || typeof current === 'boolean') total += 1;
    else if (current instanceof Uint8Array) total += current.byteLength;
    else if (current instanceof Set) {
      total += 3;
      for (const member of current) stack.push(member);
    } else if (Array.isArray(current)) {
      total += 3 + current.length;
      for (const member of current) stack.push(member);
    } else if (typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>);
      total += 3 + entries.length;
      for (const [name, member] of entries) {
        total += Buffer.byteLength(name, 'utf8');
        stack.push(member);
      }
    }
  }
  return total;
}

/** An item's size and its largest attribute. */
export function itemSize(item: Record<string, unknown>): { bytes: number; largest: string } {
  let bytes = 0;
  let largest = 'base';
  let largestBytes = -1;
  for (const [name, value] of Object.entries(item)) {
    const size = Buffer.byteLength(name, 'utf8') + valueSize(value);
    bytes += size;
    if (size > largestBytes) {
      largestBytes = size;
      largest = name;
    }
  }
  return { bytes, largest };
}

/** Throws when an item would pass `budget` bytes, naming its largest attribute. */
export function assertItemWithin(item: Record<string, unknown>, budget: number): void {
  const { bytes, largest } = itemSize(item);
  if (bytes > budget) throw new ItemTooLargeError(largest, bytes, budget);
}

function checkKeyAttributes(key: Record<string, unknown> | undefined): void {
  if (!key) return;
  for (const [name, value] of Object.entries(key)) {
    if (typeof value !== 'string') continue;
    const limit = PARTITION_ATTRIBUTES.has(name) ? STORAGE_LIMITS.partitionKeyBytes : SORT_ATTRIBUTES.has(name) ? STORAGE_LIMITS.sortKeyBytes : undefined;
    if (limit !== undefined && Buffer.byteLength(value, 'utf8') > limit) throw new KeyTooLongError();
  }
}

/**
 * Every number inside a value must be one DynamoDB stores (finite, within its range), and every
 * map key must be non-empty.
 */
function checkValue(value: unknown, field: string): void {
  const stack: unknown[] = [value];
  while (stack.length) {
    const current = stack.pop();
    if (typeof current === 'number') {
      const magnitude = Math.abs(current);
      if (!Number.isFinite(current) || magnitude > STORAGE_LIMITS.numberMagnitude || (magnitude !== 0 && magnitude < STORAGE_LIMITS.numberPrecision)) {
        throw new UnstorableNumberError(field);
      }
    } else if (current && typeof current === 'object') {
      if (current instanceof Uint8Array) continue;
      if (current instanceof Set || Array.isArray(current)) {
        for (const member of current) stack.push(member);
        continue;
      }
      for (const [name, member] of Object.entries(current as object)) {
        if (name === '') throw new EmptyNameError(field);
        stack.push(member);
      }
    }
  }
}

function checkItem(item: Record<string, unknown> | undefined): void {
  if (!item) return;
  checkKeyAttributes(item);
  for (const [name, value] of Object.entries(item)) {
    if (name === '') throw new EmptyNameError('base');
    checkValue(value, name);
  }
  assertItemWithin(item, STORAGE_LIMITS.itemBytes);
}

/** Key condition values of a Query (`:pk` and friends) are key values too. */
function checkExpressionValues(values: Record<string, unknown> | undefined): void {
  if (!values) return;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > STORAGE_LIMITS.partitionKeyBytes) throw new KeyTooLongError();
    checkValue(value, name.replace(/^:/, ''));
  }
}

type CommandInput = Record<string, any>;

function checkOperation(input: CommandInput): void {
  checkKeyAttributes(input.Key);
  checkItem(input.Item);
  checkExpressionValues(input.ExpressionAttributeValues);
  checkKeyAttributes(input.ExclusiveStartKey);
}

/**
 * Checks one document-client command input: keys (Get, Update, Delete, Query bounds, batch and
 * transaction members), whole items (Put), and numbers in values. Throws a 4xx error.
 */
export function checkCommandInput(input: CommandInput): void {
  checkOperation(input);
  for (const member of (input.TransactItems ?? []) as CommandInput[]) {
    for (const operation of Object.values(member)) checkOperation(operation as CommandInput);
  }
  for (const request of Object.values((input.RequestItems ?? {}) as Record<string, any>)) {
    if (Array.isArray(request)) {
      for (const write of request) {
        checkItem(write.PutRequest?.Item);
        checkKeyAttributes(write.DeleteRequest?.Key);
      }
    } else {
      for (const key of (request?.Keys ?? []) as Record<string, unknown>[]) checkKeyAttributes(key);
    }
  }
}
