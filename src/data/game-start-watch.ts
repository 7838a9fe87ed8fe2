import { interval, Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';
import type { ConditionId } from '../core/types.ts';
import type { MarketLookRequest } from './market-looks.ts';
import type { WatchedMarket } from './market-status-poll.ts';

/** Default of `data.gameStartGraceMs`: the clear is taken as done this long after the listed start, ms. */
export const DEFAULT_GAME_START_GRACE_MS = 1_000;
/** How often the watch looks for markets whose start came (and for markets added since), ms. */
const CHECK_EVERY_MS = 250;

export interface GameStartWatchOptions {
  readonly clock: Clock;
  /** The markets to watch (read at every check: a run's set may grow); those with `gameStartTime`. */
  readonly markets: () => readonly WatchedMarket[];
  /** The clear is emitted this long after the listed start (the venue clears at the start by its own clock), ms. */
  readonly graceMs: number;
  /**
   * Markets where the venue cancelled an order of ours without our asking, at `at` (venue time;
   * MarketLooks): one whose start came by then is cleared now, the venue's cancel being its word
   * that it did. Each request's `done` is called after.
   */
  readonly looks$?: Observable<MarketLookRequest>;
}

/**
 * A sports market's book is cleared by the venue at its game start (`game_start_time`): every
 * resting order cancelled, and no market message says so. This watch emits `marketCleared` once
 * per market, `graceMs` after its listed start on the run's clock (a market that started before
 * the watch did is not cleared again: the venue did it before our orders existed), or at once
 * when the venue's cancel of one of our orders there, at or after the start by the venue's
 * clock, says so (`looks$`). Cold; stops on unsubscribe.
 */
export function watchGameStarts(options: GameStartWatchOptions): Observable<MarketEvent> {
  const { clock, graceMs } = options;
  return new Observable<MarketEvent>((subscriber) => {
    const startedAt = clock.now();
    const done = new Set<ConditionId>();
    const check = (): void => {
      const now = clock.now();
      for (const market of options.markets()) {
        const start = market.gameStartTime;
        if (start === undefined || done.has(market.conditionId)) continue;
        if (start + graceMs <= startedAt) {
          done.add(market.conditionId);
          continue;
        }
        if (start + graceMs > now) continue;
        done.add(market.conditionId);
        subscriber.next({ type: 'marketCleared', conditionId: market.conditionId, tokenIds: market.tokenIds, tsEvent: start, tsInit: now });
      }
    };
    const confirm = (request: MarketLookRequest): void => {
      const market = options.markets().find((m) => m.conditionId === request.conditionId);
      const start = market?.gameStartTime;
      if (market !== undefined && start !== undefined && !done.has(market.conditionId) && start <= request.at && start + graceMs > startedAt) {
        done.add(market.conditionId);
        subscriber.next({ type: 'marketCleared', conditionId: market.conditionId, tokenIds: market.tokenIds, tsEvent: start, tsInit: clock.now() });
      }
      request.done();
    };
    check();
    const checks = interval(CHECK_EVERY_MS, clock.scheduler).subscribe(check);
    const looks = options.looks$?.subscribe(confirm);
    return () => {
      checks.unsubscribe();
      looks?.unsubscribe();
    };
  });
}
