import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import type { Micros } from '../../core/fixed.ts';
import type { ConditionId, OrderBook, TokenId } from '../../core/types.ts';
import { MatchingEngine, type MatchingEngineOptions, type OrderQuery } from '../../sim/matching/matching-engine.ts';
import type { OrderState, SimOrderRequest, SubmitResult, TokenQuote } from '../../sim/types.ts';
import type { SettlementKnobs } from '../../sim/settlement-model.ts';
import type { FaultKnobs, FaultSettings } from '../faults.ts';
import { isFlowAccount } from '../flow/flow-accounts.ts';
import { checksumAddress } from '../world/ids.ts';
import type { SandboxMarket } from '../world/model.ts';
import type { World } from '../world/world.ts';

/** Owner (API-key slot) of the resting liquidity the sandbox seeds; no caller can hold this key. */
export const LIQUIDITY_OWNER = 'sandbox-liquidity';
/** Wallet that holds the seeded liquidity's collateral and tokens. */
export const LIQUIDITY_ADDRESS = checksumAddress(createHash('sha256').update('clobot sandbox liquidity').digest('hex').slice(0, 40));

/**
 * The sandbox's matching engine: every market of the world is listed at start (tokens, tick,
 * minimum size, fees, accepting orders, neg risk), and each market's book is seeded with the
 * world's seeded ladder the first time anything touches that market (a book read, an order, a
 * tick or status change). Seeding is lazy so a 5,000-market world starts fast, and it is
 * deterministic: a market's seeded orders depend only on the seed and the market, never on when
 * or in which order markets are first touched.
 *
 * The seeded orders are GTC orders of `LIQUIDITY_OWNER` at `LIQUIDITY_ADDRESS`, one per level
 * (bids as BUY YES, asks as SELL YES, the NO book is their mirror); that wallet gets the
 * collateral they need by deposit and its YES inventory by `split`. Their ids are 0x-hex like
 * order hashes. While a market is being seeded `seeding` is true, so an event listener can tell
 * the seeding's BookChanged events from trading.
 *
 * Everything else is the plain MatchingEngine: order flow agents call `submit` and the cancels
 * directly and listen with `onEvent` (BookChanged once per call per market).
 *
 * With `faults`, the venue's truths that take time are on, as the fault knobs say (they may
 * change while the sandbox runs): trades of non-synthetic accounts settle on chain (MATCHED ->
 * MINED -> CONFIRMED, some RETRYING, some FAILED and reversed; `settlement*` knobs, seeded by the
 * world's seed), and a marketable order in a market with a matching delay (the world's
 * `seconds_delay`, or `matchingDelayMs` for every market) is answered DELAYED and meets the book
 * when the delay is over.
 */
export class SandboxEngine extends MatchingEngine {
  readonly #world: World;
  readonly #clock: Clock;
  readonly #seeded = new Set<ConditionId>();
  readonly #outside: ((req: SimOrderRequest, now: number) => void)[] = [];
  #seeding = false;

  constructor(world: World, clock: Clock, options: MatchingEngineOptions = {}, faults?: FaultKnobs) {
    super(
      faults === undefined
        ? options
        : {
            ...options,
            settlement: { knobs: () => settlementKnobs(faults.settings), seed: world.seed },
            matchingDelayMs: (conditionId) => faults.settings.matchingDelayMs ?? (world.marketByConditionId(conditionId)?.secondsDelay ?? 0) * 1000,
          },
    );
    this.#world = world;
    this.#clock = clock;
    for (const m of world.markets) {
      super.addMarket({
        conditionId: m.conditionId,
        tokenIds: [m.tokens[0].tokenId, m.tokens[1].tokenId],
        tickSize: m.tickSize,
        minOrderSize: m.minOrderSize,
        negRisk: m.negRisk,
        makerBaseFeeBps: m.makerBaseFee,
        takerBaseFeeBps: m.takerBaseFee,
        acceptingOrders: m.acceptingOrders,
      });
    }
  }

  /** True while a market's seeded liquidity is being placed (its events are not trading). */
  get seeding(): boolean {
    return this.#seeding;
  }

  /** True once the market's seeded liquidity is on the book. */
  isSeeded(conditionId: ConditionId): boolean {
    return this.#seeded.has(conditionId);
  }

