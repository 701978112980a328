import { createRouteGroupHandler } from '../../shared/http/handler.js';
import { callsRoutes } from '../../shared/http/routes/calls.js';
import { callsByCallerNumber } from './by-caller.js';
import { listCallLogs } from './call-logs.js';
import { listChargeRollups } from './charge-rollups.js';
import { billingDataset, callDataset, leadDataset, listDatasets, numberImpressionDataset } from './datasets.js';
import { listDncCheckLogs, listImpressions } from './reporting-logs.js';
import { callEvents } from './events.js';
import { hangUpCall } from './hangup.js';
import { sendKeyPress } from './key-press.js';
import { listCalls } from './list.js';
import { listLiveCalls } from './live.js';
import { callReports } from './reports.js';
import { secureData, secureHangUp, secureUpdate } from './secure.js';
import { showCall } from './show.js';
import { callStats } from './stats.js';
import { updateByCallerId } from './update-by-caller-id.js';
import { updateCall } from './update.js';

/** Calls through the API: lists, one call, its events (charged), updates, key presses, hang-ups, logs; datasets and the reporting logs. */
export const handler = createRouteGroupHandler('calls', callsRoutes, {
  'calls.list': listCalls,
  'calls.byCallerNumber': callsByCallerNumber,
  'calls.live': listLiveCalls,
  'calls.reports': callReports,
  'calls.stats': callStats,
  'calls.show': showCall,
  'calls.events': callEvents,
  'calls.update': updateCall,
  'calls.updateByCallerId': updateByCallerId,
  'calls.sendKeyPress': sendKeyPress,
  'calls.hangUp': hangUpCall,
  'calls.secureUpdate': secureUpdate,
  'calls.secureHangUp': secureHangUp,
  'calls.secureData': secureData,
  'call_logs.list': listCallLogs,
  'charge_rollups.list': listChargeRollups,
  'datasets.list': listDatasets,
  'datasets.calls': callDataset,
  'datasets.leads': leadDataset,
  'datasets.billing': billingDataset,
  'datasets.numberImpressions': numberImpressionDataset,
  'impressions.list': listImpressions,
  'dnc_check_logs.list': listDncCheckLogs,
});
