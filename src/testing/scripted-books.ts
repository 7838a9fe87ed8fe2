import { TestingError } from './testing-error.ts';
import { parseMicros, type Micros } from '../core/fixed.ts';
import type { MarketEvent } from '../core/events.ts';
import type { BookLevel, EventInfo, Side, TokenId } from '../core/types.ts';
import type { RecordedMarket, RecordingHeader } from '../data/recording/format.ts';
import { createRecordingWriter } from '../data/recording/writer.ts';
import type { BacktestData } from '../backtest/backtest-data.ts';

/** A price level as decimal text (or numbers): `['0.45', '100']` is 100 shares at 0.45. */
export type ScriptLevel = readonly [price: string | number, size: string | number];

export interface ScriptedMarketOptions {
  /** Default `market-<n>`. */
  readonly slug?: string;
  readonly question?: string;
  /** Decimal text; default '0.01'. */
  readonly tickSize?: string;
  /** Decimal text, shares; default '5'. */
  readonly minOrderSize?: string;
  readonly negRisk?: boolean;
  readonly makerFeeBps?: number;
  readonly takerFeeBps?: number;
  /** Outcome names; default Yes and No. */
  readonly outcomes?: readonly [string, string];
  /**
   * The market pays liquidity rewards (docs/rewards.md): USDC a day, the minimum size in shares
   * (decimal text) and the band in cents; `MarketSnapshot.rules.rewards` shows them.
   */
  readonly rewards?: { readonly dailyRate: number; readonly minSize: string; readonly maxSpreadCents: number };
  /**
   * The event the market belongs to: its slug, or the event's description. Markets naming the
   * same slug are that event's markets (in the order added); its flags are set by the first
   * market that names it (a later one that says otherwise is an error). A neg-risk event's markets
   * are neg-risk markets (`negRisk` defaults to the event's).
   */
  readonly event?: string | ScriptedEventOptions;
  /** The market's matching delay, seconds (the venue's `seconds_delay`): marketable orders wait this long; default none. */
  readonly secondsDelay?: number;
  /** When the market ends, epoch ms on the script's clock (`MarketSnapshot.rules.endDate`); default none. */
  readonly endDate?: number;
}

/** An event of the script (`market({ event })`). */
export interface ScriptedEventOptions {
  readonly slug: string;
  /** Default: the slug. */
  readonly title?: string;
  /** Mutually exclusive outcomes (one market each); default false. */
  readonly negRisk?: boolean;
  /** An implicit "Other" outcome not listed (the venue's `negRiskAugmented`); default false. */
  readonly augmented?: boolean;
}

/** A market of the script: its condition id and its two outcome tokens. */
export interface ScriptedMarket {
  readonly conditionId: string;
  readonly slug: string;
  /** The first outcome's token (Yes). */
  readonly yes: TokenId;
  /** The second outcome's token (No). */
  readonly no: TokenId;
  /** The id of the market's event (`ctx.event(id)`), when it has one. */
  readonly eventId: string | undefined;
}

/** Epoch ms the script's time 0 stands for unless told otherwise (2026-01-01T00:00:00Z). */
export const SCRIPT_START_MS = 1_767_225_600_000;

/**
 * Scripted market data for a strategy test: markets, then book snapshots, trade prints, followed
 * wallets' trades and tick size changes at virtual times (ms after the start). Prices and sizes are decimal text, read
 * exactly. `runStrategy` replays it through the backtest; `write` saves it as a recording file
 * that `clobot backtest --data` reads.
 *
 * ```ts
 * const script = scriptedBooks();
 * const m = script.market({ slug: 'rain' });
 * script.at(0).book(m.yes, { bids: [['0.45', '100']], asks: [['0.55', '100']] });
 * script.at(1_000).trade(m.yes, { side: 'BUY', price: '0.55', size: '20' });
 * script.at(2_000).walletTrade(m.yes, { wallet: '0xabc…', side: 'BUY', price: '0.55', size: '50' });
 * ```
 */
export class ScriptedBooks {
  readonly startMs: number;
  readonly #markets: RecordedMarket[] = [];
  readonly #conditionOf = new Map<TokenId, string>();
  /** The script's events by slug, each with its markets' condition ids in the order added. */
  readonly #scriptEvents = new Map<string, { id: string; slug: string; title: string; negRisk: boolean; augmented: boolean; markets: string[] }>();
  readonly #events: MarketEvent[] = [];
  #now = 0;
  #seq = 0;
  /** The script has wallet trades: its header says recording version 3. */
  #walletTrades = false;
  /** The script has market closes or resolutions: its header says at least version 2. */
  #lifecycle = false;

