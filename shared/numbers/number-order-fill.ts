import { numberProvider } from '../adapters/index.js';
import { budgetFromEnv, takeWorkLease } from '../db/work-lease.js';
import { getRecord, updateRecord, type StoredRecord } from '../db/records.js';
import { ConflictError, HttpError } from '../http/errors.js';
import type { OperationRequest, OperationResult } from '../http/request.js';
import { numbersRoutes } from '../http/routes/numbers.js';
import { logger } from '../logger.js';
import type { HookContext } from '../resources/define.js';
import { crudOperations } from '../resources/engine.js';
import { phoneNumbers } from './phone-numbers-resource.js';
import { searchFreeNumbers } from './search.js';

/**
 * Filling a number order (shared/numbers/number-orders-resource.ts), within the request that creates it
 * (and POST /api/v1/number_orders/{id}/resume): one number at a time, each bought and recorded by
 * the phone_numbers create operation itself (same checks, provider purchase, unique lookup and
 * release when the write fails), the order's progress saved after each. A request fills for at
 * most FILL_BUDGET_MS (the numbers function has 10 s, the API 30 s); an order not filled by then
 * stays in_progress and resume goes on. The first purchase that fails stops the order:
 * partially_completed with what was bought, or failed when nothing was. A lease on the order
 * keeps two requests from filling it at once. Deleting the order stops it after the number being
 * bought; numbers bought stay (phone_numbers records, released by deleting them).
 */
export const FILL_BUDGET_MS = 6_000;
/** How long a filling request holds the order (longer than any request runs). */
/** Errors kept on an order. */
const MAX_ERRORS = 10;

const CREATE_ROUTE = numbersRoutes.find((route) => route.operation === 'phone_numbers.create')!;
const createNumber = crudOperations(phoneNumbers)['phone_numbers.create']!;

/** The budget: FILL_BUDGET_MS unless NUMBER_ORDER_FILL_BUDGET_MS says otherwise (tests of resume set 0). */
const budgetMs = (): number => budgetFromEnv('NUMBER_ORDER_FILL_BUDGET_MS', FILL_BUDGET_MS);


/** `field message` lines of a refused purchase. Pure. */
export function errorLines(error: HttpError): string[] {
  const lines = Object.entries(error.errors).flatMap(([field, messages]) => messages.map((message) => (field === 'base' ? message : `${field} ${message}`)));
  return lines.length ? lines : [error.message];
}

/** The phone_numbers create request for one number of the order (the caller's own company and auth). */
function numberRequest(context: HookContext, order: StoredRecord, params: Record<string, unknown>): OperationRequest {
  return {
    route: CREATE_ROUTE,
    params: { offer_id: order.offer_id, traffic_source_id: order.traffic_source_id ?? null, ring_pool_id: order.ring_pool_id ?? null, ...params },
    pathParams: {},
    auth: { companyId: context.companyId, userId: context.userId, method: 'api_key' },
    requestId: `number_order_${order.id}`,
    now: context.now,
    url: '',
    headers: {},
  };
}

/** The id of the number a create answered with. */
function createdId(result: OperationResult): number {
  if (result.kind !== 'record') throw new Error('phone_numbers create did not answer with a record');
  return Number(result.record.id);
}

/** The prefix the order buys in (its own, or its prefix record's), or undefined. */
async function prefixOf(companyId: number, order: StoredRecord): Promise<string | undefined> {
  if (typeof order.prefix === 'string') return order.prefix;
  if (typeof order.number_order_prefix_id !== 'number') return undefined;
  const record = await getRecord(companyId, 'number_order_prefixes', order.number_order_prefix_id);
  if (!record) throw new HttpError(422, 'number_order_prefix_id does not exist', { number_order_prefix_id: ['does not exist: the prefix was deleted'] });
  return String(record.prefix);
}

/** Buys one number of the order; its phone_numbers id. Throws the create's HttpError when refused. */
async function buyOne(context: HookContext, order: StoredRecord, prefix: string | undefined): Promise<number> {
  if (prefix === undefined) {
    const params = typeof order.area_code === 'string' ? { area_code: order.area_code } : {};
    return createdId(await createNumber(numberRequest(context, order, params)));
  }
  // The carriers search by area code and digits anywhere: candidates are kept only when they start with the prefix.
  const candidates = (await searchFreeNumbers(numberProvider(), { area_code: prefix.slice(0, 3), contains: prefix, limit: 5 })).filter((number) => number.startsWith(`+1${prefix}`));
  for (const number of candidates) {
    try {
      return createdId(await createNumber(numberRequest(context, order, { number })));
    } catch (error) {
      // Taken by a concurrent purchase since the search: the next candidate.
      if (!(error instanceof ConflictError)) throw error;
    }
  }
  throw new HttpError(422, 'no number available', { number: [`no number is available with prefix ${prefix}`] });
}

/**
 * Fills the order as far as this request may; the fields it stored (the order as it now stands),
 * or {} when another request holds it or it is no longer open.
 */
export async function fill(context: HookContext, order: StoredRecord): Promise<Record<string, unknown>> {
  const { companyId } = context;
  if (!(await takeWorkLease(companyId, 'number_orders', order.id, context.now))) return {};
  const started = performance.now();
  const ids = Array.isArray(order.phone_number_ids) ? [...(order.phone_number_ids as number[])] : [];
  const errors = Array.isArray(order.errors) ? [...(order.errors as string[])] : [];
  const quantity = Number(order.quantity);
  let failed = false;
  try {
    const prefix = await prefixOf(companyId, order);
    // At least one number per request, so a resume always makes progress.
    for (let bought = 0; ids.length < quantity && !failed; bought++) {
      if (bought > 0 && performance.now() - started > budgetMs()) break;
      try {
        ids.push(await buyOne(context, order, prefix));
      } catch (error) {
        if (!(error instanceof HttpError)) logger.error('a number order purchase failed', { companyId, orderId: order.id, error });
        errors.push(...(error instanceof HttpError ? errorLines(error) : ['the number provider failed; resume the order to try again']));
        failed = true;
        break;
      }
      // A deleted order stops here: what was bought stays as phone_numbers records.
      const progress = { status: 'in_progress', fulfilled_count: ids.length, phone_number_ids: ids, updated_at: context.now.toISOString() };
      if (!(await updateRecord(companyId, 'number_orders', order.id, progress))) return {};
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    errors.push(...errorLines(error));
    failed = true;
  }
  const done = ids.length >= quantity;
  const status = done ? 'completed' : failed ? (ids.length ? 'partially_completed' : 'failed') : 'in_progress';
  const final = {
    status,
    fulfilled_count: ids.length,
    phone_number_ids: ids,
    errors: errors.slice(-MAX_ERRORS),
    completed_at: status === 'in_progress' ? null : context.now.toISOString(),
    // Released: the next resume may take it at once.
    lease_until: context.now.toISOString(),
    updated_at: context.now.toISOString(),
  };
  const saved = await updateRecord(companyId, 'number_orders', order.id, final);
  return saved ? final : {};
}

/** A new order is filled by the request that creates it. */
export async function afterWrite(context: HookContext, change: { before?: Record<string, unknown>; after: Record<string, unknown> }): Promise<void | Record<string, unknown>> {
  if (change.before) return;
  return fill(context, change.after as StoredRecord);
}
