import { findCompany } from '../../shared/db/companies.js';
import { NotFoundError } from '../../shared/http/errors.js';
import type { Operation } from '../../shared/http/request.js';

/** `GET /api/v1/company`: the caller's own company; credentials never name another one. */
export const showCompany: Operation = async (request) => {
  const company = await findCompany(request.auth.companyId);
  if (!company) throw new NotFoundError('No company');
  return { kind: 'record', root: 'company', record: { ...company } };
};
