import type { FieldLogger } from '../core/log.ts';
import type { EngineEvent } from '../engine/ports.ts';

/**
 * The run log's line for every refusal of an order: the venue's (`order rejected`, warn, with its
 * reason) and risk's (`order denied by risk`, info, with its code and reason). While trading is
 * halted a strategy that quotes on every book has every order denied TRADING_HALTED for the same
 * reason, tens a second: the first such denial of a strategy is logged, the repeats of that reason
 * are counted, and one line (`orders denied while halted`, with `more`) gives their number when
 * the reason changes, trading resumes or the run stops (`flush`). Every denial is still an
 * `OrderDenied` event for the strategy, the journal and the summary's counts.
 */
export class RefusalLog {
  readonly #log: FieldLogger;
  /** Per strategy: the reason of its last TRADING_HALTED denial logged, and the repeats since. */
  readonly #halted = new Map<string, { reason: string; more: number }>();

  constructor(log: FieldLogger) {
    this.#log = log;
  }

  /** One engine event (subscribe it to the engine's bus). */
  readonly event = (e: EngineEvent): void => {
    if (e.type === 'lifecycle') {
      if (e.event.type === 'Resumed') this.flush();
      return;
    }
    if (e.type !== 'order') return;
    const o = e.event;
    if (o.type === 'OrderRejected') {
      this.#log.warn('order rejected', { strategy: e.strategyId, clientOrderId: o.clientOrderId, reason: o.reason });
      return;
    }
    if (o.type !== 'OrderDenied') return;
    if (o.code === 'TRADING_HALTED') {
      const last = this.#halted.get(e.strategyId);
      if (last !== undefined && last.reason === o.reason) {
        last.more++;
        return;
      }
      this.#flushStrategy(e.strategyId);
      this.#halted.set(e.strategyId, { reason: o.reason, more: 0 });
    }
    this.#log.info('order denied by risk', { strategy: e.strategyId, clientOrderId: o.clientOrderId, code: o.code, reason: o.reason });
  };

  /** The repeats counted so far, one line a strategy; the next halted denial is logged again. */
  flush(): void {
    for (const strategyId of [...this.#halted.keys()]) this.#flushStrategy(strategyId);
  }

  #flushStrategy(strategyId: string): void {
    const last = this.#halted.get(strategyId);
    if (last === undefined) return;
    this.#halted.delete(strategyId);
    if (last.more > 0) this.#log.info('orders denied while halted', { strategy: strategyId, code: 'TRADING_HALTED', reason: last.reason, more: last.more });
  }
}
