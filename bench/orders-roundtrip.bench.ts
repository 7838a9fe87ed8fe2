/**
 * Sandbox `POST /orders` round trip over loopback: batches of 1 and 15 signed orders (signed and
 * L2-headed before the timed loop), one request in flight for latency and four for throughput;
 * p50 / p99 of the round trip, requests and orders per second. Every order is verified (EIP-712
 * hash, signature recovery, L2 HMAC) and rests on the matching engine's book.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { LiveClock } from '../src/core/clock.ts';
import { Secret } from '../src/core/secret.ts';
import { startSandbox, type RunningSandbox } from '../src/sandbox/server.ts';
import { privateKeyToAddress } from '../src/venue/signing/address.ts';
import { buildL1Headers } from '../src/venue/signing/clob-auth.ts';
import { hexToBytes } from '../src/venue/signing/hex.ts';
import { createL2Signer } from '../src/venue/signing/l2-auth.ts';
import { createOrderSigner, toOrderSubmission } from '../src/venue/signing/order-signer.ts';
import { printTable, type BenchTable } from './table.ts';

interface Case {
  readonly batch: number;
  readonly concurrency: number;
  readonly requests: number;
}

const CASES: readonly Case[] = [
  { batch: 1, concurrency: 1, requests: Number(process.env['ORDERS_BENCH_REQUESTS_1'] ?? 800) },
  { batch: 15, concurrency: 1, requests: Number(process.env['ORDERS_BENCH_REQUESTS_15'] ?? 150) },
  { batch: 15, concurrency: 4, requests: Number(process.env['ORDERS_BENCH_REQUESTS_15'] ?? 150) * 2 },
];
const WARMUP_REQUESTS = 20;

/** Client loop, plain JS run in a worker: keep-alive agent, `concurrency` requests in flight, prepared requests in order. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, requests, concurrency, warmup } = workerData;
const target = new URL(url + '/orders');
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
function post(r) {
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
      headers: { ...r.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(r.body) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error('status ' + res.statusCode + ' ' + text.slice(0, 200)));
        const results = JSON.parse(text);
        const refused = results.filter((x) => !x.success);
        if (refused.length > 0) return reject(new Error('refused: ' + refused[0].errorMsg));
        resolve(results.length);
      });
    });
    req.on('error', reject);
    req.end(r.body);
  });
}
(async () => {
  let next = 0;
  const latencies = [];
  let first = 0;
  let last = 0;
  async function loop() {
    for (;;) {
      const i = next++;
      if (i >= requests.length) return;
      if (i === warmup) first = performance.now();
      const t0 = performance.now();
      await post(requests[i]);
      const t1 = performance.now();
      if (i >= warmup) { latencies.push(t1 - t0); last = Math.max(last, t1); }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  parentPort.postMessage({ latencies, elapsedMs: last - first });
})().catch((err) => { parentPort.postMessage({ error: String(err && err.stack || err) }); });
`;

interface Prepared {
  body: string;
  headers: Record<string, string>;
}

async function prepare(sandbox: RunningSandbox, c: Case, keyNumber: number): Promise<Prepared[]> {
  const clock = new LiveClock();
  const privateKey = '0x' + keyNumber.toString(16).padStart(2, '0').repeat(32);
  const address = privateKeyToAddress(hexToBytes(privateKey, 32) as Uint8Array);
  const l1 = buildL1Headers({ privateKey: new Secret(privateKey), address, timestampSec: Math.floor(clock.now() / 1000), profile: 'interface' });
  const response = await fetch(`${sandbox.url}/auth/api-key`, { method: 'POST', headers: l1 });
  const creds = (await response.json()) as { apiKey: string; secret: string; passphrase: string };
  const l2 = createL2Signer(address, { apiKey: creds.apiKey, secret: new Secret(creds.secret), passphrase: new Secret(creds.passphrase) }, 'interface');
  const signer = createOrderSigner({ privateKey: new Secret(privateKey), signerAddress: address, signatureType: 0 }, { profile: 'interface' });
  const markets = sandbox.world.markets.filter((m) => m.acceptingOrders && !m.closed && m.tickSize === 10_000);
  let salt = 1;
  const out: Prepared[] = [];
  const nowSec = Math.floor(clock.now() / 1000);
  for (let r = 0; r < c.requests + WARMUP_REQUESTS; r++) {
    const items = Array.from({ length: c.batch }, () => {
      const m = markets[salt % markets.length]!;
      const signed = signer.sign({
        tokenId: m.tokens[salt % 2 === 0 ? 0 : 1].tokenId,
        conditionId: m.conditionId,
        price: m.tickSize,
        size: m.minOrderSize,
        side: 'BUY',
        tick: m.tickSize,
        negRisk: m.negRisk,
        orderType: 'GTC',
        salt: salt++,
        timestamp: clock.now(),
      });
      return toOrderSubmission(signed, creds.apiKey);
    });
    const body = JSON.stringify(items);
    out.push({ body, headers: l2.headers('POST', '/orders', body, nowSec) });
  }
  return out;
}

async function measure(c: Case, keyNumber: number): Promise<(string | number)[]> {
  const sandbox = await startSandbox({
    seed: 1,
    markets: 200,
    events: 50,
    flow: { enabled: false },
    limits: { enabled: false },
    startingBalance: 1_000_000,
    authWindowSeconds: 3_600,
  });
  try {
    const requests = await prepare(sandbox, c, keyNumber);
    const result = await new Promise<{ latencies: number[]; elapsedMs: number }>((resolve, reject) => {
      const worker = new Worker(CLIENT, { eval: true, workerData: { url: sandbox.url, requests, concurrency: c.concurrency, warmup: WARMUP_REQUESTS } });
      worker.once('message', (m: { latencies: number[]; elapsedMs: number; error?: string }) => (m.error ? reject(new Error(m.error)) : resolve(m)));
      worker.once('error', reject);
    });
    const sorted = [...result.latencies].sort((a, b) => a - b);
    const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
    const rps = (result.latencies.length / result.elapsedMs) * 1000;
    return [c.batch, c.concurrency, result.latencies.length, Number(pct(50).toFixed(2)), Number(pct(99).toFixed(2)), Math.round(rps), Math.round(rps * c.batch)];
  } finally {
    await sandbox.close();
  }
}

export async function run(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  let key = 0x21;
  for (const c of CASES) rows.push(await measure(c, key++));
  return {
    title: 'sandbox POST /orders round trip over loopback (signed orders, L2 auth, matching engine)',
    columns: ['orders/request', 'in flight', 'requests', 'p50 ms', 'p99 ms', 'requests/s', 'orders/s'],
    rows,
    notes: [
      'orders and L2 headers prepared before the timed loop; each order: EIP-712 hash, signature recovery, checks, engine submit (rests: BUY at one tick)',
      `server on the main thread, client in a worker thread (node:http keep-alive agent), same 2-core machine; ${WARMUP_REQUESTS} warm-up requests per case not counted`,
      `rate limits off, synthetic flow off, no faults; 200-market world; latency is request start to last byte, client side; node ${process.version}`,
      'signature recovery (libsecp256k1, native binding) is most of the server time per order; figures move with the load of the shared machine',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await run());
}
