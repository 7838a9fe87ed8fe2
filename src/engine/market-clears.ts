import type { LifecycleEvent, MarketEvent } from '../core/events.ts';
import type { ConditionId, OrderBook } from '../core/types.ts';
import type { EngineDesk } from './engine-desk.ts';

/** A `marketCleared` market event. */
export type MarketClearedEvent = Extract<MarketEvent, { type: 'marketCleared' }>;

export interface MarketClearsOptions {
  readonly desk: EngineDesk;
  /** Tells the strategies (TradingEngine.lifecycle). */
  readonly tell: (event: LifecycleEvent) => void;
  /** Compares our open orders with the venue's (the reconciler's sync). */
  readonly sync: (why: string) => void;
}

/**
 * The engine's part for a sports market's book cleared at its game start (docs/fees-and-sports.md),
 * the same in every mode (a live or paper run's game-start watch, a backtest's recorded `clear`):
 * the venue cancelled every resting order in the market without being asked, so ours there are
 * taken as cancelled by the venue (OrderCanceled, reason `game start`), a sync with the venue's
 * open orders follows after `reconcileDelayMs` (one the venue still lists is looked up and
 * cancelled as ours), strategies hear MarketCleared, and the market is held: an order in it is
 * denied MARKET_CLEARED until the venue's book has orders again (a book of one of its tokens
 * with a level, received after the clear). The event is journalled, so a backtest of the run's
 * store clears at the same point.
 */
export class MarketClears {
  readonly #o: MarketClearsOptions;
  /** Held markets: when their book was cleared. */
  readonly #held = new Map<ConditionId, number>();
  readonly #cleared = new Set<ConditionId>();
  /** The MARKET_CLEARED gate's view. */
  readonly gate = {
    has: (conditionId: ConditionId): boolean => this.#held.has(conditionId),
  };

  constructor(options: MarketClearsOptions) {
    this.#o = options;
  }

  /** Markets held until their book is back. */
  get held(): number {
    return this.#held.size;
  }

  /** Handles a clear (call inside the tick's transaction); a market is cleared once. */
  onCleared(event: MarketClearedEvent): void {
    const { desk } = this.#o;
    if (this.#cleared.has(event.conditionId)) return;
    this.#cleared.add(event.conditionId);
    desk.persistence?.marketEvent?.(event);
    const now = desk.clock.now();
    const tokens = new Set(event.tokenIds);
    let gone = 0;
    for (const record of desk.tracker.open()) {
      if (!tokens.has(record.request.tokenId) && record.request.conditionId !== event.conditionId) continue;
      if (record.status !== 'LIVE' && record.status !== 'PARTIALLY_FILLED' && record.status !== 'CANCEL_PENDING') continue;
      desk.tracker.transition(record, 'CANCELED', now, 'cancelled by the venue: book cleared at game start');
      desk.orderEvent(record.request.strategyId, { type: 'OrderCanceled', clientOrderId: record.request.clientOrderId, orderId: record.orderId, reason: 'game start', tsInit: now });
      gone++;
    }
    this.#held.set(event.conditionId, event.tsInit);
    desk.subs.add(desk.clock.scheduler.schedule(() => this.#o.sync('book cleared at game start'), desk.settings.reconcileDelayMs));
    desk.log.info('market book cleared at game start: our orders in it taken as cancelled by the venue', { conditionId: event.conditionId, ordersCancelled: gone });
    this.#o.tell({ type: 'MarketCleared', conditionId: event.conditionId, tokenIds: event.tokenIds, reason: 'gameStart', tsInit: event.tsInit });
  }

  /** A book arrived: a held market whose book has orders again (received after the clear) is released. */
  onBook(book: OrderBook): void {
    if (this.#held.size === 0) return;
    const clearedAt = this.#held.get(book.conditionId);
    if (clearedAt === undefined || book.tsInit < clearedAt) return;
    if (book.bids.length === 0 && book.asks.length === 0) return;
    this.#held.delete(book.conditionId);
    this.#o.desk.log.info('market book back after the game-start clear: orders allowed again', { conditionId: book.conditionId });
  }
}
