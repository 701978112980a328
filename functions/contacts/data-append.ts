import type { Operation } from '../../shared/http/request.js';
import { contactsRoutes } from '../../shared/http/routes/contacts.js';
import { crudOperations } from '../../shared/resources/engine.js';
import { dataAppends } from '../../shared/data-appends/data-appends-resource.js';

const CREATE_ROUTE = contactsRoutes.find((route) => route.operation === 'data_appends.create')!;
const createDataAppend = crudOperations(dataAppends)['data_appends.create']!;

/**
 * `POST /api/v1/data_append`: the reference's request for data about a caller number; the same
 * operation as creating a data append (same checks, provider request, charge and record).
 */
export const requestDataAppend: Operation = (request) => createDataAppend({ ...request, route: CREATE_ROUTE });
