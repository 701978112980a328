import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { leadsRoutes } from '../../shared/http/routes/leads.js';
import { buyerIsAvailable } from './buyer-availability.js';
import { corsPreflight } from '../../shared/routing/inbound.js';
import { callerMoveToEnd, callerOptOut, callerRemove, leadsByCallerNumber } from './caller-operations.js';
import { listLeads } from './lead-list.js';
import { deleteLeadOperation, newLead, showLead, updateLead } from './lead-records.js';
import { leadReports } from './reports.js';
import { submit } from './submit.js';

/** Lead submission and the leads API. */
export const handler = createRouteGroupHandler('leads', leadsRoutes, {
  'leads.submit': submit,
  'leads.preflight': corsPreflight,
  'leads.list': listLeads,
  'leads.new': newLead,
  'leads.show': showLead,
  'leads.update': updateLead,
  'leads.deleteById': deleteLeadOperation,
  'leads.byCallerNumber': leadsByCallerNumber,
  'leads.reports': leadReports,
  'leads.callerOptOut': callerOptOut,
  'leads.callerRemove': callerRemove,
  'leads.callerMoveToEnd': callerMoveToEnd,
  'leads.buyerIsAvailable': buyerIsAvailable,
});
