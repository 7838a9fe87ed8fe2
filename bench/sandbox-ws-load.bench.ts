/**
 * A sandbox that WebSocket subscribers cannot stall (issue 28 point 6): `GET /book` and
 * `POST /heartbeats` latency while N market-channel connections, each subscribed to every asset
 * of the world, connect, take their snapshots and then follow the synthetic flow's deltas; N = 0
 * is the baseline. The prober opens its connections before the window and keeps them, as a
 * bot's HTTP client does: a connection opened during the connect burst would wait behind the
 * burst's 300 in the kernel's accept queue (Node 20's libuv accepts one connection per turn of the
 * event loop), which measures the accept queue, not the routes; the connections it still opens
 * within the window are counted ('prober connects'). Server on the bench's main thread; the prober in a worker thread and the
 * subscribers in a child process at the lowest CPU priority (SUBS_NICE), so neither waits on the
 * server's event loop and the subscribers' reading does not take the server's core (2 cores).
 *
 * `npm run bench -- sandbox-ws-load`. Rounds: CLOBOT_BENCH_ROUNDS (default 3). Each round runs
 * every case once, the baseline first; a case's ratio is taken against its own round's baseline
 * and given as the median with its range over rounds. Subscribers: CLOBOT_BENCH_WS_SUBSCRIBERS
 * (default "100,300"). Before and after in one run: CLOBOT_BENCH_WS_BEFORE names another tree's
 * `src/sandbox/server.ts` (e.g. main at an older commit, copied to /tmp); each round then runs
 * every case against that server too, rows marked `before:`, ratios against its own 'none'.
 */
