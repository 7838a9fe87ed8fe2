/**
 * Sandbox `POST /books` throughput over loopback: 16 concurrent keep-alive clients (in a worker
 * thread, so client and server each get a core of this 2-core machine) post bodies of ~20 token
 * ids against a running sandbox; requests per second, books per second, p50 and p99 latency.
 */
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { startSandbox } from '../src/sandbox/server.ts';
import { Prng } from '../src/sandbox/world/prng.ts';
import { printTable, type BenchTable } from './table.ts';

const CONCURRENCY = 16;
const WARMUP_MS = 1_000;
const MEASURE_MS = Number(process.env['SANDBOX_BENCH_MS'] ?? 4_000);
const DISTINCT_BODIES = 256;

interface Case {
  readonly markets: number;
  readonly events: number;
  readonly tokensPerRequest: number;
}

const CASES: readonly Case[] = [
  { markets: 200, events: 50, tokensPerRequest: 20 },
  { markets: 5000, events: 50, tokensPerRequest: 20 },
  { markets: 200, events: 50, tokensPerRequest: 100 },
];

/** Client loop, plain JS run in a worker: keep-alive agent, `concurrency` requests in flight. */
const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, bodies, concurrency, warmupMs, measureMs } = workerData;
const target = new URL(url + '/books');
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
function post(body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => { bytes += chunk.length; });
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error('status ' + res.statusCode))));
    });
    req.on('error', reject);
    req.end(body);
  });
}
(async () => {
  const start = performance.now();
  const measureFrom = start + warmupMs;
  const until = measureFrom + measureMs;
  const latencies = [];
  let bytes = 0;
  let next = 0;
  let lastEnd = measureFrom;
  async function loop() {
    for (;;) {
      const t0 = performance.now();
      if (t0 >= until) return;
      const n = await post(bodies[next++ % bodies.length]);
      const t1 = performance.now();
      if (t0 >= measureFrom) { latencies.push(t1 - t0); bytes += n; lastEnd = Math.max(lastEnd, t1); }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  parentPort.postMessage({ latencies, bytes, elapsedMs: lastEnd - measureFrom });
})().catch((err) => { throw err; });
`;

interface ClientResult {
  latencies: number[];
  bytes: number;
  elapsedMs: number;
}

async function measure(c: Case): Promise<(string | number)[]> {
  const sandbox = await startSandbox({ markets: c.markets, events: c.events, seed: 1, limits: { enabled: false } });
  try {
    const tokens = sandbox.world.markets.filter((m) => !m.closed).flatMap((m) => m.tokens.map((t) => t.tokenId));
    const rng = Prng.from(1, 'bench', c.markets, c.tokensPerRequest);
    const bodies = Array.from({ length: DISTINCT_BODIES }, () =>
      JSON.stringify(Array.from({ length: c.tokensPerRequest }, () => ({ token_id: rng.pick(tokens) }))),
    );
    const result = await new Promise<ClientResult>((resolve, reject) => {
      const worker = new Worker(CLIENT, {
        eval: true,
        workerData: { url: sandbox.url, bodies, concurrency: CONCURRENCY, warmupMs: WARMUP_MS, measureMs: MEASURE_MS },
      });
      worker.once('message', (m: ClientResult) => resolve(m));
      worker.once('error', reject);
    });
    const sorted = [...result.latencies].sort((a, b) => a - b);
    const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
    const rps = (result.latencies.length / result.elapsedMs) * 1000;
    return [
      `${c.markets} markets`,
      c.tokensPerRequest,
      Math.round(rps),
      Math.round(rps * c.tokensPerRequest),
      Number(pct(50).toFixed(2)),
      Number(pct(99).toFixed(2)),
      Number(((result.bytes / result.elapsedMs) * 1000 / 1e6).toFixed(1)),
    ];
  } finally {
    await sandbox.close();
  }
}

export async function run(): Promise<BenchTable> {
  const rows: (string | number)[][] = [];
  for (const c of CASES) rows.push(await measure(c));
  return {
    title: `sandbox POST /books over loopback, ${CONCURRENCY} concurrent keep-alive clients`,
    columns: ['world', 'tokens/request', 'requests/s', 'books/s', 'p50 ms', 'p99 ms', 'MB/s out'],
    rows,
    notes: [
      `rate limits disabled (limits.enabled = false): part 8 allows 80 POST /books per 10 s per client, far below what is measured here`,
      `server on the main thread, clients in a worker thread (node:http keep-alive agent), same 2-core machine; no faults set`,
      `${WARMUP_MS} ms warm-up, then ${MEASURE_MS} ms measured; ${DISTINCT_BODIES} distinct bodies of random open-market tokens; latency is request start to last byte, client side`,
      `books are seeded ladders (3-10 levels a side); each book's JSON is built once and reused while it is unchanged; node ${process.version}`,
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await run());
}
