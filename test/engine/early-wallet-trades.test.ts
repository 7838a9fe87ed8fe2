import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { WalletTrade } from '../../src/core/types.ts';
import type { TrackedToken } from '../../src/data/market-cache.ts';
import { EARLY_WALLET_TRADES } from '../../src/engine/early-wallet-trades.ts';
import type { EngineLogger } from '../../src/engine/ports.ts';
import { TradingEngine } from '../../src/engine/trading-engine.ts';
import type { FillsSnapshot } from '../../src/execution/execution-client.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { edgeWith, simulatedEdge } from './parts.ts';

/**
 * A live run starts its strategies on its first read of our trades, while the market data and the
 * followed wallets' polls already run: the wallet trades heard in between are held (bounded) and
 * delivered at the start, after the known books, oldest first; what the bound drops is one log line.
 */

const COND = '0x' + 'ab'.repeat(32);
const YES = '111';
const NO = '222';
const M = 1_000_000;
const LEADER = '0x' + '5e'.repeat(20);

function setup() {
  const clock = new SimulatedClock(1_700_000_000_000);
  const rules = { conditionId: COND, tickSize: 10_000, minOrderSize: 5 * M, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true };
  const tokens: TrackedToken[] = [{ tokenId: YES, conditionId: COND, outcome: 'Yes', outcomeIndex: 0, complementTokenId: NO, question: 'q', negRiskMarketId: undefined, rules }];
  const events = new Subject<MarketEvent>();
  // the live edge's reads of our trades: the strategies start on the first
  const snapshots = new Subject<FillsSnapshot>();
  const execution = edgeWith(simulatedEdge(clock, 5), { fillsSnapshot$: snapshots });
  const heard: { what: string; at: number; book: boolean }[] = [];
  const warnings: { msg: string; fields: Record<string, unknown> | undefined }[] = [];
  const log: EngineLogger = {
    debug() {},
    info() {},
    warn: (msg, fields) => warnings.push({ msg, fields }),
    error() {},
    child: () => log,
  };
  const watcher = defineStrategy({
    name: 'watcher',
    onStart({ ctx }) {
      heard.push({ what: 'start', at: ctx.clock.now(), book: ctx.market(YES)?.book !== undefined });
    },
    onBook({ ctx }) {
      heard.push({ what: 'book', at: ctx.clock.now(), book: true });
    },
    onWalletTrade({ ctx, trade }) {
      heard.push({ what: trade.txHash, at: ctx.clock.now(), book: ctx.market(YES)?.book !== undefined });
    },
  });
  const engine = new TradingEngine({
    clock,
    execution,
    marketEvents$: events,
    tokens,
    strategies: [{ id: 'watch', definition: watcher, params: {}, tokenIds: [YES] }],
    risk: { limits: { maxOrderNotional: 100 * M, staleBookMs: 5_000 } },
    settings: { maxBatchWaitMs: 10, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0.1 }, reconcileDelayMs: 500, syncIntervalMs: 0, maxInFlightBatches: 4 },
    startingBalance: 10_000 * M,
    runId: 'feedf00d',
    log,
  });
  const walletTrade = (txHash: string): void => {
    const now = clock.now();
    const trade: WalletTrade = { wallet: LEADER, txHash, tokenId: YES, conditionId: COND, side: 'BUY', price: 500_000, size: 10 * M, ts: now - 500 };
    events.next({ type: 'walletTrade', trade, tsEvent: trade.ts, tsInit: now });
  };
  const book = (): void => {
    const now = clock.now();
    const b = { tokenId: YES, conditionId: COND, tsEvent: now, tsInit: now, hash: `h${now}`, bids: [{ price: 450_000, size: 100 * M }], asks: [{ price: 550_000, size: 100 * M }], tickSize: undefined, minOrderSize: undefined, negRisk: false, lastTradePrice: undefined };
    events.next({ type: 'book', book: b, tsEvent: now, tsInit: now });
  };
  const firstRead = (): void => snapshots.next({ complete: true, at: clock.now() });
  /** Stops the run on the virtual clock (the drain and the cancel-all run as the clock moves). */
  const stop = async (): Promise<void> => {
    const stopping = engine.stop();
    clock.advanceBy(10_000);
    await stopping;
  };
  return { clock, engine, heard, warnings, walletTrade, book, firstRead, stop };
}

describe('wallet trades heard before the strategies start', () => {
  it('are held until the first read of our trades, then delivered after the known book, oldest first; later ones as they come', async () => {
    const s = setup();
    s.engine.start();
    s.book();
    s.walletTrade('0xa');
    s.clock.advanceBy(100);
    s.walletTrade('0xb');
    expect(s.heard).toEqual([]);
    s.clock.advanceBy(100);
    s.firstRead();
    const started = s.clock.now();
    expect(s.heard).toEqual([
      { what: 'start', at: started, book: true },
      { what: 'book', at: started, book: true },
      { what: '0xa', at: started, book: true },
      { what: '0xb', at: started, book: true },
    ]);
    s.clock.advanceBy(50);
    s.walletTrade('0xc');
    expect(s.heard.map((h) => h.what)).toEqual(['start', 'book', '0xa', '0xb', '0xc']);
    // each once: nothing is held any more
    s.firstRead();
    expect(s.heard).toHaveLength(5);
    expect(s.warnings).toEqual([]);
    await s.stop();
  });

  it('past the bound, the oldest are dropped and one warning says how many', async () => {
    const s = setup();
    s.engine.start();
    const extra = 7;
    for (let i = 0; i < EARLY_WALLET_TRADES + extra; i++) s.walletTrade(`0x${i.toString(16)}`);
    s.firstRead();
    const trades = s.heard.filter((h) => h.what.startsWith('0x')).map((h) => h.what);
    expect(trades).toHaveLength(EARLY_WALLET_TRADES);
    expect(trades[0]).toBe(`0x${extra.toString(16)}`);
    expect(trades[trades.length - 1]).toBe(`0x${(EARLY_WALLET_TRADES + extra - 1).toString(16)}`);
    const dropped = s.warnings.filter((w) => w.msg.includes('followed-wallet trades'));
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.msg).toContain(`${extra} followed-wallet trades heard before the strategies started were dropped`);
    expect(dropped[0]!.fields).toEqual({ dropped: extra, delivered: EARLY_WALLET_TRADES });
    await s.stop();
  });
});
