import { localCarrierToken } from './carrier-token.js';
import { parseArgs } from 'node:util';
import { simulateText } from './text-simulator.js';

/**
 * `npm run text -- --from <caller> --to <tracking number> --body "hi" [--media <url>]... [--sid SM...]`
 * Sends a simulated text to a tracking number of a running `npm start`, signed like the carrier;
 * it becomes an incoming_text_messages record and an `incoming_text_message` event.
 */
const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    body: { type: 'string', default: '' },
    media: { type: 'string', multiple: true },
    sid: { type: 'string' },
    url: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

if (values.help || !values.from || !values.to) {
  console.error('usage: npm run text -- --from <caller> --to <tracking number> --body "hi" [--media <url>]... [--sid <carrier message id>]');
  process.exit(values.help ? 0 : 2);
}

const authToken = localCarrierToken();

const port = process.env.PORT ?? 3000;
const result = await simulateText({ baseUrl: values.url ?? `http://127.0.0.1:${port}`, authToken, from: values.from, to: values.to, body: values.body ?? '', mediaUrls: values.media, messageSid: values.sid });
console.log(`carrier -> sms ${result.messageSid}\n  <- ${result.status} ${result.response || '(empty)'}`);
console.log(`See it: curl -s -u "$KEYS" "http://127.0.0.1:${port}/api/v1/incoming_text_messages?order=id&order_dir=desc"`);
