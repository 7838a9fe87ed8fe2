import { MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import { FeeRate, type MarketFees } from '../../core/money.ts';
import type { BookLevel, ConditionId, TokenId } from '../../core/types.ts';
import { BookSide, type LevelEntry, type PriceLevel } from './book-side.ts';
import { formatBookHash, levelHashA, levelHashB, stringHash32 } from './book-hash.ts';
import type { OutcomeIndex, SimMarketConfig, TokenTop } from '../types.ts';

/** What the book needs of a resting order: its place in a level and where it rests. */
export interface BookEntry<E extends BookEntry<E>> extends LevelEntry<E> {
  /** True on the YES bid side (BUY YES or SELL NO). */
  readonly isBid: boolean;
  /** Its price in YES terms. */
  readonly yesPrice: Micros;
  /** Its open size. */
  readonly remaining: Micros;
}

/**
 * One market's single book, in YES terms. A NO order at price p sits at 1 - p on the opposite
 * side (BUY NO is a YES ask, SELL NO a YES bid); the NO token's book is this one mirrored.
 * Keeps an incremental content hash (see book-hash.ts).
 */
export class MarketBook<E extends BookEntry<E>> {
  readonly conditionId: ConditionId;
  readonly tokenIds: readonly [TokenId, TokenId];
  tickSize: Micros;
  readonly minOrderSize: Micros;
  readonly makerFeeBps: number;
  /** Basis points; changed by `MatchingEngine.setTakerFee` (the venue changed the market's base fee). */
  takerFeeBps: number;
  /** The same rates, to compute fees with. */
  fees: MarketFees;
  acceptingOrders: boolean;
  readonly negRisk: boolean;

  readonly bids = new BookSide<E>(true);
  readonly asks = new BookSide<E>(false);
  /** YES price of the last trade. */
  lastTradeYesPrice: Micros | undefined = undefined;
  #laneA = 0;
  #laneB = 0;
  readonly #tokenSalts: readonly [number, number];

  constructor(config: SimMarketConfig) {
    this.conditionId = config.conditionId;
    this.tokenIds = [config.tokenIds[0], config.tokenIds[1]];
    this.tickSize = config.tickSize;
    this.minOrderSize = config.minOrderSize;
    this.makerFeeBps = config.makerBaseFeeBps;
    this.takerFeeBps = config.takerBaseFeeBps;
    this.fees = { maker: FeeRate.of(config.makerBaseFeeBps), taker: FeeRate.of(config.takerBaseFeeBps) };
    this.acceptingOrders = config.acceptingOrders;
    this.negRisk = config.negRisk;
    this.#tokenSalts = [stringHash32(this.tokenIds[0]), stringHash32(this.tokenIds[1])];
  }

  side(isBid: boolean): BookSide<E> {
    return isBid ? this.bids : this.asks;
  }

  /** Appends a resting order at the back of its level's queue. */
  rest(o: E): PriceLevel<E> {
    const level = this.side(o.isBid).levelAt(o.yesPrice);
    level.append(o);
    this.changeTotal(level, o.remaining);
    return level;
  }

  /** Takes a resting order off the book (cancel, expiry). */
  remove(o: E): PriceLevel<E> {
    const level = o.level as PriceLevel<E>;
    level.unlink(o);
    this.changeTotal(level, -o.remaining);
    if (level.count === 0) this.side(level.isBid).drop(level);
    return level;
  }

  /** Adds `delta` to a level's aggregate size and updates the hash. */
  changeTotal(level: PriceLevel<E>, delta: Micros): void {
    const before = level.total;
    const after = before + delta;
    if (before > 0) {
      this.#laneA = (this.#laneA - levelHashA(level.isBid, level.price, before)) >>> 0;
      this.#laneB = (this.#laneB - levelHashB(level.isBid, level.price, before)) >>> 0;
    }
    if (after > 0) {
      this.#laneA = (this.#laneA + levelHashA(level.isBid, level.price, after)) >>> 0;
      this.#laneB = (this.#laneB + levelHashB(level.isBid, level.price, after)) >>> 0;
    }
    level.total = after;
  }

  hash(tokenIndex: OutcomeIndex): string {
    return formatBookHash(this.#laneA, this.#laneB, this.#tokenSalts[tokenIndex], this.tickSize);
  }

  /** Best bid of a token in its own terms. */
  bestBid(tokenIndex: OutcomeIndex): Micros | undefined {
    if (tokenIndex === 0) return this.bids.best()?.price;
    const a = this.asks.best();
    return a === undefined ? undefined : MICROS_PER_UNIT - a.price;
  }

  bestAsk(tokenIndex: OutcomeIndex): Micros | undefined {
    if (tokenIndex === 0) return this.asks.best()?.price;
    const b = this.bids.best();
    return b === undefined ? undefined : MICROS_PER_UNIT - b.price;
  }

  lastTradePrice(tokenIndex: OutcomeIndex): Micros | undefined {
    const x = this.lastTradeYesPrice;
    if (x === undefined) return undefined;
    return tokenIndex === 0 ? x : MICROS_PER_UNIT - x;
  }

  top(tokenIndex: OutcomeIndex): TokenTop {
    return {
      tokenId: this.tokenIds[tokenIndex],
      hash: this.hash(tokenIndex),
      bestBid: this.bestBid(tokenIndex),
      bestAsk: this.bestAsk(tokenIndex),
    };
  }

  /** Levels of one token's book, best first: bids descending, asks ascending, own terms. */
  levels(tokenIndex: OutcomeIndex): { bids: BookLevel[]; asks: BookLevel[] } {
    if (tokenIndex === 0) return { bids: aggregate(this.bids, false), asks: aggregate(this.asks, false) };
    return { bids: aggregate(this.asks, true), asks: aggregate(this.bids, true) };
  }
}

function aggregate<E extends BookEntry<E>>(side: BookSide<E>, mirror: boolean): BookLevel[] {
  const levels = side.levels;
  const out = new Array<BookLevel>(levels.length);
  for (let i = levels.length - 1, j = 0; i >= 0; i--, j++) {
    const l = levels[i] as PriceLevel<E>;
    out[j] = Object.freeze({ price: mirror ? MICROS_PER_UNIT - l.price : l.price, size: l.total });
  }
  return out;
}
