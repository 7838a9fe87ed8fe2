import type { LifecycleEvent, MarketEvent } from '../core/events.ts';
import { MICROS_PER_UNIT, type Micros } from '../core/fixed.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import type { MarketCache } from '../data/market-cache.ts';
import type { Portfolio, Settlement } from '../portfolio/portfolio.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { MarketSettlement } from './ports.ts';

/** A market event of the lifecycle kinds. */
export type MarketStatusEvent = Extract<MarketEvent, { type: 'marketClosed' | 'marketResolved' }>;

/** What one share of a resolved market's token pays: 1 for the winner, 0 for the other; 0.5 each when there is no winner. */
export function payoutOf(tokenId: TokenId, winnerTokenId: TokenId | undefined): Micros {
  if (winnerTokenId === undefined) return MICROS_PER_UNIT / 2;
  return tokenId === winnerTokenId ? MICROS_PER_UNIT : 0;
}

export interface MarketLifecycleOptions {
  readonly desk: EngineDesk;
  readonly cache: MarketCache;
  readonly portfolio: Portfolio;
  /** Each strategy's positions, settled with the run's. */
  readonly ledger?: StrategyLedger;
  readonly canceller: OrderCanceller;
  /** Tells the strategies (TradingEngine.lifecycle). */
  readonly tell: (event: LifecycleEvent) => void;
  /** Compares our open orders with the venue's (the reconciler's sync). */
  readonly sync: (why: string) => void;
  /** Told of the cash a resolution paid, once stored (at: when the venue resolved the market). */
  readonly cashMoved?: (at: number, effect: Micros) => void;
}

/**
 * The engine's part for markets that close and resolve, the same in every mode (a live run's
 * status poll, a paper run's, a backtest's recorded `close` and `resolve` events):
 *
 * - closed (once per market): the cache marks its tokens not accepting orders, so the marketOpen
 *   check denies new orders MARKET_CLOSED; our open orders in it are cancelled (a simulated
 *   venue needs it; the real one cancelled them already and answers "not found", so a sync with
 *   the venue's open orders follows after `reconcileDelayMs` and closes them in our books);
 *   strategies hear MarketClosed;
 * - resolved (once per market; a close first if none was seen): every position in its tokens is
 *   settled at the payout (1 the winner, 0 the other, 0.5 each without a winner) into realized
 *   PnL and cash, the settlement is stored, and strategies hear MarketResolved.
 *
 * The event itself is journalled (persistence.marketEvent) the first time, so a backtest of the
 * run's store settles the same way. A restarted run restores its settlements first: a resolution
 * seen again at start settles nothing twice.
 */
export class MarketLifecycle {
  readonly #o: MarketLifecycleOptions;
  readonly #closed = new Set<ConditionId>();
  readonly #settled = new Map<ConditionId, MarketSettlement>();

  constructor(options: MarketLifecycleOptions) {
    this.#o = options;
  }

  /** Handles a close or resolve event (call inside the tick's transaction). */
  onMarketEvent(event: MarketStatusEvent): void {
    if (event.type === 'marketClosed') {
      if (this.#closed.has(event.conditionId)) return;
      this.#o.desk.persistence?.marketEvent?.(event);
      this.#close(event.conditionId, event.tokenIds, event.tsInit);
      return;
    }
    if (this.#settled.has(event.conditionId)) return;
    this.#o.desk.persistence?.marketEvent?.(event);
    if (!this.#closed.has(event.conditionId)) this.#close(event.conditionId, event.tokenIds, event.tsInit);
    this.#resolve(event);
  }

  /** Markets settled so far, in the order they resolved. */
  settlements(): MarketSettlement[] {
    return [...this.#settled.values()];
  }

  /**
   * Puts back the settlements of a previous life (after its fills were restored): the positions
   * they closed are closed again, and those markets are not settled twice.
   */
  restore(settlements: readonly MarketSettlement[]): void {
    const { cache } = this.#o;
    for (const s of settlements) {
      const tokenIds = s.tokens.map((t) => t.tokenId);
      cache.apply({ type: 'marketClosed', conditionId: s.conditionId, tokenIds, tsEvent: s.at, tsInit: s.at });
      for (const tokenId of tokenIds) this.#settle(tokenId, payoutOf(tokenId, s.winnerTokenId));
      this.#closed.add(s.conditionId);
      this.#settled.set(s.conditionId, s);
    }
  }

  /** Settles the run's position in a token, and each strategy's. */
  #settle(tokenId: TokenId, payout: Micros): Settlement {
    this.#o.ledger?.settle(tokenId, payout);
    return this.#o.portfolio.settle(tokenId, payout);
  }

  #close(conditionId: ConditionId, tokenIds: readonly TokenId[], at: number): void {
    const { desk, cache, canceller } = this.#o;
    this.#closed.add(conditionId);
    cache.apply({ type: 'marketClosed', conditionId, tokenIds, tsEvent: at, tsInit: at });
    const tokens = new Set(tokenIds);
    let canceled = 0;
    for (const record of desk.tracker.open()) {
      if (!tokens.has(record.request.tokenId)) continue;
      canceller.request(record, 'market closed');
      canceled++;
    }
    if (canceled > 0) desk.subs.add(desk.clock.scheduler.schedule(() => this.#o.sync('market closed'), desk.settings.reconcileDelayMs));
    desk.log.info('market closed', { conditionId, ordersCancelled: canceled });
    this.#o.tell({ type: 'MarketClosed', conditionId, tokenIds, tsInit: at });
  }

  #resolve(event: Extract<MarketStatusEvent, { type: 'marketResolved' }>): void {
    const desk = this.#o.desk;
    const tokens = event.tokenIds.map((tokenId) => this.#settle(tokenId, payoutOf(tokenId, event.winnerTokenId)));
    const settlement: MarketSettlement = Object.freeze({
      conditionId: event.conditionId,
      winnerTokenId: event.winnerTokenId,
      tokens: Object.freeze(tokens),
      proceeds: tokens.reduce((sum, t) => sum + t.proceeds, 0),
      realizedPnl: tokens.reduce((sum, t) => sum + t.realizedPnl, 0),
      at: event.tsInit,
    });
    this.#settled.set(event.conditionId, settlement);
    desk.persistence?.settlement?.(settlement);
    if (settlement.proceeds !== 0) this.#o.cashMoved?.(event.tsEvent, settlement.proceeds);
    desk.log.info('market resolved: positions settled', {
      conditionId: event.conditionId,
      winner: event.winnerTokenId ?? null,
      proceeds: settlement.proceeds,
      realizedPnl: settlement.realizedPnl,
    });
    this.#o.tell({ type: 'MarketResolved', conditionId: event.conditionId, tokenIds: event.tokenIds, winnerTokenId: event.winnerTokenId, tsInit: event.tsInit });
  }
}
