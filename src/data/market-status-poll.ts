import { exhaustMap, from, Observable, timer } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import type { MarketLookRequest } from './market-looks.ts';

/**
 * A market whose status is watched: its condition id and its tokens; the fee rates its metadata
 * listed (the fee-rate poll's starting point) and its game start (the game-start watch), when known.
 */
export interface WatchedMarket {
  readonly conditionId: ConditionId;
  readonly tokenIds: readonly TokenId[];
  readonly takerBps?: number;
  readonly makerBps?: number;
  /** A sports market's game start, epoch ms. */
  readonly gameStartTime?: number;
}

/** What the status poll reads of a market (`GET /markets/{condition_id}`, trading form). */
export interface MarketStatus {
  readonly closed: boolean;
  readonly tokens: readonly { readonly tokenId: TokenId; readonly winner: boolean }[];
}

/**
 * Watched markets above which a round reads the venue's whole market list (`GET /markets`, page by
 * page: one request per 100 markets) instead of one request per market: a run over the whole venue
 * (docs/whole-venue.md) would otherwise send one request per market and token every period.
 */
export const LIST_STATUS_ABOVE = 200;

export interface MarketStatusPollOptions {
  readonly clock: Clock;
  /** One market's status; the venue client paces it by the route's rate budget. */
  readonly fetch: (conditionId: ConditionId, signal: AbortSignal) => Promise<MarketStatus>;
  /**
   * Every listed market's status at once (the paginated market list), used instead of `fetch`
   * when more than `LIST_STATUS_ABOVE` markets are watched; a market the list does not show is
   * read by `fetch`.
   */
  readonly fetchAll?: (signal: AbortSignal) => Promise<ReadonlyMap<ConditionId, MarketStatus>>;
  /** The markets to watch, read at each round (a run's set may grow). */
  readonly markets: () => readonly WatchedMarket[];
  /** A round reads every watched market once, one request at a time; rounds start this often, ms. */
  readonly intervalMs: number;
  /** A failed read; the poll goes on with the next market. */
  readonly onError?: (err: unknown) => void;
  /** Markets to read once now, outside the rounds (MarketLooks); each request's `done` is called after its events. */
  readonly looks$?: Observable<MarketLookRequest>;
}

/**
 * Watches markets for their end: the venue's `closed` flag and a token's `winner` flag (interface
 * 2.10), read by polling each market on a period (the spec shows no pushed message for it). Emits
 * `marketClosed` the first time a market is seen closed and `marketResolved` the first time one
 * of its tokens is the winner (a resolved market is closed: when both are seen at once the close
 * comes first). A resolved market is not read again. The first round runs at subscribe, so a run
 * that starts on a market that already ended hears it at once; `looks$` reads one market at once
 * between rounds. Cold; stops on unsubscribe, which aborts the requests in flight (`signal`: no
 * retry of them goes out after the poll stopped, and their failure is not reported).
 */
export function pollMarketStatus(options: MarketStatusPollOptions): Observable<MarketEvent> {
  const { clock, intervalMs } = options;
  return new Observable<MarketEvent>((subscriber) => {
    const closed = new Set<ConditionId>();
    const resolved = new Set<ConditionId>();
    let stopped = false;
    const abort = new AbortController();
    /** Reads one market; emits its close and resolution the first time they are seen. */
    const read = async (market: WatchedMarket, all?: ReadonlyMap<ConditionId, MarketStatus>): Promise<void> => {
      if (resolved.has(market.conditionId)) return;
      let status: MarketStatus;
      try {
        status = all?.get(market.conditionId) ?? (await options.fetch(market.conditionId, abort.signal));
      } catch (err) {
        if (stopped) return;
        options.onError?.(err);
        return;
      }
      if (stopped) return;
      const winner = status.tokens.find((t) => t.winner);
      const now = clock.now();
      if ((status.closed || winner !== undefined) && !closed.has(market.conditionId)) {
        closed.add(market.conditionId);
        subscriber.next({ type: 'marketClosed', conditionId: market.conditionId, tokenIds: market.tokenIds, tsEvent: now, tsInit: now });
      }
      if (winner !== undefined && !resolved.has(market.conditionId)) {
        resolved.add(market.conditionId);
        subscriber.next({ type: 'marketResolved', conditionId: market.conditionId, tokenIds: market.tokenIds, winnerTokenId: winner.tokenId, tsEvent: now, tsInit: now });
      }
    };
    const round = async (): Promise<void> => {
      const markets = options.markets();
      const all = await listed(options, markets.length, abort.signal);
      if (stopped) return;
      for (const market of markets) {
        if (stopped) return;
        await read(market, all);
      }
    };
    const looks = options.looks$?.subscribe((request) => {
      const market = options.markets().find((m) => m.conditionId === request.conditionId);
      if (market === undefined || stopped) {
        request.done();
        return;
      }
      void read(market).finally(request.done);
    });
    const rounds = timer(0, intervalMs, clock.scheduler)
      .pipe(exhaustMap(() => from(round())))
      .subscribe({ error: (err: unknown) => subscriber.error(err) });
    return () => {
      stopped = true;
      abort.abort();
      rounds.unsubscribe();
      looks?.unsubscribe();
    };
  });
}

/** Every listed market's status when `watched` is above LIST_STATUS_ABOVE and a list is given; undefined otherwise or when it failed (reported). */
async function listed(options: MarketStatusPollOptions, watched: number, signal: AbortSignal): Promise<ReadonlyMap<ConditionId, MarketStatus> | undefined> {
  if (options.fetchAll === undefined || watched <= LIST_STATUS_ABOVE) return undefined;
  try {
    return await options.fetchAll(signal);
  } catch (err) {
    if (signal.aborted) return undefined;
    options.onError?.(err);
    return undefined;
  }
}

/**
 * The markets of a run's tokens, each with both of its tokens (a token's complement included),
 * and, from the tokens' rules when given, the listed fee rates and the game start.
 */
export function watchedMarketsOf(
  tokens: readonly {
    readonly tokenId: TokenId;
    readonly conditionId: string;
    readonly complementTokenId: TokenId | undefined;
    readonly rules?: { readonly takerBaseFeeBps: number; readonly makerBaseFeeBps: number; readonly gameStartTime?: number };
  }[],
): WatchedMarket[] {
  const byCondition = new Map<string, { tokenIds: TokenId[]; rules: (typeof tokens)[number]['rules'] }>();
  for (const t of tokens) {
    let entry = byCondition.get(t.conditionId);
    if (entry === undefined) byCondition.set(t.conditionId, (entry = { tokenIds: [], rules: t.rules }));
    const ids = entry.tokenIds;
    if (!ids.includes(t.tokenId)) ids.push(t.tokenId);
    if (t.complementTokenId !== undefined && !ids.includes(t.complementTokenId)) ids.push(t.complementTokenId);
  }
  return [...byCondition].map(([conditionId, { tokenIds, rules }]) => ({
    conditionId,
    tokenIds,
    ...(rules === undefined ? {} : { takerBps: rules.takerBaseFeeBps, makerBps: rules.makerBaseFeeBps }),
    ...(rules?.gameStartTime === undefined ? {} : { gameStartTime: rules.gameStartTime }),
  }));
}
