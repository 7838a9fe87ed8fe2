import { concat, defer, EMPTY, exhaustMap, firstValueFrom, from, merge, mergeMap, Observable, share, Subject, takeUntil, timer } from 'rxjs';
import type { Clock } from '../../core/clock.ts';
import { getAccountTrades } from '../../venue/actions/get-account-trades.ts';
import type { VenueClient } from '../../venue/client.ts';
import type { AccountTrade } from '../../venue/domain/account.ts';
import { FIRST_CURSOR } from '../../venue/decode.ts';
import type { VenueLogger } from '../../venue/logger.ts';
import type { FillsSnapshot, VenueFill } from '../execution-client.ts';
import { fillsOfTrade, isNews, type FillOwner } from './trade-fills.ts';

export interface FillsPollerOptions {
  /** L2-authenticated client. */
  readonly client: VenueClient;
  readonly owner: FillOwner;
  /** Time between polls on the client's clock. Default 1,000 ms. */
  readonly pollIntervalMs?: number;
  /**
   * Each poll asks for trades after (newest match time seen − margin), so a trade the venue
   * lists late, or whose status moves on, is still seen. Default 10,000 ms.
   */
  readonly marginMs?: number;
  /** Fills matched before this are not asked for. Default: the clock's time at first subscription. */
  readonly sinceMs?: number;
  /**
   * A poll is skipped (not queued) when the `/data/trades` budget has fewer requests left than
   * this, so polling never starves other callers nor draws a 429. Default 20.
   */
  readonly minBudget?: number;
  /** Most pages one poll walks. Default 50. */
  readonly maxPages?: number;
  readonly logger?: VenueLogger;
}

export interface FillsPollerCounters {
  polls: number;
  /** Polls that did not read every page (a page failed, or `maxPages` was reached): their window was not advanced. */
  incomplete: number;
  /** Polls skipped for lack of budget or because the previous one had not finished. */
  skipped: number;
  errors: number;
  /** Fills emitted (a status change of a fill counts again). */
  emitted: number;
}

/** What one poll read: the new fills (or status moves) and whether every page arrived. */
export interface FillsPoll {
  readonly fills: VenueFill[];
  readonly snapshot: FillsSnapshot;
}

/** Polls a flush makes when they fail. */
const FLUSH_ATTEMPTS = 3;
/** Wait before a failed flush poll is made again, ms (times the attempt). */
const FLUSH_RETRY_MS = 200;

interface Seen {
  status: string;
  tsEvent: number;
}

/** Trade statuses after which a trade no longer changes. */
const FINAL_STATUSES: ReadonlySet<string> = new Set(['CONFIRMED', 'FAILED']);

/**
 * Our fills, polled from `GET /data/trades` on the client's clock. Each fill of one of our orders
 * (see `fillsOfTrade`) is emitted once per (trade id, order id), and again only when the trade's
 * status changes (MATCHED → MINED → CONFIRMED, or FAILED), which the engine uses to mark a fill
 * confirmed (or void). A trade not final yet keeps the polled window open back to its match
 * time, so its next status is seen however long it takes to settle. Polls never overlap; a failed poll is counted and logged and the next one runs as
 * usual. A poll moves its window on only when it read every page (`snapshots$`): a page that
 * failed after newer ones arrived must not leave its trades behind the next window. `fills$` is shared: one poller for every subscriber, stopped by `close()`.
 */
export class FillsPoller {
  readonly counters: FillsPollerCounters = { polls: 0, incomplete: 0, skipped: 0, errors: 0, emitted: 0 };
  readonly fills$: Observable<VenueFill>;
  /** One per poll made (after its fills are emitted): complete or not. */
  readonly snapshots$: Observable<FillsSnapshot>;
  readonly #snapshots = new Subject<FillsSnapshot>();
  readonly #opts: FillsPollerOptions;
  readonly #clock: Clock;
  readonly #closed = new Subject<void>();
  /** Fills found by `flush()`, emitted on `fills$` with the polled ones (and on `flushed$`). */
  readonly #flushed = new Subject<VenueFill>();
  /** The fills `flush()` found, for a source that drives the polls itself (`poll`, `readOnce`) instead of `fills$`. */
  readonly flushed$: Observable<VenueFill> = this.#flushed.asObservable();
  readonly #seen = new Map<string, Seen>();
  #newestMs: number | undefined;
  #isClosed = false;

