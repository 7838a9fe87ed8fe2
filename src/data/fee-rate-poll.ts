import { exhaustMap, from, Observable, timer } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';
import type { TokenId } from '../core/types.ts';
import { LIST_STATUS_ABOVE, type WatchedMarket } from './market-status-poll.ts';

/** Default of `data.feeRateRefreshMs`: each token's fee rate is read again this often, ms. */
export const DEFAULT_FEE_RATE_REFRESH_MS = 60_000;

export interface FeeRatePollOptions {
  readonly clock: Clock;
  /**
   * One token's base fee, basis points (`GET /fee-rate?token_id=`); the venue client paces it by
   * the route's rate budget. `signal` aborts it, its wait for budget and its retries (the poll's teardown).
   */
  readonly fetch: (tokenId: TokenId, signal: AbortSignal) => Promise<number>;
  /**
   * Every listed market's taker base fee by token (the paginated market list's `taker_base_fee`,
   * the rate `GET /fee-rate` serves), used instead of `fetch` when more than `LIST_STATUS_ABOVE`
   * markets are watched; a token the list does not show is read by `fetch`.
   */
  readonly fetchAll?: (signal: AbortSignal) => Promise<ReadonlyMap<TokenId, number>>;
  /** The markets to watch, with the fee rates their metadata listed, read at each round (a run's set may grow). */
  readonly markets: () => readonly WatchedMarket[];
  /** A round reads every watched token once, one request at a time; rounds start this often, ms. */
  readonly intervalMs: number;
  /** A failed read; the poll goes on with the next token (the rate held stays). */
  readonly onError?: (err: unknown) => void;
}

/**
 * The venue's fee rates, per token, kept fresh (docs/fees-and-sports.md): every `intervalMs` each
 * watched token's `GET /fee-rate` is read (its base fee, the taker rate), and a `feeRate` event is
 * emitted when it differs from the rate held: at first the market's listed `taker_base_fee`, then
 * the last one read. The maker rate is the market's listed `maker_base_fee` (the route serves one
 * number). A failed read keeps the rate held. Rounds start at `intervalMs` after subscribe (the
 * listed rates are fresh at start). Cold; stops on unsubscribe, which aborts the request in
 * flight (no retry of it goes out after the poll stopped, and its failure is not reported).
 */
export function pollFeeRates(options: FeeRatePollOptions): Observable<MarketEvent> {
  const { clock, intervalMs } = options;
  return new Observable<MarketEvent>((subscriber) => {
    const held = new Map<TokenId, number>();
    let stopped = false;
    const abort = new AbortController();
    const round = async (): Promise<void> => {
      const markets = options.markets();
      let all: ReadonlyMap<TokenId, number> | undefined;
      if (options.fetchAll !== undefined && markets.length > LIST_STATUS_ABOVE) {
        try {
          all = await options.fetchAll(abort.signal);
        } catch (err) {
          if (stopped) return;
          options.onError?.(err);
        }
      }
      for (const market of markets) {
        for (const tokenId of market.tokenIds) {
          if (stopped) return;
          let takerBps: number;
          try {
            takerBps = all?.get(tokenId) ?? (await options.fetch(tokenId, abort.signal));
          } catch (err) {
            if (stopped) return;
            options.onError?.(err);
            continue;
          }
          if (stopped) return;
          if (!Number.isSafeInteger(takerBps) || takerBps < 0) {
            options.onError?.(new Error(`fee-rate of ${tokenId}: base_fee must be a whole number of basis points >= 0, was ${takerBps}`));
            continue;
          }
          const before = held.get(tokenId) ?? market.takerBps;
          held.set(tokenId, takerBps);
          if (before === takerBps) continue;
          const now = clock.now();
          subscriber.next({ type: 'feeRate', tokenId, takerBps, makerBps: market.makerBps ?? 0, tsEvent: now, tsInit: now });
        }
      }
    };
    const rounds = timer(intervalMs, intervalMs, clock.scheduler)
      .pipe(exhaustMap(() => from(round())))
      .subscribe({ error: (err: unknown) => subscriber.error(err) });
    return () => {
      stopped = true;
      abort.abort();
      rounds.unsubscribe();
    };
  });
}
