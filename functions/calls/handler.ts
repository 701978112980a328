import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { lazyOperation } from '../../shared/http/lazy-operation.js';
import { callsRoutes } from '../../shared/http/routes/calls.js';

/** Calls through the API: lists, one call, its events (charged), updates, key presses, hang-ups, logs; datasets and the reporting logs. */
export const handler = createRouteGroupHandler('calls', callsRoutes, {
  'calls.list': lazyOperation(async () => (await import('./list.js')).listCalls),
  'calls.byCallerNumber': lazyOperation(async () => (await import('./by-caller.js')).callsByCallerNumber),
  'calls.live': lazyOperation(async () => (await import('./live.js')).listLiveCalls),
  'calls.reports': lazyOperation(async () => (await import('./reports.js')).callReports),
  'calls.stats': lazyOperation(async () => (await import('./stats.js')).callStats),
  'calls.show': lazyOperation(async () => (await import('./show.js')).showCall),
  'calls.events': lazyOperation(async () => (await import('./events.js')).callEvents),
  'calls.update': lazyOperation(async () => (await import('./update.js')).updateCall),
  'calls.updateByCallerId': lazyOperation(async () => (await import('./update-by-caller-id.js')).updateByCallerId),
  'calls.sendKeyPress': lazyOperation(async () => (await import('./key-press.js')).sendKeyPress),
  'calls.hangUp': lazyOperation(async () => (await import('./hangup.js')).hangUpCall),
  'calls.secureUpdate': lazyOperation(async () => (await import('./secure.js')).secureUpdate),
  'calls.secureHangUp': lazyOperation(async () => (await import('./secure.js')).secureHangUp),
  'calls.secureData': lazyOperation(async () => (await import('./secure.js')).secureData),
  'call_logs.list': lazyOperation(async () => (await import('./call-logs.js')).listCallLogs),
  'charge_rollups.list': lazyOperation(async () => (await import('./charge-rollups.js')).listChargeRollups),
  'datasets.list': lazyOperation(async () => (await import('./datasets.js')).listDatasets),
  'datasets.calls': lazyOperation(async () => (await import('./datasets.js')).callDataset),
  'datasets.leads': lazyOperation(async () => (await import('./datasets.js')).leadDataset),
  'datasets.billing': lazyOperation(async () => (await import('./datasets.js')).billingDataset),
  'datasets.numberImpressions': lazyOperation(async () => (await import('./datasets.js')).numberImpressionDataset),
  'impressions.list': lazyOperation(async () => (await import('./reporting-logs.js')).listImpressions),
  'dnc_check_logs.list': lazyOperation(async () => (await import('./reporting-logs.js')).listDncCheckLogs),
});
