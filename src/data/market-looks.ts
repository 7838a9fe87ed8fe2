import type { ConditionId } from '../core/types.ts';

/** One market to look at now (MarketLooks): `at` the venue's time of what asked (ms); `done` once what was found is out. */
export interface MarketLookRequest {
  readonly conditionId: ConditionId;
  readonly at: number;
  readonly done: () => void;
}

/**
 * How a run asks its market data to look at one market now, outside its polls: the engine asks
 * (EngineOptions.marketLook) when the venue cancelled an order of ours there without our asking,
 * and the market data source (app/market-data.ts) reads the market's status at once (its close,
 * its resolution, a moved game start) and checks its game start, handing what it finds to the
 * engine as it would a poll's, before the look resolves. A look asked while no source serves
 * (none subscribed, or a source without status reads) resolves at once.
 */
export class MarketLooks {
  #serve: ((request: MarketLookRequest) => void) | undefined;

  /** Looks at `conditionId` now; resolves once what was found has been handed on. */
  readonly look = (conditionId: ConditionId, at: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const serve = this.#serve;
      if (serve === undefined) resolve();
      else serve({ conditionId, at, done: resolve });
    });

  /** The source that answers looks from now on; returns its release. */
  serve(handler: (request: MarketLookRequest) => void): () => void {
    this.#serve = handler;
    return () => {
      if (this.#serve === handler) this.#serve = undefined;
    };
  }
}
