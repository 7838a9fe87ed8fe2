import type Database from 'better-sqlite3';
import type { FillEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import { readLastFillSeq } from './store-queries.ts';
import { checkMicros, storeFailure } from './store-file.ts';

/**
 * The store's fill and balance writes. Fills are numbered in arrival order (`seq`); a balance
 * anchor records the fill sequence it was taken after, so a load replays later fills onto it. A
 * fill whose trade failed on chain moves to `voided_fills` with its number (never reused).
 */
export class FillWrites {
  readonly #file: string;
  readonly #insertFill: Database.Statement;
  readonly #confirmFill: Database.Statement;
  readonly #insertBalance: Database.Statement;
  readonly #keepVoided: Database.Statement;
  readonly #dropFill: Database.Statement;
  readonly #insertVoided: Database.Statement;
  #lastFillSeq: number;

  constructor(db: Database.Database, file: string) {
    this.#file = file;
    const lastVoided = (db.prepare('SELECT max(seq) FROM voided_fills').pluck().get() as number | null) ?? 0;
    this.#lastFillSeq = Math.max(readLastFillSeq(db), lastVoided);
    this.#insertFill = db.prepare(
      `INSERT INTO fills (trade_id, order_id, seq, client_order_id, token_id, side, price, size, fee, liquidity, confirmed, ts_event, ts_init)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (trade_id, order_id) DO NOTHING`,
    );
    this.#confirmFill = db.prepare('UPDATE fills SET confirmed = 1 WHERE trade_id = ? AND order_id = ? AND confirmed = 0');
    this.#insertBalance = db.prepare('INSERT INTO balances (balance, after_fill_seq, at, reason) VALUES (?, ?, ?, ?)');
    this.#keepVoided = db.prepare(
      'INSERT INTO voided_fills SELECT *, ? FROM fills WHERE trade_id = ? AND order_id = ? ON CONFLICT (trade_id, order_id) DO NOTHING',
    );
    this.#dropFill = db.prepare('DELETE FROM fills WHERE trade_id = ? AND order_id = ?');
    this.#insertVoided = db.prepare(
      `INSERT INTO voided_fills (trade_id, order_id, seq, client_order_id, token_id, side, price, size, fee, liquidity, confirmed, ts_event, ts_init, voided_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) ON CONFLICT (trade_id, order_id) DO NOTHING`,
    );
  }

  /**
   * Moves a stored fill whose trade FAILED to `voided_fills` (see RunStore.voidFill); one never
   * stored (its trade failed before the run booked it) is written there directly, with the next
   * fill number. True when the fill was not void yet.
   */
  voidFill(fill: FillEvent, at: number): boolean {
    try {
      if (this.#keepVoided.run(at, fill.tradeId, fill.orderId).changes === 1) {
        this.#dropFill.run(fill.tradeId, fill.orderId);
        return true;
      }
      const seq = this.#lastFillSeq + 1;
      const f = fill;
      const inserted = this.#insertVoided.run(f.tradeId, f.orderId, seq, f.clientOrderId, f.tokenId, f.side, f.price, f.size, f.fee, f.liquidity, f.tsEvent, f.tsInit, at).changes === 1;
      if (inserted) this.#lastFillSeq = seq;
      return inserted;
    } catch (err) {
      throw storeFailure(this.#file, `voidFill ${fill.tradeId}`, err);
    }
  }

  /** Records a fill once (see RunStore.saveFill); true when it was new. */
  saveFill(fill: FillEvent): boolean {
    const file = this.#file;
    checkMicros(file, 'price', fill.price);
    checkMicros(file, 'size', fill.size);
    checkMicros(file, 'fee', fill.fee);
    try {
      const seq = this.#lastFillSeq + 1;
      const inserted =
        this.#insertFill.run(
          fill.tradeId,
          fill.orderId,
          seq,
          fill.clientOrderId,
          fill.tokenId,
          fill.side,
          fill.price,
          fill.size,
          fill.fee,
          fill.liquidity,
          fill.confirmed ? 1 : 0,
          fill.tsEvent,
          fill.tsInit,
        ).changes === 1;
      if (inserted) {
        this.#lastFillSeq = seq;
        return true;
      }
      if (fill.confirmed) this.#confirmFill.run(fill.tradeId, fill.orderId);
      return false;
    } catch (err) {
      throw storeFailure(file, `saveFill ${fill.tradeId}`, err);
    }
  }

  /** Records the balance as of the newest fill stored (see RunStore.setBalance). */
  setBalance(balance: Micros, at: number, reason?: string): void {
    checkMicros(this.#file, 'balance', balance);
    try {
      this.#insertBalance.run(balance, this.#lastFillSeq, at, reason ?? null);
    } catch (err) {
      throw storeFailure(this.#file, 'setBalance', err);
    }
  }
}
