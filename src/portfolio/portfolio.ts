import type { Micros } from '../core/fixed.ts';
import { MICROS as SCALE, notionalPicos } from '../core/money.ts';
import type { Side, TokenId } from '../core/types.ts';
import { NO_SETS, setHoldings, type CompleteSetShape } from './complete-sets.ts';

interface Book {
  size: bigint; // Micros of tokens held (>= 0)
  cost: bigint; // price × size in Micros² (exact cost basis of the open size)
  realized: bigint; // Micros² of realized PnL
}

export interface PositionView {
  readonly tokenId: TokenId;
  readonly size: Micros;
  readonly avgPrice: Micros;
  readonly realizedPnl: Micros;
}

export interface PortfolioTotals {
  /** Collateral held: the starting (or the venue's) balance moved by every fill since. */
  readonly cash: Micros;
  /**
   * What the open positions are worth: the shares inside complete sets at the set's payout (1 per
   * set, `setValue`), the rest at size × mark (a position without a mark at its cost).
   */
  readonly positionValue: Micros;
  /** Complete sets held (YES+NO pairs and full YES sets of non-augmented neg-risk events), Micros of sets. */
  readonly completeSets: Micros;
  /** What the complete sets pay (1 per set): the part of `positionValue` not marked to mid. */
  readonly setValue: Micros;
  /** The same shares at their marks (at cost where unmarked): what mark-to-mid would have said of them. */
  readonly setMarkValue: Micros;
  readonly fees: Micros;
  readonly realizedPnl: Micros;
  readonly unrealizedPnl: Micros;
  readonly fills: number;
  /** Σ price × size of every fill. */
  readonly turnover: Micros;
}

/** A token's position as `Portfolio.tokenState` copies it: size (Micros), cost basis and realized PnL (Micros²). */
export interface TokenBookState {
  readonly size: bigint;
  readonly cost: bigint;
  readonly realized: bigint;
}

/** A position closed by a market's resolution (Portfolio.settle). */
export interface Settlement {
  readonly tokenId: TokenId;
  /** Shares held when the market resolved (signed). */
  readonly size: Micros;
  /** What one share paid: 1 (winner), 0 (loser) or 0.5 (no winner), in Micros. */
  readonly payout: Micros;
  /** Cash received: payout x size. */
  readonly proceeds: Micros;
  /** PnL the settlement realized: proceeds less the cost basis of the size. */
  readonly realizedPnl: Micros;
}

/**
 * Positions, average prices, realized and unrealized PnL, fees and collateral, from fills.
 * Exact: cost bases are kept as bigint products of Micros and only rounded (toward zero) when
 * reported. Positions are long-only per outcome token (a short view is a long in the
 * complement), so a SELL larger than the held size is an error of the caller's data.
 */
export class Portfolio {
  readonly #books = new Map<TokenId, Book>();
  #balance: bigint;
  #fees = 0n;
  #fills = 0;
  #turnover = 0n;
  #shape: CompleteSetShape = NO_SETS;
  #version = 0;

  constructor(startingBalance: Micros) {
    this.#balance = BigInt(startingBalance);
  }

