import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { startRunSession } from '../../src/app/run-session.ts';
import type { BacktestData } from '../../src/backtest/backtest-data.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { createLogger } from '../../src/core/log.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { backtestConfig, bookEvent, COND, header, T0, TempDir, tradeEvent } from '../backtest/helpers.ts';
import { heardSequence, type Heard } from './strategies/order-sequence.ts';

/**
 * Causal order of what a strategy hears: for GTC, FAK and FOK orders alike, OrderAccepted comes
 * before any fill of the order, live against the sandbox (a FAK's fill can be seen on the fills
 * path before the post returns) and in a backtest.
 */

const STRATEGY = fileURLToPath(new URL('./strategies/order-sequence.ts', import.meta.url));
const TEST_PRIVATE_KEY = '0x' + '3d'.repeat(32);
const tmp = new TempDir();
afterAll(() => tmp.remove());

/** Every order's events in the order heard, by client order id. */
function byOrder(heard: readonly Heard[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const h of heard) out.set(h.clientOrderId, [...(out.get(h.clientOrderId) ?? []), h.type]);
  return out;
}

/** Checks causal order and returns the order types that filled. */
function checkCausal(heard: readonly Heard[], typeOf: (clientOrderId: string) => string | undefined): Set<string> {
  const filled = new Set<string>();
  for (const [id, types] of byOrder(heard)) {
    const firstFill = types.indexOf('OrderFilled');
    if (firstFill < 0) continue;
    filled.add(typeOf(id) ?? '?');
    expect(types.indexOf('OrderAccepted'), `${typeOf(id)} ${id}: ${types.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(types.indexOf('OrderAccepted'), `${typeOf(id)} ${id}: ${types.join(', ')}`).toBeLessThan(firstFill);
  }
  return filled;
}

describe('causal order in a backtest', () => {
  it('GTC (marketable and resting), FAK and FOK: accepted before their fills', async () => {
    const config = backtestConfig(
      tmp,
      [
        'mode: backtest',
        'data:',
        `  markets: { conditionIds: ["${COND}"] }`,
        'strategies:',
        '  - id: seq',
        `    module: ${STRATEGY}`,
        '    params: { tag: backtest, size: 10 }',
        'execution: { maxBatchWaitMs: 5 }',
        'backtest: { balance: 1000, entryLatencyMs: 10, responseLatencyMs: 10, queueModel: conservative }',
        '',
      ].join('\n'),
    );
    const events = [
      bookEvent(T0, [['0.50', '100']], [['0.52', '1000']]),
      bookEvent(T0 + 1000, [['0.50', '100']], [['0.52', '900']]),
      tradeEvent(T0 + 2000, 'SELL', '0.48', '50'),
      bookEvent(T0 + 3000, [['0.50', '100']], [['0.52', '900']]),
    ];
    const data: BacktestData = { name: 'inline', header: header(1), events: () => events };
    let typeOf: (id: string) => string | undefined = () => undefined;
    await runBacktest({
      config,
      data,
      onStopped: (engine) => {
        typeOf = (id) => engine.tracker.byClientId(id)?.request.tag;
      },
    });
    const heard = heardSequence('backtest');
    expect(heard.length).toBeGreaterThan(0);
    expect(checkCausal(heard, typeOf)).toEqual(new Set(['GTC', 'FAK', 'FOK']));
    // the resting GTC filled too (by a print through its price), after its acceptance
    expect([...byOrder(heard).values()].filter((t) => t.includes('OrderFilled')).length).toBe(4);
  });
});

describe('causal order live against the sandbox', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 11, markets: 3, events: 1, flow: { enabled: true, intensity: 8 } });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('GTC, FAK and FOK that fill at once: accepted before their fills', async () => {
    const path = tmp.write(
      'live.yaml',
      [
        'mode: live',
        'venue:',
        `  baseUrl: ${sandbox.url}`,
        'account: { signatureType: 0 }',
        'data:',
        '  transport: ws',
        '  markets:',
        '    filter: { active: true, acceptingOrders: true, maxCount: 1 }',
        'strategies:',
        '  - id: seq',
        `    module: ${STRATEGY}`,
        '    params: { tag: live, size: 5 }',
        'risk:',
        `  haltFile: ${tmp.path('HALT')}`,
        '  maxOrderNotional: 2000',
        '  maxPositionPerToken: 5000',
        '  maxPositionPerMarket: 5000',
        '  maxGrossExposure: 5000',
        'logging: { level: silent }',
        '',
      ].join('\n'),
    );
    const config = loadConfig(path, { CLOBOT_PRIVATE_KEY: TEST_PRIVATE_KEY });
    const session = await startRunSession({ config, logger: createLogger({ level: 'silent' }) });
    const heard = heardSequence('live');
    const typeOf = (id: string) => session.engine.tracker.byClientId(id)?.request.tag;
    const marketable = () => [...byOrder(heard)].filter(([id, t]) => typeOf(id) !== undefined && t.includes('OrderFilled'));
    try {
      const deadline = Date.now() + 20_000;
      while (new Set(marketable().map(([id]) => typeOf(id))).size < 3) {
        if (Date.now() > deadline) throw new Error(`timed out; heard ${JSON.stringify(heard)}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await session.stop();
    }
    expect(checkCausal(heard, typeOf)).toEqual(new Set(['GTC', 'FAK', 'FOK']));
  });
});
