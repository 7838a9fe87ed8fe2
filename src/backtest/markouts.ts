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
  readonly #pending = new Map<TokenId, Pending[]>();
  readonly #lastMark = new Map<TokenId, Micros>();
  readonly #rows = MARKOUT_HORIZONS_MS.map((h) => ({ horizonMs: h, fills: 0, pnl: 0, size: 0 }));

  onFill(tokenId: TokenId, side: 'BUY' | 'SELL', price: Micros, size: Micros, t: number): void {
    let list = this.#pending.get(tokenId);
    if (list === undefined) this.#pending.set(tokenId, (list = []));
    MARKOUT_HORIZONS_MS.forEach((h, horizon) => list.push({ due: t + h, tokenId, sign: side === 'BUY' ? 1 : -1, price, size, horizon }));
  }

  /** A book of `tokenId` at `t` gave it `mark`: fills due before `t` are marked at the mark before it. */
  onMark(tokenId: TokenId, t: number, mark: Micros | undefined): void {
    const list = this.#pending.get(tokenId);
    if (list !== undefined && list.length > 0) this.#settle(list, (p) => p.due < t, this.#lastMark.get(tokenId));
    if (mark !== undefined) this.#lastMark.set(tokenId, mark);
  }

  /** The rows at the end of the data (`end`): what is due by then is marked at the last mark. */
  finish(end: number): MarkoutRow[] {
    for (const [tokenId, list] of this.#pending) this.#settle(list, (p) => p.due <= end, this.#lastMark.get(tokenId));
    return this.#rows.map((r) => ({ ...r }));
  }

  #settle(list: Pending[], due: (p: Pending) => boolean, mark: Micros | undefined): void {
    let kept = 0;
    for (const p of list) {
      if (!due(p)) {
        list[kept++] = p;
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
  }
}