  applyFill(fill: { tokenId: TokenId; side: Side; price: Micros; size: Micros; fee: Micros }): void {
    const fee = BigInt(fill.fee);
    const notional2 = notionalPicos(fill.price, fill.size); // Micros²
    this.#version++;
    this.#fills++;
    this.#turnover += notional2;
    this.#fees += fee;
    moveBook(this.#book(fill.tokenId), fill.side, fill.price, fill.size, notional2);
    if (fill.side === 'BUY') this.#balance -= notional2 / SCALE + fee;
    else this.#balance += notional2 / SCALE - fee;
  }

  /**
   * Closes the position in a token of a resolved market at its payout (1 for the winner, 0 for
   * the loser, in Micros): the open size leaves at that price, so realized PnL takes payout x size
   * less the cost basis, and the cash takes payout x size (the venue redeems the tokens). Not a
   * fill: fills, fees and turnover stay. Returns what was settled (size 0: nothing was held).
   */
  settle(tokenId: TokenId, payout: Micros): Settlement {
    const book = this.#books.get(tokenId);
    if (!book || book.size === 0n) return { tokenId, size: 0, payout, proceeds: 0, realizedPnl: 0 };
    this.#version++;
    const value2 = BigInt(payout) * book.size; // Micros²
    const realized2 = value2 - book.cost;
    book.realized += realized2;
    this.#balance += value2 / SCALE;
    const size = Number(book.size);
    book.size = 0n;
    book.cost = 0n;
    return { tokenId, size, payout, proceeds: Number(value2 / SCALE), realizedPnl: Number(realized2 / SCALE) };
  }

  /** A copy of a token's position (size, cost basis, realized PnL), to rebuild it from (`voidFill`). */
  tokenState(tokenId: TokenId): TokenBookState {
    const book = this.#books.get(tokenId);
    return book === undefined ? { size: 0n, cost: 0n, realized: 0n } : { size: book.size, cost: book.cost, realized: book.realized };
  }

  /**
   * Takes back a fill whose trade FAILED on chain: cash, fees, turnover and the fill count are as
   * if it had never been applied, and the token's position is rebuilt from `base` (its state
   * before the first of `kept`) through `kept`, the token's fills since then still standing, in
   * order. Average-cost PnL depends on the order of fills, so replaying them is what makes the
   * result exact.
   */
  voidFill(fill: { tokenId: TokenId; side: Side; price: Micros; size: Micros; fee: Micros }, base: TokenBookState, kept: Iterable<{ side: Side; price: Micros; size: Micros }>): void {
    const notional2 = notionalPicos(fill.price, fill.size);
    const fee = BigInt(fill.fee);
    this.#version++;
    this.#fills--;
    this.#turnover -= notional2;
    this.#fees -= fee;
    this.#balance += fill.side === 'BUY' ? notional2 / SCALE + fee : -(notional2 / SCALE) + fee;
    const book = this.#book(fill.tokenId);
    book.size = base.size;
    book.cost = base.cost;
    book.realized = base.realized;
    for (const f of kept) moveBook(book, f.side, f.price, f.size, notionalPicos(f.price, f.size));
  }

  /**
   * Which tokens make complete sets (complete-sets.ts), from the markets the run tracks: the
   * shares inside them are valued at the set's payout in `totals` and `pnl`, not at their marks.
   */
  setCompleteSets(shape: CompleteSetShape): void {
    this.#shape = shape;
    this.#version++;
  }

  get completeSetShape(): CompleteSetShape {
    return this.#shape;
  }

  /** Sets collateral from the venue (reconciliation). */
  setBalance(balance: Micros): void {
    this.#balance = BigInt(balance);
    this.#version++;
  }

  /**
   * Changes whenever anything `totals`, `pnl` or `positions` read may have (a fill, a settlement,
   * a voided fill, the balance, the complete sets): a caller that values the portfolio often at
   * the same marks (the backtest's equity trail) keeps its result while this and the marks stay.
   */
  get version(): number {
    return this.#version;
  }

  position(tokenId: TokenId): PositionView {
    const book = this.#books.get(tokenId);
    if (!book) return { tokenId, size: 0, avgPrice: 0, realizedPnl: 0 };
    return {
      tokenId,
      size: Number(book.size),
      avgPrice: book.size === 0n ? 0 : Number(book.cost / book.size),
      realizedPnl: Number(book.realized / SCALE),
    };
  }

  /** Tokens ever traded, in the order of their first fill. */
  tokenIds(): IterableIterator<TokenId> {
    return this.#books.keys();
  }

  /** Signed shares held in a token; undefined when it was never traded. */
  size(tokenId: TokenId): Micros | undefined {
    const book = this.#books.get(tokenId);
    return book === undefined ? undefined : Number(book.size);
  }

  positions(): PositionView[] {
    return [...this.#books.keys()].map((id) => this.position(id));
  }

  balance(): Micros {
    return Number(this.#balance);
  }

  /**
   * Realized + unrealized PnL - fees, as `totals` would sum them (each part rounded as there),
   * without the parts it does not need: risk reads it for every batch (the daily loss limit).
   */
  pnl(mark: (tokenId: TokenId) => Micros | undefined): Micros {
    const sums = this.#marked(mark);
    return Number(sums.realized / SCALE) + Number(sums.unrealized / SCALE) - Number(this.#fees);
  }

  /** Totals, marking open positions at `mark(tokenId)` (undefined: at cost), complete sets at their payout. */
  totals(mark: (tokenId: TokenId) => Micros | undefined): PortfolioTotals {
    const { realized, unrealized, value, sets, setMark } = this.#marked(mark);
    return {
      cash: Number(this.#balance),
      positionValue: Number(value / SCALE),
      completeSets: Number(sets),
      setValue: Number(sets),
      setMarkValue: Number(setMark / SCALE),
      fees: Number(this.#fees),
      realizedPnl: Number(realized / SCALE),
      unrealizedPnl: Number(unrealized / SCALE),
      fills: this.#fills,
      turnover: Number(this.#turnover / SCALE),
    };
  }

  /**
   * Σ realized, Σ (value - cost) and Σ value over the tokens, Micros²: the shares inside complete
   * sets (setHoldings) at 1 per set, the others at size × mark (at cost when unmarked); also the
   * sets held (Micros) and their shares at their marks (Micros²).
   */
  #marked(mark: (tokenId: TokenId) => Micros | undefined): { realized: bigint; unrealized: bigint; value: bigint; sets: bigint; setMark: bigint } {
    const held = this.#shape === NO_SETS ? undefined : setHoldings(this.#shape, (t) => this.#books.get(t)?.size ?? 0n);
    let realized = 0n;
    let unrealized = 0n;
    let value = 0n;
    let setCost = 0n;
    let setMark = 0n;
    for (const [tokenId, book] of this.#books) {
      realized += book.realized;
      if (book.size === 0n) continue;
      const m = mark(tokenId);
      const inSets = held?.inSets.get(tokenId) ?? 0n;
      const costIn = inSets === 0n ? 0n : (book.cost * inSets) / book.size;
      const rest = book.size - inSets;
      const costRest = book.cost - costIn;
      if (inSets !== 0n) {
        setCost += costIn;
        setMark += m === undefined ? costIn : BigInt(m) * inSets;
      }
      if (m !== undefined) {
        const marked = BigInt(m) * rest;
        unrealized += marked - costRest;
        value += marked;
      } else {
        value += costRest;
      }
    }
    const sets = held?.sets ?? 0n;
    value += sets * SCALE;
    unrealized += sets * SCALE - setCost;
    return { realized, unrealized, value, sets, setMark };
  }

  #book(tokenId: TokenId): Book {
    let book = this.#books.get(tokenId);
    if (!book) {
      book = { size: 0n, cost: 0n, realized: 0n };
      this.#books.set(tokenId, book);
    }
    return book;
  }
}

/** A fill's effect on a token's position: a BUY adds to size and cost; a SELL closes at average cost (realizing PnL), and past the size held opens a short at its price. */
function moveBook(book: Book, side: Side, priceMicros: Micros, sizeMicros: Micros, notional2: bigint): void {
  const size = BigInt(sizeMicros);
  if (side === 'BUY') {
    book.size += size;
    book.cost += notional2;
    return;
  }
  const price = BigInt(priceMicros);
  // only a long position is closed; below zero (a buy voided after the sale) a sale adds to the short
  const held = book.size > 0n ? book.size : 0n;
  const closing = size > held ? held : size;
  if (closing > 0n) {
    const costOut = (book.cost * closing) / book.size;
    book.realized += price * closing - costOut;
    book.cost -= costOut;
    book.size -= closing;
  }
  if (size > closing) {
    // Selling more than held: record as a negative position at this price (venue-side short).
    const extra = size - closing;
    book.size -= extra;
    book.cost -= price * extra;
  }
}
