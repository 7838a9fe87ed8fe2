import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { stringify } from 'yaml';
import { loadConfig } from '../../../src/config/load-config.ts';
import { createLogger } from '../../../src/core/log.ts';
import type { EngineSummary } from '../../../src/engine/engine-summary.ts';
import { startRunSession, type RunSession } from '../../../src/app/run-session.ts';
import type { EngineEvent } from '../../../src/engine/ports.ts';
import type { OrderRecord } from '../../../src/execution/order-tracker.ts';
import type { FaultSettings } from '../../../src/sandbox/faults.ts';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox/server.ts';
import type { OrderEvent } from '../../../src/strategy/api.ts';

/**
 * End-to-end harness: a sandbox on loopback (started here, so a test can turn its fault knobs),
 * a run config written as a temp YAML file pointing `venue.baseUrl` at it (or an existing config
 * file run against it with `venueUrl`), loaded by `loadConfig` with a throwaway key, and a live
 * run session (`startRunSession`) against it. Every engine event is kept in `events`.
 *
 * Set CLOBOT_E2E_LOG=debug to keep a JSON log of the run (the temp folder is then kept too).
 */

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MARKET_MAKER = resolve(REPO_ROOT, 'strategies/market-maker.ts');
/** Test strategy: one deep bid per token, moved on a fixed beat (order posts on demand). */
export const CHURN = resolve(REPO_ROOT, 'test/engine/e2e/strategies/churn-quoter.ts');
/** Test strategy: one order on its first book, then throws in every onBook. */
export const THROWER = resolve(REPO_ROOT, 'test/engine/e2e/strategies/throw-after-first-book.ts');
/** A throwaway key used nowhere else: 0x + 64 hex, inside the secp256k1 range. */
export const TEST_PRIVATE_KEY = '0x' + '1b'.repeat(32);

/** The sandbox of config/default.yaml's `venue.embedded` (seed 1, 20 markets, 6 events), busier flow. */
export const DEFAULT_SANDBOX: SandboxOptions = { port: 0, seed: 1, markets: 20, events: 6, flow: { enabled: true, intensity: 4 } };

export interface StrategySpec {
  readonly id: string;
  readonly module: string;
  readonly params?: Record<string, unknown>;
  /** The strategy's own market selection (else the config's `data.markets`). */
  readonly markets?: Record<string, unknown>;
}

/** The market maker of config/default.yaml with its parameters. */
export const DEFAULT_MM: StrategySpec = {
  id: 'mm',
  module: MARKET_MAKER,
  params: { size: 10, improveTicks: 1, minSpreadTicks: 1, maxInventory: 100 },
};

/** The churn quoter on the first listed market only (two tokens: two posts per move). */
export function churn(params: Record<string, unknown> = {}, id = 'churn'): StrategySpec {
  return { id, module: CHURN, params, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } };
}

export interface E2EOptions {
  readonly sandbox?: SandboxOptions;
  /** The strategies, or a function of the started sandbox giving them (a market chosen from its world). */
  readonly strategies?: readonly StrategySpec[] | ((sandbox: RunningSandbox) => readonly StrategySpec[] | Promise<readonly StrategySpec[]>);
  /** Merged over the base config's sections (one level deep). */
  readonly config?: Record<string, Record<string, unknown>>;
  /** Run this config file instead (against the sandbox through `venueUrl`). */
  readonly configFile?: string;
  /** Build the run's Prometheus exporter (`session.prometheus`). */
  readonly prometheus?: boolean;
  /** More environment for the config's loading (the variables an `alerts` section names), beside the key. */
  readonly env?: Readonly<Record<string, string>>;
}

/** One item of `GET /admin/orders`. */
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
  readonly size: string | null;
  readonly accepted: boolean;
  readonly errorMsg: string;
  readonly status: string;
  readonly sizeMatched: string;
  readonly cancelReason: string | null;
}

export interface E2E {
  readonly sandbox: RunningSandbox;
  readonly session: RunSession;
  readonly events: EngineEvent[];
  readonly dir: string;
  summary(): EngineSummary;
  /** The order events of the run, optionally of one type and/or strategy. */
  orderEvents<T extends OrderEvent['type']>(type?: T, strategyId?: string): (Extract<OrderEvent, { type: T }> & { strategyId: string })[];
  /** Every order record of the run. */
  records(): OrderRecord[];
  faults(patch: Partial<FaultSettings>): Promise<FaultSettings>;
  adminOrders(): Promise<AdminOrder[]>;
  adminStats(): Promise<{ total: number; routes: Record<string, number>; statuses: Record<string, number> }>;
  admin<T>(path: string, body?: unknown): Promise<T>;
  /** Stops the run (cancelling open orders) and returns its summary; idempotent. */
  stop(): Promise<EngineSummary>;
  /** Stops the run if still running, closes the sandbox, removes the temp folder. */
  close(): Promise<void>;
}

