import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatMicros, parseMicros } from '../../src/core/fixed.ts';
import type { FaultSettings } from '../../src/sandbox/faults.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { privateKeyToAddress } from '../../src/venue/signing/address.ts';

/**
 * The crash loop, shared by its three soak files (one per fault setting, so the three run side
 * by side in their own processes). Crash safety end to end: `clobot run` against an external sandbox is killed with SIGKILL at
 * random moments, 20 times (half while trading, half while starting), each time restarted
 * from its SQLite store. Afterwards the venue has never seen a client order id twice, the
 * positions the store holds equal the venue's, every stored order's filled size is backed by
 * its stored fills (and its void ones) and nothing rests at the venue after the last, clean stop.
 * Once without faults, once with error rate, drops and stalls on in every life (issue 14's fault
 * loop), once with trades settling on chain (some RETRYING, some FAILED and reversed at the venue)
 * and every marketable order DELAYED (issue 13).
 */
const KEY = '0x' + '5c'.repeat(32);
const ADDRESS = privateKeyToAddress(Buffer.from(KEY.slice(2), 'hex'));
const KILLS = 20;

let sandbox: RunningSandbox;
let dir: string;
let config: string;

/** A sandbox (with these faults from the start), a temp folder and the run's config. */
async function setup(faults: Partial<FaultSettings>): Promise<void> {
  sandbox = await startSandbox({ port: 0, seed: 11, markets: 12, events: 4, flow: { enabled: true, intensity: 6 }, heartbeatTimeoutMs: 3_000, faults });
  dir = mkdtempSync(join(tmpdir(), 'clobot-crash-'));
  config = join(dir, 'crash.yaml');
  writeFileSync(
    config,
    [
      'mode: live',
      'venue:',
      `  baseUrl: ${sandbox.url}`,
      '  timeoutMs: 3000',
      'data:',
      '  pollIntervalMs: 300',
      '  staleAfterMs: 5000',
      '  markets:',
      '    filter: { active: true, acceptingOrders: true, maxCount: 3 }',
      'strategies:',
      '  - id: mm',
      '    module: strategies/market-maker.ts',
      '    params: { size: 5, improveTicks: 1, minSpreadTicks: 1, maxInventory: 50 }',
      'risk:',
      '  staleBookMs: 5000',
      '  maxOrdersPerSecond: 50',
      'execution:',
      '  maxBatchWaitMs: 20',
      '  heartbeatIntervalMs: 1000',
      'logging:',
      '  level: info',
      `  file: ${join(dir, 'run.log')}`,
      '',
    ].join('\n'),
  );
}

/**
 * The fault loop of issue 14: order posts and every other call fail (500), lose their connection
 * (before or after the venue took the orders) and stall, in every life including the last.
 */
export const FAULTS: Partial<FaultSettings> = { errorRate: 0.1, dropRate: 0.03, dropAfterAccept: 0.1, stallMs: 300 };

/** Issue 13: trades settle over seconds, a quarter retried and a quarter FAILED; every marketable order is held a second. */
export const SETTLEMENT: Partial<FaultSettings> = { settlementMinedMs: 500, settlementConfirmedMs: 1_500, settlementRetryRate: 0.25, settlementFailRate: 0.25, matchingDelayMs: 1_000 };

/** Runs one clean life: started, trading for `tradeMs`, stopped by SIGINT; returns its exit code and stderr. */
async function cleanLife(store: string, tradeMs: number): Promise<{ code: number; stderr: string }> {
  const before = started();
  const last = startRun(store);
  let stderr = '';
  last.stderr!.setEncoding('utf8');
  last.stderr!.on('data', (c: string) => (stderr += c));
  await untilStarted(last, before, 60_000);
  await new Promise((r) => setTimeout(r, tradeMs));
  last.kill('SIGINT');
  const exited = once(last, 'exit') as Promise<[number]>;
  const stuck = new Promise<'stuck'>((r) => setTimeout(() => r('stuck'), 90_000));
  const outcome = await Promise.race([exited, stuck]);
  if (outcome === 'stuck') {
    last.kill('SIGKILL');
    throw new Error(`the last run did not stop within 90 s of SIGINT; stderr: ${stderr}`);
  }
  return { code: outcome[0], stderr };
}

