import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseMicros } from '../../../src/core/fixed.ts';
import type { EngineSummary } from '../../../src/engine/engine-summary.ts';
import { ERR_POST_ONLY_CROSSES } from '../../../src/sim/venue-messages.ts';
import { expectNoDuplicates, REPO_ROOT, startE2E, waitFor, type AdminOrder, type E2E } from './harness.ts';

/**
 * Issue 4, scenario 1: config/default.yaml (what `npm start` runs) trades. In-process: its market
 * maker against a sandbox on loopback with the same world (seed 1, 20 markets, 6 events) and
 * busier flow (intensity 4 rather than 2, so a fill comes sooner): orders accepted, a fill,
 * no 429, healthy heartbeats, fills matching the venue's, a complete summary. As a process:
 * `clobot run config/default.yaml --duration 15s --summary <file>` exits 0 and writes it.
 */

const DEFAULT_CONFIG = resolve(REPO_ROOT, 'config/default.yaml');
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** Checks every field of the summary is there with its type. */
function expectSummaryShape(s: EngineSummary): void {
  const counts = ['ordersSubmitted', 'ordersAccepted', 'ordersRejected', 'ordersDeniedTotal', 'ordersCanceled', 'ordersSubmitUnknown', 'ordersResubmitted', 'batches', 'fills', 'openOrders', 'http429', 'faults'] as const;
  for (const key of counts) {
    expect(Number.isInteger(s[key]), `${key} is a count`).toBe(true);
    expect(s[key]).toBeGreaterThanOrEqual(0);
  }
  expect(typeof s.ordersDenied).toBe('object');
  for (const n of Object.values(s.ordersDenied)) expect(Number.isInteger(n)).toBe(true);
  for (const key of ['sent', 'acknowledged', 'missed', 'lost'] as const) expect(Number.isInteger(s.heartbeats[key]), `heartbeats.${key}`).toBe(true);
  for (const key of ['found', 'missing', 'orphansCancelled'] as const) expect(Number.isInteger(s.reconciled[key]), `reconciled.${key}`).toBe(true);
  for (const key of ['cash', 'reserved', 'free', 'positionValue', 'equity', 'realized', 'unrealized', 'fees'] as const) expect(s.account[key], `account.${key}`).toMatch(DECIMAL);
  expect(s.turnover).toMatch(DECIMAL);
}

/** Rejections of the default strategy are races with the flow (a post-only quote the book moved onto), nothing else. */
function expectOnlyRaceRejections(venue: readonly AdminOrder[]): void {
  expect(venue.filter((o) => !o.accepted && o.errorMsg !== ERR_POST_ONLY_CROSSES).map((o) => o.errorMsg)).toEqual([]);
}

interface ProcessResult {
  code: number | null;
  stderr: string;
  dir: string;
}

/** `clobot run config/default.yaml` as a child process, started at once so it runs beside the in-process test. */
function runCli(): Promise<ProcessResult> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-e2e-cli-'));
  const env: Record<string, string> = {};
  // no key in the environment: against the embedded sandbox the config derives a throwaway one
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CLOBOT_')) env[k] = v;
  const child = spawn(process.execPath, [resolve(REPO_ROOT, 'bin/clobot.mjs'), 'run', DEFAULT_CONFIG, '--duration', '15s', '--summary', join(dir, 'summary.json'), '--no-status'], {
    cwd: dir, // the config's relative log and halt-file paths land here
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 75_000);
  return new Promise((done) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      done({ code, stderr, dir });
    });
  });
}

let cli: Promise<ProcessResult>;
beforeAll(() => {
  cli = runCli();
});
afterAll(async () => {
  const r = await cli;
  rmSync(r.dir, { recursive: true, force: true });
});

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