  constructor(startMs: number = SCRIPT_START_MS) {
    this.startMs = startMs;
  }

  /** Adds a binary market; returns its condition id and token ids. Markets come before events. */
  market(options: ScriptedMarketOptions = {}): ScriptedMarket {
    const n = this.#markets.length + 1;
    const slug = options.slug ?? `market-${n}`;
    if (this.#markets.some((m) => m.slug === slug)) throw new TestingError(`scriptedBooks: market slug '${slug}' used twice`);
    const conditionId = '0x' + n.toString(16).padStart(64, '0');
    const yes = String(100 + 2 * n - 1);
    const no = String(100 + 2 * n);
    const [first, second] = options.outcomes ?? ['Yes', 'No'];
    decimal(options.tickSize ?? '0.01', `market '${slug}' tickSize`);
    decimal(options.minOrderSize ?? '5', `market '${slug}' minOrderSize`);
    const delay = options.secondsDelay;
    if (delay !== undefined && (typeof delay !== 'number' || !Number.isFinite(delay) || delay < 0)) {
      throw new TestingError(`scriptedBooks: market '${slug}' secondsDelay must be a number of seconds >= 0, was ${String(delay)}`);
    }
    const endDate = options.endDate;
    if (endDate !== undefined && (typeof endDate !== 'number' || !Number.isSafeInteger(endDate) || endDate < 0)) {
      throw new TestingError(`scriptedBooks: market '${slug}' endDate must be epoch milliseconds (an integer >= 0), was ${String(endDate)}`);
    }
    const event = options.event === undefined ? undefined : this.#event(options.event, slug);
    event?.markets.push(conditionId);
    const negRisk = options.negRisk ?? event?.negRisk ?? false;
    const rewards = options.rewards;
    if (rewards !== undefined) {
      decimal(rewards.minSize, `market '${slug}' rewards.minSize`);
      if (!(rewards.dailyRate >= 0) || !(rewards.maxSpreadCents > 0)) throw new TestingError(`scriptedBooks: market '${slug}' rewards: dailyRate must be >= 0 and maxSpreadCents > 0`);
    }
    this.#markets.push({
      conditionId,
      question: options.question ?? `${slug}?`,
      slug,
      negRisk,
      ...(negRisk && event !== undefined ? { negRiskMarketId: '0x' + ('e' + event.id).padStart(64, '0') } : {}),
      tickSize: options.tickSize ?? '0.01',
      minOrderSize: options.minOrderSize ?? '5',
      makerBaseFeeBps: options.makerFeeBps ?? 0,
      takerBaseFeeBps: options.takerFeeBps ?? 0,
      ...(delay !== undefined && delay > 0 ? { secondsDelay: delay } : {}),
      ...(endDate !== undefined ? { endDate } : {}),
      tokens: [
        { tokenId: yes, outcome: first },
        { tokenId: no, outcome: second },
      ],
      ...(rewards !== undefined ? { rewards: { dailyRate: rewards.dailyRate, minSize: rewards.minSize, maxSpreadCents: rewards.maxSpreadCents } } : {}),
    });
    this.#conditionOf.set(yes, conditionId);
    this.#conditionOf.set(no, conditionId);
    return { conditionId, slug, yes, no, eventId: event?.id };
  }

  /** The script's event of a slug, made by its first mention; a later mention must not change its flags. */
  #event(given: string | ScriptedEventOptions, market: string): { id: string; slug: string; title: string; negRisk: boolean; augmented: boolean; markets: string[] } {
    const o = typeof given === 'string' ? { slug: given } : given;
    if (typeof o.slug !== 'string' || o.slug.length === 0) throw new TestingError(`scriptedBooks: market '${market}' event needs a slug`);
    const held = this.#scriptEvents.get(o.slug);
    if (held === undefined) {
      const made = { id: String(this.#scriptEvents.size + 1), slug: o.slug, title: o.title ?? o.slug, negRisk: o.negRisk ?? false, augmented: o.augmented ?? false, markets: [] };
      this.#scriptEvents.set(o.slug, made);
      return made;
    }
    for (const key of ['title', 'negRisk', 'augmented'] as const) {
      if (o[key] !== undefined && o[key] !== held[key]) {
        throw new TestingError(`scriptedBooks: market '${market}' says event '${o.slug}' has ${key} ${String(o[key])}, an earlier market said ${String(held[key])}`);
      }
    }
    return held;
  }

  /** Moves the script's clock to `ms` after the start; later calls add events at that time. Never backwards. */
  at(ms: number): this {
    if (!Number.isFinite(ms) || ms < this.#now) throw new TestingError(`scriptedBooks.at(${ms}): time must be a number >= ${this.#now} (the script's time never goes back)`);
    this.#now = ms;
    return this;
  }

  /** Moves the script's clock forward by `ms`. */
  after(ms: number): this {
    return this.at(this.#now + ms);
  }

  /** The whole book of one token at the current time: bids best (highest) first, asks best (lowest) first. */
  book(tokenId: TokenId, sides: { readonly bids?: readonly ScriptLevel[]; readonly asks?: readonly ScriptLevel[] }): this {
    const t = this.#time();
    const conditionId = this.#condition(tokenId);
    const bids = levels(sides.bids ?? [], `book(${tokenId}) bids`).sort((a, b) => b.price - a.price);
    const asks = levels(sides.asks ?? [], `book(${tokenId}) asks`).sort((a, b) => a.price - b.price);
    this.#events.push({
      type: 'book',
      book: { tokenId, conditionId, hash: `s${++this.#seq}`, bids, asks, tsEvent: t, tsInit: t, tickSize: undefined, minOrderSize: undefined, negRisk: undefined, lastTradePrice: undefined },
      tsEvent: t,
      tsInit: t,
    });
    return this;
  }

  /** A trade print on one token at the current time (`side`: the taker's). */
  trade(tokenId: TokenId, print: { readonly side: Side; readonly price: string | number; readonly size: string | number }): this {
    const t = this.#time();
    this.#condition(tokenId);
    const price = decimal(print.price, `trade(${tokenId}) price`);
    const size = decimal(print.size, `trade(${tokenId}) size`);
    this.#events.push({ type: 'trade', tokenId, price, size, side: print.side, tsEvent: t, tsInit: t });
    return this;
  }

  /**
   * A trade of a followed wallet at the current time (what `onWalletTrade` hears; a recording's
   * `walletTrade`). `wallet` is a 0x address (any case; heard lowercase); `txHash` defaults to a
   * new one per call: give the same hash to several calls for one transaction of several fills.
   * A token outside the script's markets needs its `conditionId`.
   */
  walletTrade(
    tokenId: TokenId,
    trade: {
      readonly wallet: string;
      readonly side: Side;
      readonly price: string | number;
      readonly size: string | number;
      readonly txHash?: string;
      readonly conditionId?: string;
      /** When the wallet traded, ms after the start (default: now): earlier than now is a trade heard late (a poll after it). */
      readonly tradedAt?: number;
    },
  ): this {
    const t = this.#time();
    const wallet = typeof trade.wallet === 'string' ? trade.wallet.toLowerCase() : '';
    if (!/^0x[0-9a-f]{40}$/.test(wallet)) throw new TestingError(`scriptedBooks walletTrade(${tokenId}) wallet: '${String(trade.wallet)}' is not a 0x address of 40 hex digits`);
    if (trade.side !== 'BUY' && trade.side !== 'SELL') throw new TestingError(`scriptedBooks walletTrade(${tokenId}) side: must be 'BUY' or 'SELL', was '${String(trade.side)}'`);
    const conditionId = this.#conditionOf.get(tokenId) ?? trade.conditionId;
    if (conditionId === undefined) throw new TestingError(`scriptedBooks walletTrade(${tokenId}): the token is not one of the script's markets, so give its conditionId`);
    const txHash = trade.txHash ?? '0x' + (++this.#seq).toString(16).padStart(64, '0');
    if (typeof txHash !== 'string' || txHash.length === 0) throw new TestingError(`scriptedBooks walletTrade(${tokenId}) txHash: must be a non-empty string`);
    const price = decimal(trade.price, `walletTrade(${tokenId}) price`);
    const size = decimal(trade.size, `walletTrade(${tokenId}) size`);
    const tradedAt = trade.tradedAt;
    if (tradedAt !== undefined && !(Number.isFinite(tradedAt) && tradedAt >= 0 && tradedAt <= this.#now)) {
      throw new TestingError(`scriptedBooks walletTrade(${tokenId}) tradedAt: must be a time from 0 to now (${this.#now}), was ${String(tradedAt)}`);
    }
    const ts = tradedAt === undefined ? t : this.startMs + tradedAt;
    this.#walletTrades = true;
    this.#events.push({ type: 'walletTrade', trade: { wallet, txHash, tokenId, conditionId, side: trade.side, price, size, ts }, tsEvent: ts, tsInit: t });
    return this;
  }

  /**
   * The market closes at the current time (a recording's `close`): it takes no more orders, and
   * strategies hear `MarketClosed`. Give the market as `market()` returned it or its condition id.
   */
  close(market: ScriptedMarket | string): this {
    const t = this.#time();
    const m = this.#scripted(market, 'close');
    this.#lifecycle = true;
    this.#events.push({ type: 'marketClosed', conditionId: m.conditionId, tokenIds: m.tokens.map((x) => x.tokenId), tsEvent: t, tsInit: t });
    return this;
  }

  /**
   * The market resolves at the current time (a recording's `resolve`): `winner` (one of its token
   * ids) pays 1 a share, the other 0; undefined: resolved with no winner (0.5 each). Positions are
   * settled at that payout and strategies hear `MarketResolved`.
   */
  resolve(market: ScriptedMarket | string, winner: TokenId | undefined): this {
    const t = this.#time();
    const m = this.#scripted(market, 'resolve');
    const tokenIds = m.tokens.map((x) => x.tokenId);
    if (winner !== undefined && !tokenIds.includes(winner)) throw new TestingError(`scriptedBooks resolve(${m.slug}): winner '${String(winner)}' is not one of the market's tokens (${tokenIds.join(', ')})`);
    this.#lifecycle = true;
    this.#events.push({ type: 'marketResolved', conditionId: m.conditionId, tokenIds, winnerTokenId: winner, tsEvent: t, tsInit: t });
    return this;
  }

  /** The venue changes a token's tick size at the current time. */
  tickSize(tokenId: TokenId, tick: string): this {
    const t = this.#time();
    this.#condition(tokenId);
    this.#events.push({ type: 'tickSize', tokenId, tickSize: decimal(tick, `tickSize(${tokenId})`), tsEvent: t, tsInit: t });
    return this;
  }

  get header(): RecordingHeader {
    const events: EventInfo[] = [...this.#scriptEvents.values()].map((e) => ({
      id: e.id,
      slug: e.slug,
      title: e.title,
      negRisk: e.negRisk,
      augmented: e.augmented,
      marketConditionIds: [...e.markets],
    }));
    return {
      format: 'clobot-recording',
      version: this.#walletTrades ? 3 : this.#lifecycle ? 2 : 1,
      createdAt: this.startMs,
      source: 'clobot/testing:scripted',
      markets: [...this.#markets],
      ...(events.length > 0 ? { events } : {}),
    };
  }

  get events(): readonly MarketEvent[] {
    return this.#events;
  }

  /** The script as backtest data (what `runStrategy` replays). */
  toData(name = 'scripted'): BacktestData {
    if (this.#markets.length === 0) throw new TestingError('scriptedBooks: no market (call market() first)');
    const header = this.header;
    const events = [...this.#events];
    return { name, header, events: () => events };
  }

  /** Writes the script as a recording file (JSON lines, gzipped when the name ends in .gz). */
  async write(path: string): Promise<void> {
    const writer = createRecordingWriter(path, this.toData().header);
    for (const event of this.#events) writer.write(event);
    await writer.close();
  }

  #scripted(market: ScriptedMarket | string, call: string): RecordedMarket {
    const conditionId = typeof market === 'string' ? market : market?.conditionId;
    const m = this.#markets.find((x) => x.conditionId === conditionId);
    if (m === undefined) throw new TestingError(`scriptedBooks ${call}: '${String(conditionId)}' is not a market of this script`);
    return m;
  }

  #condition(tokenId: TokenId): string {
    const conditionId = this.#conditionOf.get(tokenId);
    if (conditionId === undefined) throw new TestingError(`scriptedBooks: token '${tokenId}' is not a token of a market of this script`);
    return conditionId;
  }

  #time(): number {
    if (this.#markets.length === 0) throw new TestingError('scriptedBooks: add the markets first (market()), then the events');
    return this.startMs + this.#now;
  }
}

/** A new, empty script (time 0 = `startMs`, default SCRIPT_START_MS). */
export function scriptedBooks(options: { readonly startMs?: number } = {}): ScriptedBooks {
  return new ScriptedBooks(options.startMs);
}

function decimal(value: string | number, where: string): Micros {
  const m = typeof value === 'number' ? (Number.isFinite(value) ? parseMicros(String(value)) : NaN) : parseMicros(value);
  if (!Number.isSafeInteger(m) || m < 0) throw new TestingError(`scriptedBooks ${where}: '${String(value)}' is not a decimal >= 0 with at most 6 decimals`);
  return m;
}

function levels(list: readonly ScriptLevel[], where: string): BookLevel[] {
  return list.map(([price, size], i) => ({ price: decimal(price, `${where}[${i}] price`), size: decimal(size, `${where}[${i}] size`) }));
}
