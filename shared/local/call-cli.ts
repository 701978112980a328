import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { localCarrierToken } from './carrier-token.js';
import { parseArgs } from 'node:util';
import { PLACED_CALLS_FILE } from '../adapters/local/call-control-recorder.js';
import { simulateCall, simulateOutboundCall, type SimulatorStep } from './call-simulator.js';

/**
 * `npm run call -- --from <caller> --to <tracking number> [--answer-after s] [--talk s]
 *   [--no-answer] [--no-answer-first n] [--keys 1] [--buyer-keys 1] [--press 9]`
 * Places a simulated call against a running `npm start` and prints each carrier exchange.
 * `--keys` answers the IVR menus played (comma-separated or repeated, one entry per menu) and,
 * unless `--buyer-keys` says otherwise, is what a press-1-to-accept buyer presses; `--press`
 * is what the caller presses once a buyer answered (key press flows).
 *
 * `npm run call -- --placed [--sid <carrier call id>] [--lead-no-answer] [--machine | --answered-by <AnsweredBy>] [buyer options as above]`
 * plays the callee of an outbound call the service placed (a schedule's dial, make_call): the
 * newest one in DATA_DIR/outbox/calls.jsonl, or the one named. `--machine` answers as an
 * answering machine (AnsweredBy=machine_end_beep; --answered-by sends another verdict), for the offer's AMD flow.
 */
const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    'answer-after': { type: 'string', default: '5' },
    talk: { type: 'string', default: '90' },
    'no-answer': { type: 'boolean', default: false },
    'no-answer-first': { type: 'string', default: '0' },
    keys: { type: 'string', multiple: true },
    'buyer-keys': { type: 'string' },
    press: { type: 'string' },
    'sip-header': { type: 'string', multiple: true },
    'from-state': { type: 'string' },
    url: { type: 'string' },
    placed: { type: 'boolean', default: false },
    sid: { type: 'string' },
    'lead-no-answer': { type: 'boolean', default: false },
    machine: { type: 'boolean', default: false },
    'answered-by': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const placedArg = values.placed ? (values.sid ?? 'latest') : undefined;
if (values.help || (!placedArg && (!values.from || !values.to))) {
  console.error('usage: npm run call -- --from <caller> --to <tracking number> [--answer-after s] [--talk s] [--no-answer] [--no-answer-first n] [--keys 1] [--buyer-keys 1] [--press 9] [--sip-header X-Name=value] [--from-state CA]');
  console.error('       npm run call -- --placed [--sid <carrier call id>] [--lead-no-answer] [--machine | --answered-by <AnsweredBy>] [--answer-after s] [--talk s] [--no-answer] [--no-answer-first n]');
  process.exit(values.help ? 0 : 2);
}

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const authToken = localCarrierToken();

const answerAfter = Number(values['answer-after']);
const talk = Number(values.talk);
const skip = Number(values['no-answer-first']);
const menuKeys = (values.keys ?? []).flatMap((entry) => entry.split(',').map((key) => key.trim()));
const buyers = values['no-answer']
  ? [{ answer: false, answerAfter: 30, talk: 0 }]
  : [...Array.from({ length: skip }, () => ({ answer: false, answerAfter: 30, talk: 0 })), { answer: true, answerAfter, talk, keys: values['buyer-keys'] ?? menuKeys[0] }];

const baseUrl = values.url ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const onStep = (step: SimulatorStep) => {
  const path = new URL(step.request).pathname.split('/').pop();
  const detail = step.fields.Digits ? ` Digits=${step.fields.Digits}` : step.fields.DialCallStatus ? ` ${step.fields.DialCallStatus} ${step.fields.DialCallDuration}s` : step.fields.CallStatus ? ` ${step.fields.CallStatus}` : '';
  console.log(`carrier -> ${path}${detail}\n  <- ${step.response || '(empty)'}`);
};

if (placedArg) {
  const file = join(dataDir, 'outbox', PLACED_CALLS_FILE);
  const placedCalls = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Parameters<typeof simulateOutboundCall>[0]['placed']) : [];
  const placed = placedArg === 'latest' ? placedCalls.at(-1) : placedCalls.find((entry) => entry.carrierCallId === placedArg);
  if (!placed) {
    console.error(placedCalls.length ? `No placed call ${placedArg} in ${file}` : `The service has placed no call yet (${file} is empty): a schedule's dial action or POST /api/v1/schedules/make_call places one.`);
    process.exit(2);
  }
  console.log(`Playing the lead ${placed.to} called from ${placed.from} (${placed.carrierCallId})`);
  const result = await simulateOutboundCall({ baseUrl, authToken, placed, answer: values['lead-no-answer'] ? 'no-answer' : true, buyers, onStep, answeredBy: values['answered-by'] ?? (values.machine ? 'machine_end_beep' : undefined) });
  console.log(`\n${result.outcome}; dialed ${result.dialed.join(', ') || 'nobody'}`);
  process.exit(0);
}

// `--sip-header X-Customer=tier=gold` (repeatable): headers of an incoming SIP call.
const sipHeaders = Object.fromEntries((values['sip-header'] ?? []).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const result = await simulateCall({ baseUrl, authToken, from: values.from!, to: values.to!, buyers, keys: menuKeys, keysDuringCall: values.press, onStep, sipHeaders, fromState: values['from-state'] });
console.log(`\n${result.outcome}; dialed ${result.dialed.join(', ') || 'nobody'}; call id ${result.callId ?? '-'}`);
if (result.callId) console.log(`See it: curl -s -u "$KEYS" http://127.0.0.1:${process.env.PORT ?? 3000}/api/v1/calls/${result.callId}`);
