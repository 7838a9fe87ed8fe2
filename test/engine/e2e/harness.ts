import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadConfig } from '../../../src/config/load-config.ts';
import { createLogger } from '../../../src/core/log.ts';
import type { EngineSummary } from '../../../src/engine/engine-summary.ts';
import { startRunSession, type RunSession } from '../../../src/engine/run-session.ts';
import type { EngineEvent } from '../../../src/engine/trading-engine.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/server.ts';
import type { FaultSettings } from '../../../src/sandbox/faults.ts';

/**
 * End-to-end harness: a sandbox on loopback (started here, so a test can turn its fault knobs),
 * a run config written as a temp YAML file pointing `venue.baseUrl` at it, loaded by
 * `loadConfig` with a throwaway key, and a live run session (`startRunSession`) against it.
 * Every engine event is kept in `events` for the assertions.
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MARKET_MAKER = resolve(REPO_ROOT, 'strategies/market-maker.ts');
/** A throwaway key used nowhere else: 0x + 64 hex, inside the secp256k1 range. */
export const TEST_PRIVATE_KEY = '0x' + '1b'.repeat(32);

export interface StrategySpec {
  readonly id: string;
  readonly module: string;
  readonly params?: Record<string, unknown>;
  /** The strategy's own market selection (else the config's `data.markets`). */
  readonly markets?: Record<string, unknown>;
}

export interface E2EOptions {
  readonly sandbox?: SandboxOptions;
  readonly strategies?: readonly StrategySpec[];
  /** Merged over the base config's sections (one level deep). */
  readonly config?: Record<string, Record<string, unknown>>;
}

/** The market maker of config/default.yaml with its default parameters. */
/** Test strategy: one deep bid per token moved on every 300 ms timer tick (order posts on demand). */
export const CHURN = resolve(REPO_ROOT, 'test/engine/e2e/strategies/churn-quoter.ts');
/** Test strategy: one order on its first book, then throws in every onBook. */
export const THROWER = resolve(REPO_ROOT, 'test/engine/e2e/strategies/throw-after-first-book.ts');

export const DEFAULT_MM: StrategySpec = {
  id: 'mm',
  module: MARKET_MAKER,
  params: { size: 10, improveTicks: 1, minSpreadTicks: 1, maxInventory: 100 },
};

export interface AdminOrder {
  readonly seq: number;
  readonly receivedAt: number;
  readonly apiKey: string;
  readonly hash: string | null;
  readonly clientOrderId: string | null;
  readonly tokenId: string | null;
  readonly conditionId: string | null;
  readonly side: string | null;
  readonly price: string | null;
  readonly accepted: boolean;
  readonly errorMsg: string;
  readonly status: string;
  readonly cancelReason: string | null;
}

export interface E2E {
  readonly sandbox: RunningSandbox;
  readonly session: RunSession;
  readonly events: EngineEvent[];
  readonly dir: string;
  readonly configPath: string;
  faults(patch: Partial<FaultSettings>): Promise<FaultSettings>;
  adminOrders(): Promise<AdminOrder[]>;
  adminStats(): Promise<{ total: number; routes: Record<string, number>; statuses: Record<string, number> }>;
  /** Stops the run (cancelling open orders) and returns its summary; idempotent. */
  stop(): Promise<EngineSummary>;
  /** Stops the run if still running, closes the sandbox, removes the temp folder. */
  close(): Promise<void>;
}

export function baseConfig(url: string, dir: string, strategies: readonly StrategySpec[]): Record<string, Record<string, unknown> | string | unknown[]> {
  return {
    mode: 'live',
    venue: { baseUrl: url, timeoutMs: 5000, retries: 2 },
    account: { signatureType: 0 },
    data: {
      transport: 'poll',
      pollIntervalMs: 500,
      staleAfterMs: 5000,
      markets: { filter: { active: true, acceptingOrders: true, maxCount: 5 } },
    },
    strategies: strategies.map((s) => ({ id: s.id, module: s.module, params: s.params ?? {}, ...(s.markets ? { markets: s.markets } : {}) })),
    risk: {
      maxOrderNotional: 50,
      maxPositionPerToken: 200,
      maxPositionPerMarket: 200,
      maxGrossExposure: 1000,
      maxNegRiskEventExposure: 500,
      maxOpenOrders: 40,
      maxOrdersPerSecond: 20,
      staleBookMs: 10000,
      dailyLossLimit: 100,
      maxConsecutiveRejects: 1000,
      haltFile: join(dir, 'HALT'),
    },
    execution: {
      maxBatchWaitMs: 50,
      maxBatchSize: 15,
      quoteTolerance: { priceTicks: 0, sizeShare: 0.1 },
      orderTimeoutMs: 1000,
      heartbeatIntervalMs: 1000,
      cancelOnStop: true,
      orphans: 'cancel',
    },
    logging: { level: process.env['CLOBOT_E2E_LOG'] ?? 'silent', file: join(dir, 'run.log') },
  };
}

export async function startE2E(options: E2EOptions = {}): Promise<E2E> {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-e2e-'));
  const sandbox = await startSandbox({ port: 0, seed: 1, markets: 20, events: 6, flow: { enabled: true, intensity: 4 }, ...options.sandbox });
  try {
    const config = baseConfig(sandbox.url, dir, options.strategies ?? [DEFAULT_MM]);
    for (const [section, patch] of Object.entries(options.config ?? {})) {
      config[section] = { ...(config[section] as Record<string, unknown>), ...patch };
    }
    const configPath = join(dir, 'run.yaml');
    writeFileSync(configPath, stringify(config));
    const runConfig = loadConfig(configPath, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }, { cwd: dir });
    const logger = createLogger({ level: runConfig.logging.level, file: runConfig.logging.file });
    const events: EngineEvent[] = [];
    const session = await startRunSession({ config: runConfig, logger, onEvent: (e) => events.push(e) });
    const admin = async <T>(path: string, body?: unknown): Promise<T> => {
      const res = await fetch(sandbox.url + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${text}`);
      return JSON.parse(text) as T;
    };
    let closed = false;
    return {
      sandbox,
      session,
      events,
      dir,
      configPath,
      faults: (patch) => admin('/admin/faults', patch),
      adminOrders: () => admin('/admin/orders'),
      adminStats: () => admin('/admin/stats'),
      stop: () => session.stop(),
      async close() {
        if (closed) return;
        closed = true;
        try {
          await sandbox.faults.reset();
          await session.stop();
        } finally {
          logger.flush();
          await sandbox.close();
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/** Polls `check` until it returns a value other than undefined/false; fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
