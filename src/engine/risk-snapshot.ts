import type { Micros } from '../core/fixed.ts';
import { bestAsk, bestBid, bookMark, midPrice } from '../core/book.ts';
import { LazyMap } from '../core/lazy-map.ts';
import type { TokenId, VenueState } from '../core/types.ts';
import type { MarketCache, TokenState } from '../data/market-cache.ts';
import type { HeartbeatHealth } from '../execution/heartbeat.ts';
import type { OrderTracker } from '../execution/order-tracker.ts';
import type { Portfolio } from '../portfolio/portfolio.ts';
import type { RiskMarketView, RiskOpenOrder, RiskState } from '../risk/types.ts';

const NO_TIMES: readonly number[] = Object.freeze([]);
const DAY_MS = 86_400_000;

/** Where the snapshot reads the engine's own state (getters: nothing is copied until asked). */
export interface RiskSources {
  readonly cache: MarketCache;
  readonly portfolio: Portfolio;
  readonly tracker: OrderTracker;
  /** Whether a configured check reads the recent order times (the order-rate check with a limit). */
  readonly ratesChecked: boolean;
  heartbeat(): HeartbeatHealth;
  haltReason(): string | undefined;
  consecutiveRejects(): number;
  /** Markets under reconciliation. */
  readonly reconciling: RiskState['reconciling'];
  /** Markets cleared at a game start whose book is not back. */
  readonly cleared?: RiskState['cleared'];
  /** What the venue takes now (the venue-state tracker's); absent: always open. */
  venueState?(): VenueState;
  /** Shares the account holds outside the bot, per token (the account sync's). */
  readonly outside?: ReadonlyMap<TokenId, Micros>;
  /**
   * The position a check reads per token: the fill book's `riskSize`, the worse (larger) of the
   * provisional position (every fill) and the confirmed one. Default: the portfolio's.
   */
  readonly positionOf?: (tokenId: TokenId) => Micros | undefined;
  /** What a strategy's open long positions cost (the strategy ledger's), for the strategyBudget check. */
  readonly strategyCost?: (strategyId: string) => Micros;
}

/**
 * The snapshot risk checks one batch against. Built for what the checks read, not for every
 * market: market views and positions are computed on first look (a batch on one token costs one
 * view, whatever the number of markets tracked), the day's PnL only when a check asks for it.
 * Also keeps the recent order times (the order-rate check) and the day's starting PnL.
 */
export class RiskSnapshot {
  readonly #src: RiskSources;
  readonly #recentOrderTimes: number[] = [];
  #dayStart: { day: number; pnl: Micros } | undefined;
  /**
   * The last risk view made per token, with the state it was made of: a TokenState is replaced
   * (never changed) on every update, so the same state gives the same view, and a batch reuses
   * the views of the tokens that did not move since the last one.
   */
  readonly #views = new Map<TokenId, { state: TokenState; view: RiskMarketView }>();
  // made once, not per take (each arrow would be a closure per batch)
  readonly #tokenIds = (): Iterable<TokenId> => this.#src.cache.tokenIds();
  readonly #viewOf = (tokenId: TokenId): RiskMarketView | undefined => this.#view(tokenId);
  readonly #heldTokenIds = (): Iterable<TokenId> => this.#src.portfolio.tokenIds();
  readonly #positionOf: (tokenId: TokenId) => Micros | undefined;
  readonly #markOf = (tokenId: TokenId): Micros | undefined => this.mark(tokenId);

  constructor(sources: RiskSources) {
    this.#src = sources;
    const portfolio = sources.portfolio;
    this.#positionOf = sources.positionOf ?? ((tokenId) => portfolio.size(tokenId));
  }

  /** Notes an order sent at `now` (for the order-rate check). */
  noteOrder(now: number): void {
    this.#recentOrderTimes.push(now);
  }