  constructor(options: FillsPollerOptions) {
    this.#opts = options;
    this.#clock = options.client.clock;
    const every = options.pollIntervalMs ?? 1_000;
    this.fills$ = defer(() => {
      if (this.#isClosed) return EMPTY;
      this.#newestMs ??= options.sinceMs ?? this.#clock.now();
      return merge(
        timer(0, every, this.#clock.scheduler).pipe(
          exhaustMap(() => this.poll()),
          // the snapshot is told after its fills are out: a subscriber that lifts a gate on it has booked them
          mergeMap(({ fills, snapshot }) => concat(from(fills), defer(() => (this.#snapshots.next(snapshot), EMPTY)))),
        ),
        this.#flushed,
      );
    }).pipe(takeUntil(this.#closed), share());
    this.snapshots$ = this.#snapshots.asObservable();
  }

  /**
   * Polls now (whatever the interval and budget reserve say) and emits the new fills on `fills$`;
   * resolves with how many there were. For a final look before stopping: a poll that fails is
   * made again (up to FLUSH_ATTEMPTS, after a short wait), so one error at stop loses no fill.
   */
  async flush(): Promise<number> {
    let count = 0;
    for (let attempt = 1; attempt <= FLUSH_ATTEMPTS && !this.#isClosed; attempt++) {
      const errors = this.counters.errors;
      const { fills, snapshot } = await this.#pollOnce();
      for (const fill of fills) this.#flushed.next(fill);
      this.#snapshots.next(snapshot);
      count += fills.length;
      if (this.counters.errors === errors) break;
      if (attempt < FLUSH_ATTEMPTS) await firstValueFrom(timer(FLUSH_RETRY_MS * attempt, this.#clock.scheduler));
    }
    return count;
  }

  /** Stops polling and completes `fills$`. */
  close(): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.#closed.next();
    this.#closed.complete();
    this.#snapshots.complete();
  }

  /**
   * Takes a fill learned elsewhere (the user channel) as seen: true when it is news (not seen, or
   * a later status), and then a poll will not tell it again at that status; its trade, while not
   * final, keeps the polled window open back to its match time. With `advance`, its match time
   * moves the window on: the source vouches that nothing matched before it is missing.
   */
  note(fill: VenueFill, matchTimeMs: number | undefined, advance: boolean): boolean {
    const key = `${fill.tradeId}:${fill.orderId}`;
    const seen = this.#seen.get(key);
    if (!isNews(seen?.status, fill.status)) return false;
    this.#seen.set(key, { status: fill.status, tsEvent: matchTimeMs ?? seen?.tsEvent ?? fill.tsEvent });
    if (advance && matchTimeMs !== undefined && matchTimeMs > (this.#newestMs ?? 0)) this.#newestMs = matchTimeMs;
    return true;
  }

  /** One poll unless the budget reserve says no (then nothing: counted as skipped). */
  poll(): Observable<FillsPoll> {
    const { client } = this.#opts;
    if (client.budget.remaining('getAccountTrades') < (this.#opts.minBudget ?? 20) || client.budget.waitMs('getAccountTrades') > 0) {
      this.counters.skipped++;
      return EMPTY;
    }
    return defer(() => from(this.#pollOnce()));
  }

  /** One poll now, whatever the budget says (a failed page is counted, and the snapshot says so). */
  readOnce(): Promise<FillsPoll> {
    return this.#pollOnce();
  }

  async #pollOnce(): Promise<FillsPoll> {
    const { client } = this.#opts;
    this.counters.polls++;
    const from = this.#clock.now();
    const margin = this.#opts.marginMs ?? 10_000;
    const newest = Math.min(this.#newestMs ?? this.#clock.now(), this.#oldestUnsettledMs());
    const after = Math.max(0, Math.floor((newest - margin) / 1000));
    const fills: VenueFill[] = [];
    const forgetBeforeMs = after * 1000 - margin;
    // the newest match time read, taken as the next window's start only when every page arrived
    const read = { newestMs: this.#newestMs ?? 0 };
    let incomplete: string | undefined;
    try {
      let cursor = FIRST_CURSOR;
      const maxPages = this.#opts.maxPages ?? 50;
      for (let page = 0; ; page++) {
        if (page >= maxPages) {
          incomplete = `more than ${maxPages} pages`;
          break;
        }
        const result = await getAccountTrades(client, { after }, cursor);
        const tsInit = this.#clock.now();
        for (const trade of result.items) this.#collect(trade, tsInit, forgetBeforeMs, fills, read);
        if (result.done || result.nextCursor === cursor) break;
        cursor = result.nextCursor;
      }
    } catch (err) {
      this.counters.errors++;
      incomplete = `a page failed: ${err instanceof Error ? err.message : String(err)}`;
      this.#opts.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'fills poll failed');
    }
    // max: a fill noted meanwhile (the user channel) may have moved the window on
    if (incomplete === undefined) this.#newestMs = Math.max(read.newestMs, this.#newestMs ?? 0);
    else this.counters.incomplete++;
    this.#prune(forgetBeforeMs);
    this.counters.emitted += fills.length;
    const at = this.#clock.now();
    return { fills, snapshot: incomplete === undefined ? { complete: true, at, from } : { complete: false, at, reason: incomplete } };
  }

  #collect(trade: AccountTrade, tsInit: number, forgetBeforeMs: number, out: VenueFill[], read: { newestMs: number }): void {
    // older than what is remembered: a venue that ignored `after` must not make us emit it again
    if (trade.matchTime !== undefined && trade.matchTime < forgetBeforeMs) return;
    if (trade.matchTime !== undefined && trade.matchTime > read.newestMs) read.newestMs = trade.matchTime;
    for (const fill of fillsOfTrade(trade, this.#opts.owner, tsInit)) {
      const key = `${fill.tradeId}:${fill.orderId}`;
      const seen = this.#seen.get(key);
      if (!isNews(seen?.status, fill.status)) continue;
      this.#seen.set(key, { status: fill.status, tsEvent: trade.matchTime ?? Number.POSITIVE_INFINITY });
      out.push(fill);
    }
  }

  /** Forgets fills matched well before the window the next polls ask for (never one still settling). */
  #prune(beforeMs: number): void {
    for (const [key, seen] of this.#seen) if (seen.tsEvent < beforeMs && FINAL_STATUSES.has(seen.status)) this.#seen.delete(key);
  }

  /** Match time of the oldest fill seen whose trade is not final yet (infinity when none). */
  #oldestUnsettledMs(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const seen of this.#seen.values()) if (!FINAL_STATUSES.has(seen.status) && seen.tsEvent < oldest) oldest = seen.tsEvent;
    return oldest;
  }
}
