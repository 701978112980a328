import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { simulateCall } from './call-simulator.js';

/**
 * `npm run call -- --from <caller> --to <tracking number> [--answer-after s] [--talk s]
 *   [--no-answer] [--no-answer-first n] [--keys 1]`
 * Places a simulated call against a running `npm start` and prints each carrier exchange.
 */
const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    'answer-after': { type: 'string', default: '5' },
    talk: { type: 'string', default: '90' },
    'no-answer': { type: 'boolean', default: false },
    'no-answer-first': { type: 'string', default: '0' },
    keys: { type: 'string' },
    url: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || !values.from || !values.to) {
  console.error('usage: npm run call -- --from <caller> --to <tracking number> [--answer-after s] [--talk s] [--no-answer] [--no-answer-first n] [--keys 1]');
  process.exit(values.help ? 0 : 2);
}

const dataDir = resolve(process.env.DATA_DIR ?? '.data');
const credentials = join(dataDir, 'credentials.json');
const saved = existsSync(credentials) ? (JSON.parse(readFileSync(credentials, 'utf8')) as { voice_auth_token?: string }) : {};
const authToken = process.env.TWILIO_AUTH_TOKEN ?? saved.voice_auth_token;
if (!authToken) {
  console.error(`No carrier auth token: start the service with npm start first (it writes ${credentials}) or set TWILIO_AUTH_TOKEN.`);
  process.exit(2);
}

const answerAfter = Number(values['answer-after']);
const talk = Number(values.talk);
const skip = Number(values['no-answer-first']);
const buyers = values['no-answer']
  ? [{ answer: false, answerAfter: 30, talk: 0 }]
  : [...Array.from({ length: skip }, () => ({ answer: false, answerAfter: 30, talk: 0 })), { answer: true, answerAfter, talk, keys: values.keys }];

const result = await simulateCall({
  baseUrl: values.url ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`,
  authToken,
  from: values.from,
  to: values.to,
  buyers,
  onStep: (step) => {
    const path = new URL(step.request).pathname.split('/').pop();
    const detail = step.fields.DialCallStatus ? ` ${step.fields.DialCallStatus} ${step.fields.DialCallDuration}s` : step.fields.CallStatus ? ` ${step.fields.CallStatus}` : '';
    console.log(`carrier -> ${path}${detail}\n  <- ${step.response || '(empty)'}`);
  },
});
console.log(`\n${result.outcome}; dialed ${result.dialed.join(', ') || 'nobody'}; call id ${result.callId ?? '-'}`);
if (result.callId) console.log(`See it: curl -s -u "$KEYS" http://127.0.0.1:${process.env.PORT ?? 3000}/api/v1/calls/${result.callId}`);