import { pathToFileURL } from 'node:url';
import { spawn, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { LiveClock } from '../src/core/clock.ts';
import { Secret } from '../src/core/secret.ts';
import { startSandbox, type SandboxOptions } from '../src/sandbox/server.ts';
import { getOrCreateApiKey } from '../src/venue/actions/get-or-create-api-key.ts';
import { withL1Auth } from '../src/venue/auth/with-l1-auth.ts';
import { createVenueClient } from '../src/venue/client.ts';
import { privateKeyToAddress } from '../src/venue/signing/address.ts';
import type { BenchTable } from './table.ts';

const MARKETS = 200;
const ROUNDS = Number(process.env['CLOBOT_BENCH_ROUNDS'] ?? 3);
const SUBSCRIBERS = (process.env['CLOBOT_BENCH_WS_SUBSCRIBERS'] ?? '100,300').split(',').map(Number);
/** The prober's window (it starts with the subscribers' connects), and each request's own limit. */
const WINDOW_MS = Number(process.env['CLOBOT_BENCH_WS_WINDOW_MS'] ?? 8_000);
const REQUEST_TIMEOUT_MS = 10_000;
/** One `GET /book` and one `POST /heartbeats` every this many ms. */
const PROBE_EVERY_MS = 50;
/** Another tree's sandbox server module, measured in the same rounds (the "before" rows). */
const BEFORE = process.env['CLOBOT_BENCH_WS_BEFORE'];
/** CLOBOT_BENCH_WS_DETAIL=1: each case's four slowest requests of each kind, with when they started (ms after the subscribers were started), on stderr. */
const DETAIL = process.env['CLOBOT_BENCH_WS_DETAIL'] === '1';
const KEY = '0x2222222222222222222222222222222222222222222222222222222222222222';

/** N connections, each subscribing to every asset on open; counts what comes back (run in its own process: runChild). */
const SUBSCRIBERS_WORKER = `
const { WebSocket } = require('ws');
const { url, n, assets, windowMs } = JSON.parse(process.env.CLOBOT_BENCH_WS_SUBS);
const out = { opened: 0, snapshots: 0, messages: 0, bytes: 0, closes: {}, errors: 0, allSnapshotsMs: -1, lastSnapshotAt: -1 };
const sockets = [];
const t0 = performance.now();
const subscribe = JSON.stringify({ assets_ids: assets, type: 'market' });
for (let i = 0; i < n; i++) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let first = true;
  ws.on('open', () => { out.opened++; ws.send(subscribe); });
  ws.on('message', (data) => {
    out.messages++;
    out.bytes += data.length;
    if (first && data[0] === 0x5b) {
      first = false;
      out.lastSnapshotAt = performance.timeOrigin + performance.now();
      if (++out.snapshots === n) out.allSnapshotsMs = performance.now() - t0;
    }
  });
  ws.on('close', (code) => { out.closes[code] = (out.closes[code] || 0) + 1; });
  ws.on('error', () => { out.errors++; });
  sockets.push(ws);
}
setTimeout(() => {
  for (const ws of sockets) ws.terminate();
  process.send(out, () => process.exit(0));
}, windowMs + 500);
`;

/** GET /book and signed POST /heartbeats, one each every PROBE_EVERY_MS, for windowMs. */
const PROBER_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHmac } = require('node:crypto');
const { base, tokens, creds, windowMs, everyMs, timeoutMs } = workerData;
const WARM_PAIRS = 5;
const key = Buffer.from(creds.secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
const book = [], beat = [], bookAt = [], beatAt = [];
let bookLate = 0, beatLate = 0, bookFailed = 0, beatFailed = 0;
async function timed(url, init, into, at) {
  const t = performance.now();
  try {
    const r = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    await r.arrayBuffer();
    if (!r.ok) return 'failed';
    into.push(performance.now() - t);
    at.push(performance.timeOrigin + t);
    return 'ok';
  } catch (err) {
    return err && err.name === 'TimeoutError' ? 'late' : 'failed';
  }
}
function beatHeaders() {
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = createHmac('sha256', key).update(ts + 'POST' + '/heartbeats').digest('hex');
  return { SERVICE_ADDRESS: creds.address, SERVICE_API_KEY: creds.apiKey, SERVICE_PASSPHRASE: creds.passphrase, SERVICE_TIMESTAMP: ts, SERVICE_SIGNATURE: sig };
}
const connects = [];
require('node:diagnostics_channel').subscribe('undici:client:connected', () => connects.push(performance.now()));
(async () => {
  // warm: the pool holds the connections a bot keeps open (a request pair at a time, as below) before the window
  for (let i = 0; i < WARM_PAIRS; i++) {
    await Promise.all([timed(base + '/book?token_id=' + tokens[i % tokens.length], {}, [], []), timed(base + '/heartbeats', { method: 'POST', headers: beatHeaders() }, [], [])]);
  }
  const warmConnects = connects.length;
  parentPort.postMessage({ warm: true });
  await new Promise((r) => parentPort.once('message', r));
  const t0 = performance.now();
  const pending = [];
  for (let i = 0; performance.now() - t0 < windowMs; i++) {
    const token = tokens[i % tokens.length];
    pending.push(timed(base + '/book?token_id=' + token, {}, book, bookAt).then((s) => { if (s === 'late') bookLate++; else if (s === 'failed') bookFailed++; }));
    pending.push(timed(base + '/heartbeats', { method: 'POST', headers: beatHeaders() }, beat, beatAt).then((s) => { if (s === 'late') beatLate++; else if (s === 'failed') beatFailed++; }));
    await new Promise((r) => setTimeout(r, everyMs));
  }
  await Promise.all(pending);
  parentPort.postMessage({ book, beat, bookAt, beatAt, bookLate, beatLate, bookFailed, beatFailed, warmConnects, windowConnects: connects.length - warmConnects });
})();
`;

interface SubscriberResult {
  opened: number;
  snapshots: number;
  messages: number;
  bytes: number;
  closes: Record<string, number>;
  errors: number;
  allSnapshotsMs: number;
  /** When the last snapshot arrived (performance.timeOrigin + now, ms, comparable across threads; -1: none did). */
  lastSnapshotAt: number;
}
interface ProbeResult {
  book: number[];
  beat: number[];
  /** When each timed request started (performance.timeOrigin + now, ms), index for index. */
  bookAt: number[];
  beatAt: number[];
  bookLate: number;
  beatLate: number;
  bookFailed: number;
  beatFailed: number;
  /** Connections the prober opened before the window (kept in its pool) and within it (a request found every pooled connection busy). */
  warmConnects: number;
  windowConnects: number;
}
interface CaseResult {
  readonly label: string;
  /** '' for this tree's server, 'before: ' for CLOBOT_BENCH_WS_BEFORE's. */
  readonly tag: string;
  readonly subscribers: number;
  readonly probe: ProbeResult;
  readonly subs: SubscriberResult | undefined;
  /** The server thread's event-loop delay over the window, p99, ms (what the server itself held the loop for). */
  readonly loopP99: number;
}

interface Case {
  readonly label: string;
  readonly subscribers: number;
  /** Sandbox options of the case (the WS caps); main's code ignores what it does not know. */
  readonly options: Partial<SandboxOptions> & Record<string, unknown>;
}

/** Caps lifted, so every subscriber connects and the fan-out itself is measured. */
const NO_CAPS = { ws: { maxConnectionsPerCaller: 10_000, maxSubscriptionsPerCaller: 10_000_000 } };

const CASES: readonly Case[] = [
  { label: 'none', subscribers: 0, options: {} },
  ...SUBSCRIBERS.map((n) => ({ label: `${n} x all assets`, subscribers: n, options: NO_CAPS })),
  { label: `${Math.max(...SUBSCRIBERS)} x all assets, default caps`, subscribers: Math.max(...SUBSCRIBERS), options: {} },
];

/** The prober: `warm` once its connections are open (it then waits for 'go'), `done` with its report. */
function runProber(workerData: unknown): { warm: Promise<void>; done: Promise<ProbeResult>; worker: Worker } {
  const worker = new Worker(PROBER_WORKER, { eval: true, workerData });
  let warmed: () => void = () => undefined;
  const warm = new Promise<void>((resolve) => (warmed = resolve));
  const done = new Promise<ProbeResult>((resolve, reject) => {
    worker.on('message', (m: ProbeResult | { warm: true }) => ('warm' in m ? warmed() : resolve(m)));
    worker.once('error', reject);
  });
  return { warm, done, worker };
}

/**
 * The subscribers' process: its own process (not a thread of the server's), at the lowest CPU
 * priority unless CLOBOT_BENCH_WS_SUBS_NICE says otherwise. On this 2-core machine the 300
 * clients reading 79 MB of snapshots are a third busy thread beside the server and the prober;
 * at the same priority the kernel takes the server's core away for them, and the bench measures
 * the machine's scheduler rather than the server. Subscribers on other machines (as a venue's
 * are) never take its CPU; nice 19 is the nearest this machine gets to that.
 */
const SUBS_NICE = Number(process.env['CLOBOT_BENCH_WS_SUBS_NICE'] ?? 19);

function runChild<T>(source: string, data: unknown): { done: Promise<T>; child: ChildProcess } {
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, CLOBOT_BENCH_WS_SUBS: JSON.stringify(data) } });
  if (child.pid !== undefined && SUBS_NICE !== 0) setPriority(child.pid, SUBS_NICE);
  const done = new Promise<T>((resolve, reject) => {
    child.once('message', (m) => resolve(m as T));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the subscribers' process exited with code ${String(code)} before its report`)));
  });
  return { done, child };
}

