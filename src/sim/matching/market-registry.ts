import { ParameterError } from '../../core/errors.ts';
import { MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';
import { MarketBook } from './market-book.ts';
import type { OutcomeIndex, SimMarketConfig } from '../types.ts';
import type { OrderRecord } from './order-record.ts';

/** A token's market book and its outcome in it. */
export interface TokenRef {
  readonly book: MarketBook<OrderRecord>;
  readonly index: OutcomeIndex;
}

/**
 * The markets the matching engine lists: one book per market, each token pointing to its
 * market's book. Checks a market's rules when it is listed and when its tick changes.
 */
export class MarketRegistry {
  readonly #sizeLot: Micros;
  readonly #markets = new Map<ConditionId, MarketBook<OrderRecord>>();
  readonly #tokens = new Map<TokenId, TokenRef>();

  constructor(sizeLot: Micros) {
    this.#sizeLot = sizeLot;
  }

  add(config: SimMarketConfig): void {
    const where = 'MatchingEngine.addMarket';
    if (this.#markets.has(config.conditionId)) throw new ParameterError(where, 'conditionId', `${config.conditionId} is already listed`);
    const [yes, no] = config.tokenIds;
    if (yes === no) throw new ParameterError(where, 'tokenIds', 'must be two distinct token ids');
    for (const t of config.tokenIds) {
      if (this.#tokens.has(t)) throw new ParameterError(where, 'tokenIds', `token ${t} already belongs to a market`);
    }
    this.checkTick(where, config.tickSize);
    if (!Number.isSafeInteger(config.minOrderSize) || config.minOrderSize < 0) {
      throw new ParameterError(where, 'minOrderSize', `must be a non-negative integer of micros, was ${config.minOrderSize}`);
    }
    checkBps(where, 'makerBaseFeeBps', config.makerBaseFeeBps);
    checkBps(where, 'takerBaseFeeBps', config.takerBaseFeeBps);
    const book = new MarketBook<OrderRecord>(config);
    this.#markets.set(config.conditionId, book);
    this.#tokens.set(yes, { book, index: 0 });
    this.#tokens.set(no, { book, index: 1 });
  }

  /** A market's config as it stands, frozen. */
  config(conditionId: ConditionId): SimMarketConfig | undefined {
    const b = this.#markets.get(conditionId);
    if (b === undefined) return undefined;
    return Object.freeze({
      conditionId: b.conditionId,
      tokenIds: b.tokenIds,
      tickSize: b.tickSize,
      minOrderSize: b.minOrderSize,
      negRisk: b.negRisk,
      makerBaseFeeBps: b.makerFeeBps,
      takerBaseFeeBps: b.takerFeeBps,
      acceptingOrders: b.acceptingOrders,
    });
  }

  conditionIds(): IterableIterator<ConditionId> {
    return this.#markets.keys();
  }

  books(): IterableIterator<MarketBook<OrderRecord>> {
    return this.#markets.values();
  }

  /** The books an order query can touch: one token's, one market's, or all. */
  booksFor(query: { conditionId?: ConditionId; tokenId?: TokenId }): MarketBook<OrderRecord>[] {
    if (query.tokenId !== undefined) {
      const ref = this.#tokens.get(query.tokenId);
      return ref === undefined ? [] : [ref.book];
    }
    if (query.conditionId !== undefined) {
      const book = this.#markets.get(query.conditionId);
      return book === undefined ? [] : [book];
    }
    return [...this.#markets.values()];
  }

  token(tokenId: TokenId): TokenRef | undefined {
    return this.#tokens.get(tokenId);
  }

  /** The book of a listed market, else a ParameterError naming `where`. */
  book(where: string, conditionId: ConditionId): MarketBook<OrderRecord> {
    const b = this.#markets.get(conditionId);
    if (b === undefined) throw new ParameterError(where, 'conditionId', `${conditionId} is not a listed market`);
    return b;
  }

  /** The ref of a listed token, else a ParameterError naming `where`. */
  ref(where: string, tokenId: TokenId): TokenRef {
    const r = this.#tokens.get(tokenId);
    if (r === undefined) throw new ParameterError(where, 'tokenId', `${tokenId} is not a listed token`);
    return r;
  }

  checkTick(where: string, tick: Micros): void {
    if (!Number.isSafeInteger(tick) || tick <= 0 || tick > MICROS_PER_UNIT / 2 || (tick * this.#sizeLot) % MICROS_PER_UNIT !== 0) {
      throw new ParameterError(where, 'tickSize', `must be a positive integer of micros up to 0.5 with tick × sizeLot a whole number of micros, was ${tick}`);
    }
  }
}

function checkBps(where: string, name: string, bps: number): void {
  if (!Number.isSafeInteger(bps) || bps < 0 || bps > 10_000) {
    throw new ParameterError(where, name, `must be an integer from 0 to 10000, was ${bps}`);
  }
}
