import type { Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import type { TokenId } from '../core/types.ts';

/** The horizons our fills are marked out at: 1 s, 10 s and 60 s after the fill. */
export const MARKOUT_HORIZONS_MS: readonly number[] = [1_000, 10_000, 60_000];

/** One horizon's mark-outs over the run. */
export interface MarkoutRow {
  readonly horizonMs: number;
  /** Fills marked at this horizon (a fill too close to the end of the data, or on a token without a mark, is not). */
  readonly fills: number;
  /**
   * Σ (mark at fill + horizon − fill price) × size, signed for our side (a BUY gains when the mark
   * rises): what the fills earned against the market's later price. Negative is adverse selection.
   */
  readonly pnl: Micros;
  /** Σ size of the fills marked (shares), for the average per share. */
  readonly size: Micros;
}

interface Pending {
  readonly due: number;
  readonly tokenId: TokenId;
  readonly sign: 1 | -1;
  readonly price: Micros;
  readonly size: Micros;
  readonly horizon: number;
}

/**
 * Adverse selection as mark-outs: each of our fills is compared with the token's mark (the mid of
 * its book) 1 s, 10 s and 60 s later. The mark at a time is the one of the last book at or before
 * it, so a fill is settled when the first book after its due time arrives (with the mark before
 * that book), or at the end of the data. Integer arithmetic: exact.
 */
export class MarkoutTracker {
  /** Each token's fills waiting for their mark, its last mark, and the earliest due time waiting. */
  readonly #tokens = new Map<TokenId, TokenMarkouts>();
  readonly #rows = MARKOUT_HORIZONS_MS.map((h) => ({ horizonMs: h, fills: 0, pnl: 0, size: 0 }));

  onFill(tokenId: TokenId, side: 'BUY' | 'SELL', price: Micros, size: Micros, t: number): void {
    const token = this.#token(tokenId);
    const sign = side === 'BUY' ? 1 : -1;
    for (let horizon = 0; horizon < MARKOUT_HORIZONS_MS.length; horizon++) {
      const due = t + MARKOUT_HORIZONS_MS[horizon]!;
      token.pending.push({ due, tokenId, sign, price, size, horizon });
      if (due < token.nextDue) token.nextDue = due;
    }
  }

  /**
   * A book of `tokenId` at `t` gave it `mark`: fills due before `t` are marked at the mark before
   * it. Called for every replayed book: one lookup, and nothing more until a fill is due.
   */
  onMark(tokenId: TokenId, t: number, mark: Micros | undefined): void {
    let token = this.#tokens.get(tokenId);
    if (token === undefined) {
      if (mark === undefined) return;
      token = this.#token(tokenId);
    }
    if (token.nextDue < t) this.#settle(token, t, false);
    if (mark !== undefined) token.lastMark = mark;
  }

  /** The rows at the end of the data (`end`): what is due by then is marked at the last mark. */
  finish(end: number): MarkoutRow[] {
    for (const token of this.#tokens.values()) this.#settle(token, end, true);
    return this.#rows.map((r) => ({ ...r }));
  }

  #token(tokenId: TokenId): TokenMarkouts {
    let token = this.#tokens.get(tokenId);
    if (token === undefined) this.#tokens.set(tokenId, (token = { pending: [], lastMark: undefined, nextDue: Infinity }));
    return token;
  }

  /** Marks the fills due before `t` (at or before it when `inclusive`) at the token's last mark. */
  #settle(token: TokenMarkouts, t: number, inclusive: boolean): void {
    const list = token.pending;
    const mark = token.lastMark;
    let kept = 0;
    let nextDue = Infinity;
    for (const p of list) {
      if (inclusive ? p.due > t : p.due >= t) {
        list[kept++] = p;
        if (p.due < nextDue) nextDue = p.due;
        continue;
      }
      if (mark === undefined) continue;
      const row = this.#rows[p.horizon]!;
      row.fills++;
      // the move's value, rounded down in size (toward zero), signed for our side
      const move = mark - p.price;
      const value = notional(Math.abs(move), p.size);
      row.pnl += (move < 0 ? -p.sign : p.sign) * value;
      row.size += p.size;
    }
    list.length = kept;
    token.nextDue = nextDue;
  }
}

interface TokenMarkouts {
  readonly pending: Pending[];
  lastMark: Micros | undefined;
  /** The earliest `due` among `pending` (Infinity when none). */
  nextDue: number;
}
