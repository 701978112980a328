import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { leadsRoutes } from '../../shared/http/routes/leads.js';

/** Lead submission and the leads API. */
export const handler = createRouteGroupHandler('leads', leadsRoutes, {
  'leads.submit': lazyOperation(async () => (await import('./submit.js')).submit),
  'leads.preflight': lazyOperation(async () => (await import('../../shared/routing/inbound.js')).corsPreflight),
  'leads.list': lazyOperation(async () => (await import('./lead-list.js')).listLeads),
  'leads.new': lazyOperation(async () => (await import('./lead-records.js')).newLead),
  'leads.show': lazyOperation(async () => (await import('./lead-records.js')).showLead),
  'leads.update': lazyOperation(async () => (await import('./lead-records.js')).updateLead),
  'leads.deleteById': lazyOperation(async () => (await import('./lead-records.js')).deleteLeadOperation),
  'leads.byCallerNumber': lazyOperation(async () => (await import('./caller-operations.js')).leadsByCallerNumber),
  'leads.reports': lazyOperation(async () => (await import('./reports.js')).leadReports),
  'leads.stats': lazyOperation(async () => (await import('./stats.js')).leadStats),
  'leads.callerOptOut': lazyOperation(async () => (await import('./caller-operations.js')).callerOptOut),
  'leads.callerRemove': lazyOperation(async () => (await import('./caller-operations.js')).callerRemove),
  'leads.callerMoveToEnd': lazyOperation(async () => (await import('./caller-operations.js')).callerMoveToEnd),
  'leads.buyerIsAvailable': lazyOperation(async () => (await import('./buyer-availability.js')).buyerIsAvailable),
});