describe('e2e: the default strategy', () => {
  it('trades against the sandbox: orders accepted, fills, no 429, healthy heartbeats, a complete summary', async () => {
    run = await startE2E({ configFile: DEFAULT_CONFIG });
    const e = run;
    const engine = e.session.engine;
    expect(e.session.markets.length).toBe(5);

    await waitFor('an order accepted', () => e.summary().ordersAccepted > 0, 20_000);
    await waitFor('a fill', () => e.summary().fills > 0, 40_000);
    await waitFor('an acknowledged heartbeat', () => engine.heartbeat?.health === 'healthy' && e.summary().heartbeats.acknowledged > 0, 15_000);

    // our fills agree with the venue's matched sizes, order by order
    let diff: string[] = [];
    await waitFor(
      'engine fills to match the venue',
      async () => {
        const venue = await e.adminOrders();
        diff = venue.flatMap((o) => {
          const record = engine.tracker.byOrderId(o.hash!);
          const filled = record?.filled ?? 0;
          return filled === parseMicros(o.sizeMatched) ? [] : [`${o.clientOrderId}: engine ${filled}, venue ${o.sizeMatched}`];
        });
        return diff.length === 0;
      },
      10_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}: ${diff.join('; ')}`);
    });
    const fills = e.events.flatMap((ev) => (ev.type === 'fill' ? [ev.fill] : []));
    expect(fills.length).toBeGreaterThan(0);
    const venueBefore = await e.adminOrders();
    for (const f of fills) {
      const at = venueBefore.find((o) => o.hash === f.orderId);
      expect(at, `fill ${f.tradeId} is of an order the venue has`).toBeDefined();
      expect(at!.clientOrderId).toBe(f.clientOrderId);
    }

    const summary = await e.stop();
    expectSummaryShape(summary);
    expect(summary.ordersAccepted).toBeGreaterThan(0);
    expect(summary.fills).toBeGreaterThan(0);
    expect(summary.http429).toBe(0);
    expect(summary.ordersSubmitUnknown).toBe(0);
    expect(summary.heartbeats.acknowledged).toBeGreaterThan(0);
    expect(summary.heartbeats.lost).toBe(0);
    expect(summary.strategies).toEqual({ mm: 'STOPPED' });
    expect(summary.faults).toBe(0);
    expect(summary.openOrders).toBe(0);

    const stats = await e.adminStats();
    expect(stats.statuses['429'] ?? 0).toBe(0);
    expect(stats.routes['postOrders']).toBeGreaterThan(0);
    expect(stats.routes['postHeartbeatV1']).toBeGreaterThanOrEqual(summary.heartbeats.acknowledged);
    expect(stats.routes['postHeartbeatV1']).toBeLessThanOrEqual(summary.heartbeats.sent);

    const venue = await e.adminOrders();
    expectNoDuplicates(venue);
    // every order counted as submitted reached the venue; each was taken or refused there
    expect(venue.length).toBe(summary.ordersSubmitted);
    expect(summary.ordersAccepted + summary.ordersRejected).toBe(summary.ordersSubmitted);
    expect(venue.filter((o) => !o.accepted).length).toBe(summary.ordersRejected);
    expectOnlyRaceRejections(venue);
    // cancelOnStop: nothing of ours rests at the venue
    expect(venue.filter((o) => o.status === 'LIVE')).toEqual([]);
  }, 60_000);

  it('runs as a process: `clobot run config/default.yaml --duration 15s --summary` exits 0 and writes the summary', async () => {
    const result = await cli;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/stopped: \d+ orders submitted, \d+ accepted, \d+ fills/);
    const summary = JSON.parse(readFileSync(join(result.dir, 'summary.json'), 'utf8')) as EngineSummary;
    expectSummaryShape(summary);
    expect(summary.ordersAccepted).toBeGreaterThan(0);
    expect(summary.http429).toBe(0);
    expect(summary.heartbeats.acknowledged).toBeGreaterThan(0);
    expect(summary.heartbeats.lost).toBe(0);
    expect(summary.strategies).toEqual({ mm: 'STOPPED' });
    expect(summary.openOrders).toBe(0);
    // the config's relative log path resolved against the working directory
    const log = readFileSync(join(result.dir, '.clobot/logs/run.log'), 'utf8');
    expect(log).toContain('run started');
    // each refusal is a log line with its reason: the venue's rejections and risk's denials
    const lines = log.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const rejected = lines.filter((l) => l['msg'] === 'order rejected');
    expect(rejected).toHaveLength(summary.ordersRejected);
    for (const l of rejected) expect(l).toMatchObject({ level: 40, strategy: 'mm', reason: expect.any(String) as unknown });
    expect(lines.filter((l) => l['msg'] === 'order denied by risk')).toHaveLength(summary.ordersDeniedTotal);
  }, 80_000);
});
