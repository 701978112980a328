import * as v from 'valibot';
import { BID_LOG_COLUMNS, bidLogPage } from '../../shared/bidding/bid-log.js';
import { getRecord } from '../../shared/db/records.js';
import { NotFoundError } from '../../shared/http/errors.js';
import { booleanParam, idParam, integerParam } from '../../shared/http/param-schemas.js';
import type { Operation } from '../../shared/http/request.js';
import { validate } from '../../shared/http/validation.js';

export const bidListSchema = v.object({
  per_page: v.optional(v.pipe(integerParam, v.minValue(1, 'must be between 1 and 100'), v.maxValue(100, 'must be between 1 and 100')), 25),
  cursor: v.optional(v.pipe(idParam, v.description('The `next_cursor` of the page before; none starts at the newest.'))),
  root: v.optional(booleanParam, true),
});

/**
 * `GET /api/v1/buyers/:id/bids`: a bidding buyer's recent asks, newest first (docs/rtb.md,
 * "Logs"): request URL and headers with secrets redacted, status, latency, bid, number, reason
 * and expiry. Kept 30 days. Another company's buyer is a 404.
 */
export const listBids: Operation = async (request) => {
  const params = validate(bidListSchema, request.params);
  const companyId = request.auth.companyId;
  const id = Number(request.pathParams.id);
  const buyer = Number.isSafeInteger(id) && id > 0 ? await getRecord(companyId, 'buyers', id) : undefined;
  if (!buyer) throw new NotFoundError();
  const page = await bidLogPage(companyId, id, params.per_page, params.cursor);
  return {
    kind: 'list',
    plural: 'bids',
    records: page.rows,
    metadata: { buyer_id: id, per_page: params.per_page, next_cursor: page.nextBeforeId ?? 0, columns: BID_LOG_COLUMNS },
    bare: !params.root,
  };
};