  /** Places the market's seeded liquidity if that has not happened yet. */
  ensureSeeded(conditionId: ConditionId): void {
    if (this.#seeded.has(conditionId)) return;
    const market = this.#world.marketByConditionId(conditionId);
    if (market === undefined) return;
    this.#seeded.add(conditionId);
    this.#seed(market);
  }

  override submit(req: SimOrderRequest, now: number): SubmitResult {
    this.#ensureToken(req.tokenId);
    const outside = this.#outside;
    if (outside.length > 0 && !this.#seeding && req.owner !== LIQUIDITY_OWNER && !isFlowAccount(req.owner)) {
      for (const listener of outside) listener(req, now);
    }
    return super.submit(req, now);
  }

  /**
   * Calls `listener` with every order of a client (not the sandbox's own accounts) just before it
   * meets the book: the neg-risk episodes withdraw a leg's depth there. Returns its removal.
   */
  onOutsideOrder(listener: (req: SimOrderRequest, now: number) => void): () => void {
    this.#outside.push(listener);
    return () => {
      const i = this.#outside.indexOf(listener);
      if (i >= 0) this.#outside.splice(i, 1);
    };
  }

  override book(tokenId: TokenId, now: number): OrderBook {
    this.#ensureToken(tokenId);
    return super.book(tokenId, now);
  }

  override quote(tokenId: TokenId): TokenQuote {
    this.#ensureToken(tokenId);
    return super.quote(tokenId);
  }

  override openOrders(query: OrderQuery = {}): OrderState[] {
    if (query.conditionId !== undefined) this.ensureSeeded(query.conditionId);
    if (query.tokenId !== undefined) this.#ensureToken(query.tokenId);
    return super.openOrders(query);
  }

  override setTickSize(conditionId: ConditionId, tickSize: Micros, now: number): void {
    this.ensureSeeded(conditionId);
    super.setTickSize(conditionId, tickSize, now);
  }

  override setAcceptingOrders(conditionId: ConditionId, accepting: boolean): void {
    this.ensureSeeded(conditionId);
    super.setAcceptingOrders(conditionId, accepting);
  }

  #ensureToken(tokenId: TokenId): void {
    if (typeof tokenId !== 'string') return;
    const info = this.tokenInfo(tokenId);
    if (info !== undefined) this.ensureSeeded(info.conditionId);
  }

  #seed(market: SandboxMarket): void {
    const yes = market.tokens[0].tokenId;
    const ladder = this.#world.seededBooks.book(yes);
    if (ladder === undefined || (ladder.bids.length === 0 && ladder.asks.length === 0)) return;
    const now = this.#clock.now();
    let bidSizes = 0;
    let askSizes = 0;
    for (const l of ladder.bids) bidSizes += l.size;
    for (const l of ladder.asks) askSizes += l.size;
    // Enough for every bid's entry check (notional plus the worst-case fee stays under 2 x size)
    // and for the YES inventory of the asks.
    this.ledger.deposit(LIQUIDITY_ADDRESS, 2 * bidSizes + askSizes);
    if (askSizes > 0) this.split(LIQUIDITY_ADDRESS, market.conditionId, askSizes);
    const accepting = market.acceptingOrders;
    if (!accepting) super.setAcceptingOrders(market.conditionId, true);
    this.#seeding = true;
    try {
      ladder.bids.forEach((l, i) => this.#place(market, 'BUY', i, l.price, l.size, now));
      ladder.asks.forEach((l, i) => this.#place(market, 'SELL', i, l.price, l.size, now));
    } finally {
      this.#seeding = false;
      if (!accepting) super.setAcceptingOrders(market.conditionId, false);
    }
  }

  #place(market: SandboxMarket, side: 'BUY' | 'SELL', level: number, price: Micros, size: Micros, now: number): void {
    const id = '0x' + createHash('sha256').update(`${this.#world.seed}:${market.conditionId}:${side}:${level}`).digest('hex');
    const result = super.submit(
      { id, owner: LIQUIDITY_OWNER, address: LIQUIDITY_ADDRESS, tokenId: market.tokens[0].tokenId, side, price, size, type: 'GTC', createdAt: now },
      now,
    );
    if (result.status !== 'LIVE') {
      throw new Error(`seeding market ${market.conditionId}: ${side} ${size}@${price} was ${result.status} (${result.errorMsg})`);
    }
  }
}

/** The settlement knobs of the fault settings (a retry rate that would take the sum past 1 yields to the fail rate). */
export function settlementKnobs(f: FaultSettings): SettlementKnobs {
  return {
    minedMs: f.settlementMinedMs,
    confirmedMs: f.settlementConfirmedMs,
    retryRate: Math.min(f.settlementRetryRate, 1 - f.settlementFailRate),
    failRate: f.settlementFailRate,
  };
}
