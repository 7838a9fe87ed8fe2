/**
 * Which rows of a wallet's analytics feed are new, poll after poll.
 *
 * The venue's wallet analytics (`GET /activity`, `GET /trades?user=`) give a wallet's fills newest
 * first, a page at a time, with no id of their own: a fill is known by its transaction hash,
 * asset, side, price, size and time. One transaction can carry several fills, and two of them can
 * be alike in every field (the same price and size twice), so a key is counted, not just seen:
 * a page holding a key three times where an earlier page held it twice has one new fill.
 *
 * Pages are windows onto the newest fills, so a fill older than the oldest row of a full page
 * never comes back: keys older than that are forgotten (memory stays bounded by the page size).
 * A fill the venue indexes late (older than rows already seen, yet new) is still delivered as
 * long as it sits inside the window.
 */

/** One fill of a wallet as the feed shows it (the parts that identify it). */
export interface WalletRow {
  readonly txHash: string;
  /** The venue's `asset` (a token id, or `<condition_id>:<outcome_index>`). */
  readonly asset: string;
  readonly side: string;
  /** The JSON numbers as the venue sent them (compared as text: no rounding can merge two). */
  readonly price: number;
  readonly size: number;
  /** Epoch ms. */
  readonly ts: number;
}

/** The identity of a fill in the feed. */
export function walletRowKey(row: WalletRow): string {
  return `${row.txHash}|${row.asset}|${row.side}|${String(row.price)}|${String(row.size)}|${row.ts}`;
}

export class WalletTradeDedupe {
  /** Per key: the most times one page showed it, and its time. */
  readonly #seen = new Map<string, { count: number; ts: number }>();

  /** Keys held (for tests and metrics). */
  get size(): number {
    return this.#seen.size;
  }

  /** True when one of the rows was seen before (a poll that reaches one needs no further page). */
  seenAny(rows: readonly WalletRow[]): boolean {
    return rows.some((row) => this.#seen.has(walletRowKey(row)));
  }

  /**
   * Takes one poll's rows (newest first, as the venue orders them; several pages joined) and
   * returns the fills not seen before, oldest first. `full`: the rows did not reach the end of
   * the wallet's history (the last page was full), so keys older than the oldest row are
   * forgotten.
   */
  take<R extends WalletRow>(rows: readonly R[], full: boolean): R[] {
    const counts = new Map<string, number>();
    const fresh: R[] = [];
    // oldest first: a key's extra copies are its newest ones
    for (let i = rows.length - 1; i >= 0; i--) {
      const row = rows[i]!;
      const key = walletRowKey(row);
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      const held = this.#seen.get(key);
      if (held === undefined || n > held.count) {
        this.#seen.set(key, { count: n, ts: row.ts });
        fresh.push(row);
      }
    }
    if (full && rows.length > 0) {
      const oldest = rows[rows.length - 1]!.ts;
      for (const [key, held] of this.#seen) if (held.ts < oldest) this.#seen.delete(key);
    }
    return fresh;
  }
}
