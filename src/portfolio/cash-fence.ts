import type { Micros } from '../core/fixed.ts';

/** A venue balance reading: asked at `from`, answered at `to` (ms), and the balance it gave. */
interface Anchor {
  readonly cash: Micros;
  readonly from: number;
  readonly to: number;
}

/** A change of our cash at the venue: a fill's cost or proceeds (fee included), a payout. */
interface CashEvent {
  /** When the venue counted it (a fill's match time), ms. */
  readonly at: number;
  readonly effect: Micros;
}

/** Readings kept to fall back on when a newer one turns out ambiguous. */
const ANCHORS_KEPT = 16;

/**
 * Cash without double counts: the account's cash from the venue's balance readings and our own
 * cash events (fills, payouts), each applied with the events the venue had counted when it
 * answered, whatever order they reach us in. A reading asked at `from` and answered at `to`
 * counts every event of the venue before `from` and none after `to`; so the cash is the newest
 * reading plus the events after its `to`, and an event that reaches us after the reading but
 * happened before its `from` (a fill delivered late) moves nothing: the reading holds it. A
 * reading with one of our events inside its window (`from` to `to`, widened by `marginMs` for
 * the venue's clock and its timestamps' resolution) may or may not hold it: it is not used, also
 * when that event arrives later; the cash then comes from the newest reading that is clear. Before
 * any clear reading the cash is the first reading plus every event since (what a ledger counts).
 */
export class CashFence {
  readonly #marginMs: number;
  readonly #anchors: Anchor[] = [];
  /** Events since the oldest anchor kept (older ones are counted by every anchor). */
  #events: CashEvent[] = [];
  /** The first reading plus every event since: the fallback. */
  #ledger: Micros | undefined;
  /** The first reading's `from`: an event before it is in that reading (and so in the ledger). */
  #firstFrom = 0;

  constructor(marginMs = 0) {
    this.#marginMs = marginMs;
  }

  /** Whether a reading was taken (before it the fence knows no cash). */
  get anchored(): boolean {
    return this.#ledger !== undefined;
  }

  /** A venue balance reading asked at `from` and answered at `to`. */
  reading(cash: Micros, from: number, to: number): void {
    if (this.#ledger === undefined) {
      this.#ledger = cash;
      this.#firstFrom = from;
    }
    this.#anchors.push({ cash, from, to });
    if (this.#anchors.length > ANCHORS_KEPT) {
      this.#anchors.shift();
      const oldest = this.#anchors[0]!.from - this.#marginMs;
      this.#events = this.#events.filter((e) => e.at > oldest);
    }
  }

  /** One of our cash events (a fill, a payout), counted by the venue at `at`. */
  event(at: number, effect: Micros): void {
    if (this.#ledger === undefined) return;
    if (at >= this.#firstFrom - this.#marginMs) this.#ledger += effect;
    this.#events.push({ at, effect });
  }

  /** The cash: the newest clear reading and the events after it; undefined before any reading. */
  cash(): Micros | undefined {
    const margin = this.#marginMs;
    for (let i = this.#anchors.length - 1; i >= 0; i--) {
      const a = this.#anchors[i]!;
      const lo = a.from - margin;
      const hi = a.to + margin;
      let after = 0;
      let clear = true;
      for (const e of this.#events) {
        if (e.at > hi) after += e.effect;
        else if (e.at >= lo) {
          clear = false;
          break;
        }
      }
      if (clear) return a.cash + after;
    }
    return this.#ledger;
  }
}
