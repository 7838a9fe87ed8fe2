import type { TradeStatus } from '../venue/domain/statuses.ts';
import { isInstant, settlementPath, type SettlementKnobs, type SettlementStep } from './settlement-model.ts';

/** A trade's next step, with what the venue attached to the trade. */
interface Pending<T> {
  readonly tradeId: string;
  readonly subject: T;
  readonly step: SettlementStep;
  readonly rest: readonly SettlementStep[];
}

/**
 * The trades of one simulated venue on their way to the chain (settlement-model.ts): each trade
 * registered at its match, its steps popped by `due(now)` in time order (ties in registration
 * order), and its current status remembered. The venue decides what a step means to it (the
 * matching engine reverses a FAILED trade on its ledger, the edge on our account) and when `due`
 * runs (every engine call, a timer on the run's clock). `subject` is the venue's own record of
 * the trade, handed back with each step.
 */
export class SettlementSchedule<T> {
  readonly #knobs: () => SettlementKnobs;
  readonly #seed: number;
  readonly #status = new Map<string, TradeStatus>();
  /** Next steps, sorted by time (stable). */
  readonly #queue: Pending<T>[] = [];

  readonly #remember: boolean;

  /**
   * `knobs` is read at each trade, so a venue may change them while it runs. With `remember`
   * false, a trade's status is forgotten once final (a long backtest keeps only what is pending).
   */
  constructor(knobs: SettlementKnobs | (() => SettlementKnobs), seed: number, remember = true) {
    this.#knobs = typeof knobs === 'function' ? knobs : () => knobs;
    this.#remember = remember;
    this.#seed = seed;
  }

  /** True when a trade matched now is final at once (nothing scheduled). */
  get instant(): boolean {
    return isInstant(this.#knobs());
  }

  /** Trades not final yet. */
  get pending(): number {
    return this.#queue.length;
  }

  /** When the next step is due (epoch ms), or undefined when nothing is pending. */
  get nextAtMs(): number | undefined {
    return this.#queue[0]?.step.atMs;
  }

  /** Registers a trade matched at `matchMs`; returns its status now (CONFIRMED when final at once). */
  add(tradeId: string, matchMs: number, subject: T): TradeStatus {
    const path = settlementPath(this.#knobs(), this.#seed, tradeId, matchMs);
    const first = path[0];
    if (first === undefined) {
      if (this.#remember) this.#status.set(tradeId, 'CONFIRMED');
      return 'CONFIRMED';
    }
    this.#status.set(tradeId, 'MATCHED');
    this.#insert({ tradeId, subject, step: first, rest: path.slice(1) });
    return 'MATCHED';
  }

  /** The trade's status, or undefined when it was never registered. */
  status(tradeId: string): TradeStatus | undefined {
    return this.#status.get(tradeId);
  }

  /** Applies every step due at `now`, in time order, calling `apply` with each new status. */
  due(now: number, apply: (subject: T, tradeId: string, status: TradeStatus, atMs: number) => void): void {
    const queue = this.#queue;
    while (queue.length > 0 && queue[0]!.step.atMs <= now) {
      const p = queue.shift()!;
      const next = p.rest[0];
      if (next !== undefined) this.#insert({ tradeId: p.tradeId, subject: p.subject, step: next, rest: p.rest.slice(1) });
      if (next !== undefined || this.#remember) this.#status.set(p.tradeId, p.step.status);
      else this.#status.delete(p.tradeId);
      apply(p.subject, p.tradeId, p.step.status, p.step.atMs);
    }
  }

  #insert(p: Pending<T>): void {
    const queue = this.#queue;
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (queue[mid]!.step.atMs <= p.step.atMs) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, p);
  }
}