type StartSandbox = typeof startSandbox;
interface Server {
  readonly tag: string;
  readonly start: StartSandbox;
}

async function servers(): Promise<Server[]> {
  const list: Server[] = [{ tag: '', start: startSandbox }];
  if (BEFORE !== undefined && BEFORE !== '') {
    const mod = (await import(pathToFileURL(BEFORE).href)) as { startSandbox: StartSandbox };
    list.push({ tag: 'before: ', start: mod.startSandbox });
  }
  return list;
}

async function measure(server: Server, c: Case): Promise<CaseResult> {
  const sandbox = await server.start({ seed: 1, markets: MARKETS, events: 50, limits: { enabled: false }, ...c.options });
  try {
    const privateKey = new Secret(KEY);
    const address = privateKeyToAddress(Buffer.from(KEY.slice(2), 'hex'));
    const venue = createVenueClient({ baseUrl: sandbox.url, clock: new LiveClock(), limits: { enabled: false } });
    const credentials = await getOrCreateApiKey(withL1Auth(venue, { privateKey }), { privateKey });
    const tokens = sandbox.world.markets.flatMap((m) => m.tokens.map((t) => t.tokenId));
    // warm-up: the routes compiled and every book seeded before anything is timed
    for (const token of tokens) await (await fetch(`${sandbox.url}/book?token_id=${token}`)).arrayBuffer();
    const wsUrl = `${sandbox.url.replace(/^http/, 'ws')}/ws/market`;
    // every case starts from a collected heap: the sandboxes of the cases before it (a world of
    // tens of MB each) are garbage, and without this the case that happens to come next pays
    // their major collection, in the middle of its window
    collectGarbage();
    collectGarbage();
    const probe = runProber({
      base: sandbox.url,
      tokens,
      creds: { address, apiKey: credentials.apiKey, secret: credentials.secret.reveal(), passphrase: credentials.passphrase.reveal() },
      windowMs: WINDOW_MS,
      everyMs: PROBE_EVERY_MS,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    await probe.warm;
    const subs =
      c.subscribers > 0 ? runChild<SubscriberResult>(SUBSCRIBERS_WORKER, { url: wsUrl, n: c.subscribers, assets: tokens, windowMs: WINDOW_MS }) : undefined;
    probe.worker.postMessage('go');
    const goAt = performance.timeOrigin + performance.now();
    const gcs: string[] = [];
    const stalls: string[] = [];
    let gcObserver: PerformanceObserver | undefined;
    let stallTimer: NodeJS.Timeout | undefined;
    if (DETAIL) {
      gcObserver = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) if (e.duration > 3) gcs.push(`${(e as unknown as { detail?: { kind?: number } }).detail?.kind ?? "?"}:${e.duration.toFixed(1)}ms@${(performance.timeOrigin + e.startTime - goAt).toFixed(0)}`);
      });
      gcObserver.observe({ entryTypes: ['gc'] });
      let last = performance.now();
      stallTimer = setInterval(() => {
        const now = performance.now();
        if (now - last > 8) stalls.push(`${(now - last).toFixed(0)}ms@${(performance.timeOrigin + last - goAt).toFixed(0)}`);
        last = now;
      }, 1);
    }
    const loop = monitorEventLoopDelay({ resolution: 2 });
    loop.enable();
    const [probeResult, subsResult] = await Promise.all([probe.done, subs?.done]);
    loop.disable();
    await probe.worker.terminate();
    subs?.child.kill();
    if (DETAIL) {
      const worst = (lat: number[], at: number[]): string =>
        lat.map((l, i) => [l, (at[i] ?? 0) - goAt]).sort((a, b) => (b[0] as number) - (a[0] as number)).slice(0, 4).map(([l, t]) => `${(l as number).toFixed(1)}ms@${(t as number).toFixed(0)}`).join(' ');
      const lastSnap = subsResult !== undefined && subsResult.lastSnapshotAt > 0 ? (subsResult.lastSnapshotAt - goAt).toFixed(0) : '-';
      gcObserver?.disconnect();
      clearInterval(stallTimer);
      console.error(`${server.tag}${c.label}: book ${worst(probeResult.book, probeResult.bookAt)} | beat ${worst(probeResult.beat, probeResult.beatAt)} | last snapshot @${lastSnap} | gc>3ms ${gcs.join(' ')} | loop stalls>8ms ${stalls.join(' ')}`);
    }
    return { label: c.label, tag: server.tag, subscribers: c.subscribers, probe: probeResult, subs: subsResult, loopP99: loop.percentile(99) / 1e6 };
  } finally {
    await sandbox.close();
  }
}

