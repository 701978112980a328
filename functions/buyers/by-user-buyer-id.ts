import { keys } from '../../shared/db/keys.js';
import { getLookup, getRecord } from '../../shared/db/records.js';
import { NotFoundError } from '../../shared/http/errors.js';
import type { Operation } from '../../shared/http/request.js';
import { buyers } from '../../shared/buyers/buyers-resource.js';
import { recordResult } from '../../shared/resources/engine.js';

/** `GET /api/v1/buyers/:user_buyer_id/by_user_buyer_id`: two GetItems (lookup, then record), no filter. */
export const showByUserBuyerId: Operation = async (request) => {
  const value = request.pathParams.user_buyer_id ?? '';
  const companyId = request.auth.companyId;
  const lookup = await getLookup(keys.lookup(companyId, buyers.name, 'user_buyer_id', value));
  const buyer = lookup ? await getRecord(companyId, buyers.name, lookup.id) : undefined;
  if (!buyer) throw new NotFoundError();
  return recordResult(buyers, request, buyer);
};
