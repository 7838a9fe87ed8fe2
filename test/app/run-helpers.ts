import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { stringify } from 'yaml';
import { startRecorder } from '../../src/app/recorder.ts';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import { openBacktestData } from '../../src/backtest/data-file.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import type { TradingEngine } from '../../src/engine/trading-engine.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.ts';
import { baseConfig, TEST_PRIVATE_KEY, waitFor, type StrategySpec } from '../engine/e2e/harness.ts';

/** Waits (polling every 50 ms) until `check` holds; throws naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A sandbox on a free loopback port and a temp folder, both removed by `close`. */
export interface SandboxRig {
  readonly sandbox: RunningSandbox;
  readonly dir: string;
  /** POSTs JSON to an admin route; answers the parsed body, throwing on a non-200. */
  admin(path: string, body: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export async function sandboxRig(options: SandboxOptions, prefix: string): Promise<SandboxRig> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    sandbox,
    dir,
    async admin(path, body) {
      const res = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, unknown>;
    },
    async close() {
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A live run against the sandbox at `url` (the e2e harness's config with `data` and a store at
 * `dir/run.sqlite`) and a recorder beside it writing `dir/run.jsonl`, started first and holding a
 * book before the run starts: what a backtest of "that run's recording" (or store) replays.
 */
export async function recordedLiveRun(url: string, dir: string, strategies: readonly StrategySpec[], data: Record<string, unknown>, logger: Logger) {
  const config = baseConfig(url, dir, strategies);
  config['data'] = data;
  const storePath = join(dir, 'run.sqlite');
  config['store'] = { path: storePath };
  const path = join(dir, 'run.yaml');
  writeFileSync(path, stringify(config));
  const runConfig = loadConfig(path, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }, { cwd: dir });
  const recordingPath = join(dir, 'run.jsonl');
  const recorder = await startRecorder({ config: runConfig, out: recordingPath, logger, flushIntervalMs: 200 });
  await waitFor('the recorder to write a book', () => recorder.stats().byType.book > 0, 20_000);
  const session = await startRunSession({ config: runConfig, logger });
  return { config, session, recorder, recordingPath, storePath };
}

/**
 * The run's config as a backtest of `strategies` (balance 10,000, latency 50 ms) over `data` (a
 * recording or a run store): the engine it ended with.
 */
export async function backtestEngine(config: Record<string, unknown>, dir: string, strategies: readonly StrategySpec[], data: string): Promise<TradingEngine> {
  const btPath = join(dir, 'backtest.yaml');
  const { venue: _venue, account: _account, ...rest } = config;
  writeFileSync(btPath, stringify({ ...rest, mode: 'backtest', strategies: strategies.map((s) => ({ id: s.id, module: s.module, params: s.params ?? {} })), backtest: { balance: 10_000, latencyMs: 50 } }));
  let engine: TradingEngine | undefined;
  await runBacktest({ config: loadConfig(btPath, {}, { cwd: dir }), data: await openBacktestData(data), onStopped: (e) => (engine = e) });
  return engine!;
}