/** A full garbage collection of this process's heap (V8's `gc`, exposed at run time). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function pct(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
function median(values: readonly number[]): number {
  return pct(values, 50);
}
const round1 = (n: number): number => (Number.isFinite(n) ? Number(n.toFixed(n >= 100 ? 0 : 1)) : NaN);
function medRange(values: readonly number[]): string {
  const finite = values.filter(Number.isFinite);
  if (finite.length < values.length) return `${values.length - finite.length}/${values.length} no answer`;
  return `${round1(median(finite))} (${round1(Math.min(...finite))}-${round1(Math.max(...finite))})`;
}

/** Latencies of the requests that started after the last snapshot arrived (the whole window without subscribers). */
function afterSnapshots(latencies: readonly number[], startedAt: readonly number[], subs: SubscriberResult | undefined): number[] {
  if (subs === undefined) return [...latencies];
  if (subs.lastSnapshotAt < 0) return [];
  return latencies.filter((_, i) => (startedAt[i] ?? 0) >= subs.lastSnapshotAt);
}

export async function run(): Promise<BenchTable> {
  const list = await servers();
  const perCase = new Map<string, CaseResult[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of list) {
      for (const c of CASES) {
        const r = await measure(server, c);
        const key = server.tag + c.label;
        perCase.set(key, [...(perCase.get(key) ?? []), r]);
      }
    }
  }
  const rows: (string | number)[][] = [];
  for (const server of list) {
    const base = perCase.get(`${server.tag}none`) ?? [];
    for (const c of CASES) {
      const results = perCase.get(server.tag + c.label) ?? [];
      // the 'none' case has no subscribers, so its "after snapshots" p99 is its whole window's
      const ratio = (get: (r: CaseResult) => number): string => medRange(results.map((r, i) => get(r) / Math.max(0.01, get(base[i] as CaseResult))));
      const bookAll = (r: CaseResult): number => pct(r.probe.book, 99);
      const beatAll = (r: CaseResult): number => pct(r.probe.beat, 99);
      const bookSteady = (r: CaseResult): number => pct(afterSnapshots(r.probe.book, r.probe.bookAt, r.subs), 99);
      const beatSteady = (r: CaseResult): number => pct(afterSnapshots(r.probe.beat, r.probe.beatAt, r.subs), 99);
      const late = results.reduce((s, r) => s + r.probe.bookLate + r.probe.beatLate + r.probe.bookFailed + r.probe.beatFailed, 0);
      const subs = results.map((r) => r.subs).filter((s): s is SubscriberResult => s !== undefined);
      const closes = new Map<string, number>();
      for (const s of subs) for (const [code, n] of Object.entries(s.closes)) closes.set(code, (closes.get(code) ?? 0) + n);
      rows.push([
        server.tag + c.label,
        medRange(results.map((r) => pct(r.probe.book, 50))),
        medRange(results.map(bookAll)),
        ratio(bookAll),
        medRange(results.map(bookSteady)),
        ratio(bookSteady),
        medRange(results.map((r) => pct(r.probe.beat, 50))),
        medRange(results.map(beatAll)),
        ratio(beatAll),
        medRange(results.map(beatSteady)),
        ratio(beatSteady),
        medRange(results.map((r) => r.loopP99)),
        late,
        medRange(results.map((r) => r.probe.windowConnects)),
        subs.length === 0 ? '-' : medRange(subs.map((s) => s.snapshots)),
        subs.length === 0 ? '-' : medRange(subs.map((s) => (s.allSnapshotsMs < 0 ? NaN : s.allSnapshotsMs))),
        closes.size === 0 ? '-' : [...closes].map(([code, n]) => `${code}:${n}`).join(' '),
      ]);
    }
  }
  return {
    title: `sandbox GET /book and POST /heartbeats latency (ms) with WS subscribers on all ${MARKETS * 2} assets, ${ROUNDS} rounds`,
    columns: [
      'subscribers',
      'book p50',
      'book p99',
      'book p99 / none',
      'book p99 after snaps',
      'after snaps / none',
      'beat p50',
      'beat p99',
      'beat p99 / none',
      'beat p99 after snaps',
      'after snaps / none',
      'server loop delay p99',
      'late or failed',
      'prober connects',
      'snapshots got',
      'all snapshots ms',
      'closes (code:n)',
    ],
    rows,
    notes: [
      `cells: median (min-max) over rounds; a ratio is taken against the same round's 'none' case of the same server (its whole-window p99)`,
      `'after snaps': only the requests that started after the last snapshot arrived (the subscribers following the flow's deltas, the connect burst over); 'none' rows: the whole window`,
      ...(BEFORE !== undefined && BEFORE !== '' ? [`'before:' rows: the sandbox of ${BEFORE}, measured in the same rounds, each round's cases after this tree's`] : []),
      `before each case's window the bench's heap is collected in full (the sandboxes of the cases before it are garbage, which the next case would otherwise pay for in its window)`,
      `server on the main thread, prober in a worker thread, subscribers in a child process at nice ${SUBS_NICE} (CLOBOT_BENCH_WS_SUBS_NICE; 0: the same priority as the server); synthetic flow on (intensity 1), rate limits off`,
      `prober: one GET /book (a random asset) and one L2-signed POST /heartbeats every ${PROBE_EVERY_MS} ms for ${WINDOW_MS} ms from the subscribers' first connect; a request unanswered after ${REQUEST_TIMEOUT_MS} ms counts as late`,
      `the prober opens its connections before the window (a bot keeps its HTTP connections open); 'prober connects': connections it opened within the window, each when a request found every pooled connection busy (a new connection waits in the kernel's accept queue behind a connect burst: libuv accepts one connection per turn of the event loop)`,
      `'server loop delay p99': the server thread's event-loop delay over the window (perf_hooks.monitorEventLoopDelay, 2 ms resolution), ms`,
      `'all snapshots ms': from the first connect until every connection has its snapshot (no answer: some never got one in the window); closes: WS close codes seen by the subscribers (1006: dropped by the server without a close frame)`,
      `the rows with N subscribers lift the per-caller caps (every subscriber is on 127.0.0.1, one caller); the 'default caps' row keeps them`,
    ],
  };
}
