import { parseArgs } from 'node:util';
import { startBidder } from './bidder.js';

/**
 * `npm run bidder -- --port 4100 --bid 42.50 --number +14155550142 [--sip sip:q@pbx.example.com]
 *   [--delay-ms 300] [--reject] [--expire-in-seconds 60]`
 * A bidding buyer's endpoint on 127.0.0.1 for demos (docs/rtb.md): answers every bid request with
 * `bidAmount`, `phoneNumber` (or `sipAddress`), `expireInSeconds` and `bidId`, or declines with
 * `--reject`; prints each request. The service reaches it only with
 * WEBHOOK_ALLOWED_CIDRS=127.0.0.0/8 (loopback is refused otherwise).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4100' },
    bid: { type: 'string', default: '10' },
    number: { type: 'string', default: '+14155550142' },
    sip: { type: 'string' },
    'delay-ms': { type: 'string', default: '0' },
    reject: { type: 'boolean', default: false },
    'expire-in-seconds': { type: 'string', default: '60' },
    help: { type: 'boolean', short: 'h' },
  },
});

const bid = Number(values.bid);
const port = Number(values.port);
if (values.help || !Number.isFinite(bid) || !Number.isInteger(port)) {
  console.error('usage: npm run bidder -- --port 4100 --bid 42.50 --number +14155550142 [--sip sip:queue@pbx.example.com] [--delay-ms 300] [--reject] [--expire-in-seconds 60]');
  process.exit(values.help ? 0 : 2);
}

const bidder = await startBidder({
  port,
  bid,
  number: values.number,
  sip: values.sip,
  delayMs: Number(values['delay-ms']) || 0,
  reject: values.reject,
  expireInSeconds: Number(values['expire-in-seconds']) || 60,
});
const seen = bidder.requests.length;
console.log(`Bidding ${values.reject ? 'nothing (rejecting every request)' : `${bid} for ${values.sip ?? values.number}`} at ${bidder.url} (Ctrl-C stops)`);
let shown = seen;
setInterval(() => {
  for (; shown < bidder.requests.length; shown++) {
    const request = bidder.requests[shown]!;
    console.log(`${new Date().toISOString()} ${request.method} ${request.url} ${request.body.slice(0, 200)}`);
  }
}, 200);
process.on('SIGINT', () => void bidder.close().then(() => process.exit(0)));