  take(now: number): RiskState {
    const src = this.#src;
    const cutoff = now - 1_000;
    const times = this.#recentOrderTimes;
    while (times.length > 0 && times[0]! <= cutoff) times.shift();
    const markets = new LazyMap<TokenId, RiskMarketView>(this.#tokenIds, this.#viewOf);
    const positions = new LazyMap<TokenId, Micros>(this.#heldTokenIds, this.#positionOf);
    const haltReason = src.haltReason();
    return new TakenState(
      this,
      now,
      markets,
      src.tracker,
      positions,
      // only the order-rate check reads them
      src.ratesChecked ? times : NO_TIMES,
      src.consecutiveRejects(),
      src.heartbeat(),
      haltReason,
      src.reconciling,
      src.outside !== undefined && src.outside.size > 0 ? src.outside : undefined,
      src.strategyCost,
      src.venueState?.(),
      src.cleared,
    );
  }

  #view(tokenId: TokenId): RiskMarketView | undefined {
    const state = this.#src.cache.get(tokenId);
    if (state === undefined) return undefined;
    const held = this.#views.get(tokenId);
    if (held !== undefined && held.state === state) return held.view;
    const view = riskMarketView(state);
    if (held === undefined) this.#views.set(tokenId, { state, view });
    else {
      held.state = state;
      held.view = view;
    }
    return view;
  }

  /** Realized + unrealized - fees since the first look of this UTC day. */
  dailyPnl(now: number): Micros {
    const pnl = this.#src.portfolio.pnl(this.#markOf);
    const day = Math.floor(now / DAY_MS);
    if (!this.#dayStart || this.#dayStart.day !== day) this.#dayStart = { day, pnl };
    return pnl - this.#dayStart.pnl;
  }

  /** The open orders as risk reads them (a cancel pending rests nothing). */
  static openOrdersOf(tracker: OrderTracker): RiskOpenOrder[] {
    const openOrders: RiskOpenOrder[] = [];
    for (const r of tracker.open()) {
      openOrders.push({
        clientOrderId: r.request.clientOrderId,
        strategyId: r.request.strategyId,
        tokenId: r.request.tokenId,
        conditionId: r.request.conditionId,
        side: r.request.side,
        price: r.request.price,
        remaining: r.status === 'CANCEL_PENDING' ? 0 : tracker.remaining(r),
      });
    }
    return openOrders;
  }

  /** A token's mark: the mid, else the one side shown, else the last trade. */
  mark(tokenId: TokenId): Micros | undefined {
    return bookMark(this.#src.cache.get(tokenId)?.book);
  }
}

/**
 * One taken state: the day's PnL and the open orders computed on first read (a batch whose
 * checks read no open orders copies none; a taken state is read while its batch is checked, in
 * the same call, so the orders are those of the take). A class, so taking one makes no closure
 * (a named arrow per call costs a property definition: tsx keeps function names).
 */
class TakenState implements RiskState {
  readonly manualHalt: boolean;
  readonly #snapshot: RiskSnapshot;
  readonly #tracker: OrderTracker;
  #dailyPnl: Micros | undefined;
  #openOrders: readonly RiskOpenOrder[] | undefined;

  constructor(
    snapshot: RiskSnapshot,
    readonly now: number,
    readonly markets: RiskState['markets'],
    tracker: OrderTracker,
    readonly positions: RiskState['positions'],
    readonly recentOrderTimes: readonly number[],
    readonly consecutiveRejects: number,
    readonly heartbeat: HeartbeatHealth,
    readonly haltReason: string | undefined,
    readonly reconciling: RiskState['reconciling'],
    readonly outside: RiskState['outside'],
    readonly strategyCost: RiskState['strategyCost'],
    readonly venueState: VenueState | undefined,
    readonly cleared: RiskState['cleared'],
  ) {
    this.#snapshot = snapshot;
    this.#tracker = tracker;
    this.manualHalt = haltReason !== undefined;
  }

  get openOrders(): readonly RiskOpenOrder[] {
    return (this.#openOrders ??= RiskSnapshot.openOrdersOf(this.#tracker));
  }

  get dailyPnl(): Micros {
    return (this.#dailyPnl ??= this.#snapshot.dailyPnl(this.now));
  }
}

/** What risk needs of one token's market state. */
function riskMarketView(state: TokenState): RiskMarketView {
  const book = state.book;
  const bid = bestBid(book);
  const ask = bestAsk(book);
  return {
    tokenId: state.token.tokenId,
    conditionId: state.token.conditionId,
    outcomeIndex: state.token.outcomeIndex,
    complementTokenId: state.token.complementTokenId,
    negRiskMarketId: state.token.negRiskMarketId,
    tickSize: state.rules.tickSize,
    minOrderSize: state.rules.minOrderSize,
    acceptingOrders: state.rules.acceptingOrders,
    takerFeeBps: state.rules.takerBaseFeeBps,
    bestBid: bid,
    bestAsk: ask,
    mid: midPrice(bid, ask),
    bookTsInit: book ? state.bookSeenAt : undefined,
  };
}
