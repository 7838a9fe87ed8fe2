import type { FillsSnapshot } from '../execution/execution-client.ts';
import type { EngineDesk } from './engine-desk.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';

/**
 * The wait for a complete read of our trades at the venue: after the start, or after the
 * heartbeat recovered or the user channel dropped, fills we missed may be on any page, and a
 * position short of them would be traded on as if it were the whole. While `waiting` is set,
 * every market waits (the reconciler's RECONCILING gate reads it, and says it as the reason).
 */
export class TradesReadGate {
  readonly #desk: EngineDesk;
  #waiting: string | undefined;

  constructor(desk: EngineDesk) {
    this.#desk = desk;
  }

  /** Why every market waits for a complete read of our trades, or undefined when none does. */
  get waiting(): string | undefined {
    return this.#waiting;
  }

  /** No market is traded until a look at our trades reads every page (`snapshot`), after `why`. */
  awaitSnapshot(why: string): void {
    this.#waiting = `our trades at the venue not yet read in full since ${why}`;
  }

  /** One look at our trades: complete, it lifts the wait; incomplete, it is refused (said, and looked at again next poll). */
  snapshot(snapshot: FillsSnapshot): void {
    const log = this.#desk.log;
    if (snapshot.complete) {
      if (this.#waiting !== undefined) log.info('our trades at the venue read in full; markets open to orders');
      this.#waiting = undefined;
      return;
    }
    if (snapshot.gap === true) {
      // not a refused read: fills may be missing from now on (the user channel dropped) until a complete one
      this.awaitSnapshot(snapshot.reason);
      log.warn('our fills may be missing until our trades at the venue are read in full; markets wait for it', { reason: snapshot.reason });
      return;
    }
    this.#desk.metrics.inc(ENGINE_METRICS.snapshotsRefused);
    log.warn('a read of our trades at the venue was incomplete; not taken as the whole, read again next poll', { reason: snapshot.reason, waiting: this.#waiting !== undefined });
    if (this.#waiting !== undefined) this.#waiting = `${this.#waiting.replace(/ \(last read: .*\)$/, '')} (last read: ${snapshot.reason})`;
  }
}
