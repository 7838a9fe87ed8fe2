/**
 * One live run for `bench/live-heap.bench.ts`: a sandbox venue in a child process (so its heap is
 * not counted; its log lines, on stderr, give its address), and in this process a live run of the README's market maker plus a quoter that
 * replaces one order per token every 300 ms (thousands of orders a minute). Every `sampleMs` it
 * collects garbage and prints `{"at", "heapMb", "orders", "fills"}`; argv: retention ms, seconds.
 * Run with `node --expose-gc bin/run-ts.mjs bench/children/live-heap-run.ts <retentionMs> <seconds>`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { stringify } from 'yaml';
import { startRunSession } from '../../src/app/run-session.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';

const KEY = '0x' + '1b'.repeat(32);
const retentionMs = Number(process.argv[2]);
const seconds = Number(process.argv[3]);
const sampleMs = 10_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const sandbox = spawn(process.execPath, ['bin/clobot.mjs', 'sandbox', '--port', '0', '--markets', '40', '--flow-intensity', '4'], { stdio: ['ignore', 'ignore', 'pipe'] });
const url = await new Promise<string>((ok, fail) => {
  sandbox.once('exit', (code) => fail(new Error(`sandbox exited ${code}`)));
  createInterface({ input: sandbox.stderr }).on('line', (line) => {
    const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(line);
    if (m) ok(m[1]!);
  });
});
const dir = mkdtempSync(join(tmpdir(), 'clobot-bench-heap-'));
try {
  const doc = {
    mode: 'live',
    venue: { baseUrl: url, timeoutMs: 5000, retries: 2 },
    account: { signatureType: 0 },
    data: { transport: 'ws', staleAfterMs: 5000, markets: { filter: { active: true, acceptingOrders: true, maxCount: 10 } } },
    strategies: [
      { id: 'mm', module: resolve('strategies/market-maker.ts'), params: { size: 10, improveTicks: 1, minSpreadTicks: 1, maxInventory: 100 } },
      { id: 'churn', module: resolve('test/engine/e2e/strategies/churn-quoter.ts'), params: {} },
    ],
    risk: { maxOrderNotional: 50, maxPositionPerToken: 200, maxPositionPerMarket: 200, maxGrossExposure: 5000, maxOpenOrders: 100, maxOrdersPerSecond: 50, dailyLossLimit: 1000, maxConsecutiveRejects: 10000, haltFile: join(dir, 'HALT') },
    execution: { heartbeatIntervalMs: 1000, closedOrderRetentionMs: retentionMs },
    store: { path: join(dir, 'state.sqlite') },
    logging: { level: 'silent' },
  };
  writeFileSync(join(dir, 'run.yaml'), stringify(doc));
  const config = loadConfig(join(dir, 'run.yaml'), { CLOBOT_PRIVATE_KEY: KEY }, { cwd: dir });
  let fills = 0;
  const session = await startRunSession({ config, logger: createLogger({ level: 'silent' }), onEvent: (e) => void (e.type === 'fill' && fills++) });
  const t0 = Date.now();
  for (let at = 0; at <= seconds * 1000; at += sampleMs) {
    if (at > 0) await new Promise((r) => setTimeout(r, t0 + at - Date.now()));
    gc();
    const heapMb = process.memoryUsage().heapUsed / 2 ** 20;
    console.log(JSON.stringify({ at: Date.now() - t0, heapMb, orders: session.engine.summary().ordersSubmitted, fills }));
  }
  await session.stop();
} finally {
  sandbox.kill('SIGINT');
  rmSync(dir, { recursive: true, force: true });
}
// the run's stop leaves nothing that must finish: do not wait for idle sockets of the sandbox child
process.exit(0);