export function baseConfig(url: string, dir: string, strategies: readonly StrategySpec[]): Record<string, unknown> {
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
      // the fault scenarios provoke rejections on purpose; the halt after N is not under test
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
  const keepDir = process.env['CLOBOT_E2E_LOG'] !== undefined;
  const sandbox = await startSandbox({ ...DEFAULT_SANDBOX, ...options.sandbox });
  try {
    let configPath = options.configFile;
    if (configPath === undefined) {
      const strategies = typeof options.strategies === 'function' ? await options.strategies(sandbox) : options.strategies;
      const config = baseConfig(sandbox.url, dir, strategies ?? [DEFAULT_MM]);
      for (const [section, patch] of Object.entries(options.config ?? {})) {
        config[section] = { ...(config[section] as Record<string, unknown>), ...patch };
      }
      configPath = join(dir, 'run.yaml');
      writeFileSync(configPath, stringify(config));
    }
    // relative output paths (logs, halt file) land in the temp folder
    const runConfig = loadConfig(configPath, { ...options.env, CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY }, { cwd: dir });
    const logger = createLogger({ level: process.env['CLOBOT_E2E_LOG'] ?? 'silent', file: join(dir, 'run.log') });
    const events: EngineEvent[] = [];
    const session = await startRunSession({
      config: runConfig,
      logger,
      venueUrl: options.configFile !== undefined ? sandbox.url : undefined,
      onEvent: (e) => events.push(e),
      prometheus: options.prometheus,
    });
    const admin = async <T>(path: string, body?: unknown): Promise<T> => {
      const init: RequestInit = body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
      const res = await fetch(sandbox.url + path, init);
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
      summary: () => session.engine.summary(),
      orderEvents<T extends OrderEvent['type']>(type?: T, strategyId?: string) {
        const out: (Extract<OrderEvent, { type: T }> & { strategyId: string })[] = [];
        for (const e of events) {
          if (e.type !== 'order') continue;
          if (type !== undefined && e.event.type !== type) continue;
          if (strategyId !== undefined && e.strategyId !== strategyId) continue;
          out.push({ ...(e.event as Extract<OrderEvent, { type: T }>), strategyId: e.strategyId });
        }
        return out;
      },
      records: () => [...session.engine.tracker.all()],
      faults: (patch) => admin('/admin/faults', patch),
      adminOrders: () => admin('/admin/orders'),
      adminStats: () => admin('/admin/stats'),
      admin,
      stop: () => session.stop(),
      async close() {
        if (closed) return;
        closed = true;
        try {
          sandbox.faults.reset();
          await session.stop();
        } finally {
          logger.flush();
          await sandbox.close();
          if (!keepDir) rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await sandbox.close();
    if (!keepDir) rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Polls `check` until it returns something other than undefined or false, and returns that;
 * fails naming `what` after `timeoutMs`. Every wait in these tests is one of these: a condition
 * with a generous deadline, never a fixed sleep standing in for one.
 */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Engine statuses of an order that may still trade. */
export const ENGINE_OPEN = new Set(['PENDING_SUBMIT', 'SUBMIT_UNKNOWN', 'LIVE', 'PARTIALLY_FILLED', 'CANCEL_PENDING']);

/** Asserts that no intent reached the venue twice: client order ids and hashes are unique. */
export function expectNoDuplicates(orders: readonly AdminOrder[]): void {
  const ids = orders.map((o) => o.clientOrderId);
  expect(ids.every((id) => id !== null), 'every order sent carries a client order id').toBe(true);
  const seen = new Map<string, number>();
  for (const id of ids) seen.set(id!, (seen.get(id!) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  expect(twice, 'client order ids received more than once').toEqual([]);
  const hashes = orders.map((o) => o.hash);
  expect(new Set(hashes).size, 'order hashes received more than once').toBe(hashes.length);
}

/** Our orders resting at the sandbox. */
export async function liveAtVenue(e: E2E): Promise<AdminOrder[]> {
  return (await e.adminOrders()).filter((o) => o.status === 'LIVE');
}
