import { getRecord } from '../db/records.js';
import { ConflictError, NotFoundError } from '../http/errors.js';
import type { Operation } from '../http/request.js';
import { findVisible, recordResult } from '../resources/engine.js';
import { fill } from './number-order-fill.js';
import { numberOrders } from './number-orders-resource.js';

// Apart from the order's hooks (number-order-fill.ts), which the declaration loads: this reads the declaration.
/** POST /api/v1/number_orders/{id}/resume: goes on filling an in_progress order (409 when it is not open or being filled). */
export const resumeNumberOrder: Operation = async (request) => {
  const companyId = request.auth.companyId;
  const order = await findVisible(numberOrders, request);
  if (order.status !== 'pending' && order.status !== 'in_progress') throw new ConflictError('status', `is ${String(order.status)}: only a pending or in_progress order can be resumed`);
  const stored = await fill({ companyId, userId: request.auth.userId, now: request.now }, order);
  if (!Object.keys(stored).length) {
    const now = await getRecord(companyId, 'number_orders', order.id);
    if (!now) throw new NotFoundError();
    if (now.status === 'pending' || now.status === 'in_progress') throw new ConflictError('status', 'is being filled by another request');
    return recordResult(numberOrders, request, now);
  }
  return recordResult(numberOrders, request, { ...order, ...stored });
};
