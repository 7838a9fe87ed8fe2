import type { LifecycleEvent, MarketEvent } from '../core/events.ts';
import type { MarketCache } from '../data/market-cache.ts';
import type { EngineDesk } from './engine-desk.ts';

/** A `feeRate` market event. */
export type FeeRateEvent = Extract<MarketEvent, { type: 'feeRate' }>;

/**
 * The engine's part for the venue's fee rates (docs/fees-and-sports.md), the same in every mode (a
 * live or paper run's fee-rate poll, a backtest's recorded `fee`): a token's new rates replace
 * its rules' (`makerBaseFeeBps`, `takerBaseFeeBps`) in the market cache, which risk and the
 * strategies read; the event is journalled (a backtest of the run's store charges the same) and
 * strategies hear FeeRateChanged. The fills' fees are the venue's (live: each trade's
 * `fee_rate_bps`; paper and backtest: the simulated venue follows the same events).
 */
export class FeeRates {
  readonly #desk: EngineDesk;
  readonly #cache: MarketCache;
  readonly #tell: (event: LifecycleEvent) => void;

  constructor(desk: EngineDesk, cache: MarketCache, tell: (event: LifecycleEvent) => void) {
    this.#desk = desk;
    this.#cache = cache;
    this.#tell = tell;
  }

  /** Handles a fee-rate event (call inside the tick's transaction); an unchanged rate does nothing. */
  onFeeRate(event: FeeRateEvent): void {
    const state = this.#cache.get(event.tokenId);
    if (state === undefined) return;
    const previousTakerBps = state.rules.takerBaseFeeBps;
    if (previousTakerBps === event.takerBps && state.rules.makerBaseFeeBps === event.makerBps) return;
    this.#cache.apply(event);
    this.#desk.persistence?.marketEvent?.(event);
    this.#desk.log.info('fee rate changed at the venue', { tokenId: event.tokenId, previousTakerBps, takerBps: event.takerBps, makerBps: event.makerBps });
    this.#tell({ type: 'FeeRateChanged', tokenId: event.tokenId, previousTakerBps, takerBps: event.takerBps, makerBps: event.makerBps, tsInit: event.tsInit });
  }
}