function startRun(store: string): ChildProcess {
  return spawn(process.execPath, ['bin/clobot.mjs', 'run', config, '--store', store, '--no-status', '--summary', join(dir, 'summary.json')], {
    env: { ...process.env, CLOBOT_PRIVATE_KEY: KEY },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** A deterministic spread of kill moments, so a failure can be replayed. */
function killDelays(n: number, seed = 7): number[] {
  let x = seed;
  return Array.from({ length: n }, () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x;
  });
}

/** How many lives logged "run started" (the engine runs: market data, orders, fills, heartbeats). */
function started(): number {
  const log = join(dir, 'run.log');
  return existsSync(log) ? readFileSync(log, 'utf8').split('"msg":"run started"').length - 1 : 0;
}

/**
 * Waits until the life started after `before` lives runs, or it exits, or `timeoutMs` passes.
 * Starting takes seconds on a loaded machine: a kill counted from the spawn would mostly hit
 * lives that never traded.
 */
async function untilStarted(child: ChildProcess, before: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (started() <= before && child.exitCode === null && child.signalCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

/** Defines the crash loop's test with these faults on the sandbox from the start. */
export function crashLoop(name: string, faults: Partial<FaultSettings>): void {
  describe('crash loop: SIGKILL and restart from the store', () => {
    afterEach(async () => {
      await sandbox?.close();
    });

    it(`never sends a client order id twice, leaves nothing live and ends with the venue's positions (${KILLS} kills, ${name})`, async () => {
      await setup(faults);
      const store = join(dir, 'state.sqlite');
      for (const [i, x] of killDelays(KILLS).entries()) {
        const before = started();
        const child = startRun(store);
        // every other life dies while starting (restoring, reconciling), the others while trading
        if (i % 2 === 1) await new Promise((r) => setTimeout(r, 1_200 + (x % 2_300)));
        else {
          await untilStarted(child, before, 30_000);
          await new Promise((r) => setTimeout(r, 200 + (x % 2_300)));
        }
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
      // a last, clean life: it reconciles what the kills left, trades a little, and stops on SIGINT
      const last = await cleanLife(store, 6_000);
      expect(last.code, last.stderr).toBe(0);
      if ('settlementFailRate' in faults) {
        // trades of the last seconds settle after the stop: once the venue has settled them all
        // (new ones at once from now on), one more short life learns their end from the venue
        sandbox.faults.set({ settlementMinedMs: 0, settlementConfirmedMs: 0, settlementRetryRate: 0, settlementFailRate: 0, matchingDelayMs: null });
        const deadline = Date.now() + 30_000;
        while (sandbox.engine.settlingTrades > 0 && Date.now() < deadline) {
          sandbox.engine.expire(Date.now());
          await new Promise((r) => setTimeout(r, 200));
        }
        const settled = await cleanLife(store, 2_000);
        expect(settled.code, settled.stderr).toBe(0);
      }
      // the checks below read the venue without faults
      sandbox.faults.reset();
      expect(started(), 'lives that got to trade').toBeGreaterThan(KILLS / 2);

      // 1. no client order id reached the venue twice
      const orders = (await (await fetch(`${sandbox.url}/admin/orders?maker=${ADDRESS}`)).json()) as { clientOrderId: string | null; status: string }[];
      const ids = orders.map((o) => o.clientOrderId).filter((id): id is string => id !== null);
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
      // and nothing of ours rests (or waits for a matching delay) at the venue after the clean stop
      expect(orders.filter((o) => o.status === 'LIVE' || o.status === 'DELAYED')).toEqual([]);

      // 2. our positions (from the fills in the store) equal the venue's balances
      const venue = (await (await fetch(`${sandbox.url}/admin/balances?address=${ADDRESS}`)).json()) as { tokens: { tokenId: string; balance: string; reserved: string }[] };
      const venuePositions = new Map(venue.tokens.map((t) => [t.tokenId, parseMicros(t.balance) + parseMicros(t.reserved)]));
      const s = RunStore.open(store);
      const state = s.load();
      s.close();
      const ours = new Map(state.positions.filter((p) => p.size !== 0).map((p) => [p.tokenId, p.size]));
      const show = (m: Map<string, number>) => Object.fromEntries([...m].filter(([, v]) => v !== 0).map(([k, v]) => [k.slice(0, 12), formatMicros(v)]));
      expect(show(ours)).toEqual(show(venuePositions));
      expect(state.fills.length).toBeGreaterThan(0);

      // 3. every stored order's filled size is the sum of its stored fills, void ones included (a
      // restart that took the venue's matched size without fetching the fills behind it breaks this first)
      const booked = new Map<string, number>();
      const reader = StoreReader.open(store);
      const voided = reader.snapshot().voidedFills;
      reader.close();
      for (const f of [...state.fills, ...voided]) booked.set(f.orderId, (booked.get(f.orderId) ?? 0) + f.size);
      if ('settlementFailRate' in faults) expect(voided.length, 'fills voided').toBeGreaterThan(0);
      const unbacked = state.orders.filter((o) => o.orderId !== undefined && o.filled !== (booked.get(o.orderId) ?? 0));
      expect(unbacked.map((o) => ({ id: o.request.clientOrderId, status: o.status, filled: formatMicros(o.filled), fills: formatMicros(booked.get(o.orderId!) ?? 0) }))).toEqual([]);
    }, 480_000);
  });
}
