import type { Operation } from '../../shared/http/request.js';
import { externalIdsOf } from './call-external-ids.js';
import { callRow } from './call-pages.js';
import { findCompanyCall, viewParams } from './find-call.js';

/** `GET /api/v1/calls/:id`: one call, by id or uuid (`time_zone` and `columns` as in the list). */
export const showCall: Operation = async (request) => {
  const view = viewParams(request.params);
  const call = await findCompanyCall(request.auth, request.pathParams.id);
  const external = await externalIdsOf(request.auth.companyId, [call], view.columns);
  return { kind: 'record', root: 'call', record: callRow(call, view.timeZone, view.columns, external.get(call.id)) };
};
