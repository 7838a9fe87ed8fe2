import { Observable, race, Subject, take, timer, of, type Observer, type Subscription } from 'rxjs';
import { ClobotError, isOutcomeUnknown, RateLimitError, VenueRejectError } from '../core/errors.ts';
import { Outlet } from '../execution/batcher.ts';
import type { PreparedOrder, SubmitResult } from '../execution/execution-client.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import { MAX_ORDERS_PER_BATCH } from '../venue/endpoints.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { Reconciler } from './reconciler.ts';
import { ENGINE_METRICS } from './engine-metrics.ts';
import { venueRestrictionOfItem } from '../venue/venue-state.ts';
import type { VenueStateTracker } from './venue-state-tracker.ts';

/** How often a throttled (429) or paused (503) batch is posted before its orders count as rejected. */
export const MAX_SUBMIT_ATTEMPTS = 6;

/** Retry-After of a definite, retryable refusal (429, 503), else undefined. */
function retryableRefusal(err: unknown): number | undefined {
  if (err instanceof RateLimitError) return Math.max(100, err.retryAfterMs ?? 1_000);
  if (err instanceof VenueRejectError && (err.status === 429 || err.status === 503)) return Math.max(100, err.retryAfterMs ?? 1_000);
  return undefined;
}

/** One batch on its way out: prepared, its hashes committed, posted (again after a 429/503), answered. */
interface Post {
  readonly records: readonly OrderRecord[];
  /**
   * Bumped at each step (and at the end): an answer of an earlier step, or of a post torn down,
   * finds another number and is ignored, as an unsubscribed operator chain would drop it.
   */
  step: number;
  /** What the post waits on now (a prepare, a submit or a retry timer), when it can be torn down. */
  wait: Subscription | undefined;
  ended: boolean;
  /** The stopwatch when the batch left the batcher (its preparation began), ms. */
  readonly startedAt: number;
}

/**
 * Follows the one answer of a post's step. A class rather than an object literal of arrows:
 * tsx keeps function names, so each named arrow made per batch costs a `__name` call (a
 * property definition), about as much as the rest of the step.
 */
class StepObserver<T> implements Observer<T> {
  constructor(
    readonly post: Post,
    readonly step: number,
    readonly onValue: (value: T) => void,
    readonly onFail: (err: unknown) => void,
    readonly onEnd: (post: Post) => void,
  ) {}

  next(value: T): void {
    const post = this.post;
    if (post.step !== this.step) return;
    try {
      this.onValue(value);
    } catch (err) {
      // a throwing step errors its chain: what the source sends after is ignored
      if (post.step === this.step) post.step++;
      this.onFail(err);
    }
  }

  error(err: unknown): void {
    if (this.post.step !== this.step) return;
    this.post.step++;
    this.onFail(err);
  }

  /** A completion the step did not move on from ends the post. */
  complete(): void {
    if (this.post.step === this.step) this.onEnd(this.post);
  }
}

/**
 * The order path out: approved orders are batched on the clock (at most MAX_ORDERS_PER_BATCH, or
 * posted at once when maxBatchWaitMs is 0), prepared (hashed, signed), their hashes stored and
 * committed BEFORE the post, then posted with at most maxInFlightBatches in flight. A 429 or 503
 * posts the same signed orders again after Retry-After; an outcome-unknown post goes to the
 * reconciler; every answer is applied to the order records.
 *
 * Each batch follows its steps with plain callbacks (the edge's Observables are subscribed
 * directly) rather than a chain of RxJS operators: the chain cost about a third of the CPU of
 * the order path (a subscriber and closures per operator per batch). The semantics are the
 * chain's: an error of a step refuses the batch (or retries it), the engine's subscriptions
 * ending tears every post down.
 */
export class OrderSubmitter {
  readonly #desk: EngineDesk;
  readonly #canceller: OrderCanceller;
  readonly #reconciler: Reconciler;
  readonly #venue: VenueStateTracker | undefined;
  /** Emits when the last in-flight order batch is answered. */
  readonly #settled$ = new Subject<void>();
  readonly #batchSize: number;
  /** Batches on the clock, at most maxInFlightBatches started and not ended; the rest wait in order. */
  readonly #out: Outlet<OrderRecord>;
  readonly #posts = new Set<Post>();
  /** Ends a post whose step completed (made once: see StepObserver). */
  readonly #endPost = (post: Post): void => this.#end(post);
  #inFlight = 0;

  constructor(desk: EngineDesk, canceller: OrderCanceller, reconciler: Reconciler, venue?: VenueStateTracker) {
    this.#desk = desk;
    this.#canceller = canceller;
    this.#reconciler = reconciler;
    this.#venue = venue;
    const settings = desk.settings;
    this.#batchSize = Math.max(1, Math.min(settings.maxBatchSize, MAX_ORDERS_PER_BATCH));
    this.#out = new Outlet(settings.maxBatchWaitMs, this.#batchSize, settings.maxInFlightBatches, desk.clock.scheduler, (batch) => this.#submitBatch(batch));
  }

  /** Number of order batches still waiting for an answer. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts the order path: batch on the clock, prepare, commit, post, apply the results. */
  start(): void {
    this.#out.open();
    this.#desk.subs.add(() => this.#tearDown());
  }

  /** Queues approved orders (one strategy call's worth) for posting. */
  submit(approved: readonly OrderRecord[]): void {
    if (this.#desk.settings.maxBatchWaitMs <= 0) {
      // no waiting for more: what this call produced goes out now, in posts of at most 15
      const size = this.#batchSize;
      for (let i = 0; i < approved.length; i += size) this.#out.post(approved.length <= size ? approved : approved.slice(i, i + size));
    } else {
      for (const record of approved) this.#out.push(record);
    }
  }

  /**
   * Queues orders that must share ONE post (a basket's legs, at most MAX_ORDERS_PER_BATCH): they
   * join the waiting batch when they fit beside it, else the next one, and are never split. A
   * group larger than the configured `maxBatchSize` (but within the venue's 15) is posted at once
   * as its own batch.
   */
  submitTogether(records: readonly OrderRecord[]): void {
    if (records.length > MAX_ORDERS_PER_BATCH) throw new RangeError(`${records.length} orders cannot share a batch of at most ${MAX_ORDERS_PER_BATCH}`);
    if (this.#desk.settings.maxBatchWaitMs <= 0 || records.length > this.#batchSize) this.#out.post(records);
    else this.#out.pushGroup(records);
  }

  /** Emits once no order batch is in flight (at once when none is), or after `maxMs` on the clock. */
  drain$(maxMs: number): Observable<unknown> {
    if (this.#inFlight === 0) return of(undefined);
    return race(this.#settled$, timer(maxMs, this.#desk.clock.scheduler)).pipe(take(1));
  }

  /** Ends the order streams (a batch waiting in the batcher is flushed, then dropped as cancelled). */
  complete(): void {
    this.#out.complete();
  }

  /** The engine's subscriptions ended: nothing more goes out, posts waiting on an answer forget it. */
  #tearDown(): void {
    this.#out.close();
    for (const post of [...this.#posts]) {
      post.wait?.unsubscribe();
      this.#end(post, false);
    }
  }

  #submitBatch(batch: readonly OrderRecord[]): void {
    const desk = this.#desk;
    const live = this.#dropCancelled(batch);
    if (live.length === 0) {
      this.#out.done();
      return;
    }
    this.#inFlight++;
    const post: Post = { records: live, step: 0, wait: undefined, ended: false, startedAt: desk.stopwatch() };
    this.#posts.add(post);
    const requests = live.map((r) => r.request);
    this.#follow(post, desk.execution.prepare(requests), (orders) => this.#prepared(post, orders), (err) => {
      // preparing (building, signing) or storing the hashes failed: nothing left the process
      this.#refuse(live, err);
      this.#end(post);
    });
  }

  /**
   * Follows the one answer of `source` for the post's current step: `next` gets the value (what
   * it throws goes to `fail`, as a throwing tap errors its chain), `fail` the error; a completion
   * the step did not move on from ends the post.
   */
  #follow<T>(post: Post, source: Observable<T>, next: (value: T) => void, fail: (err: unknown) => void): void {
    const step = ++post.step;
    const sub = source.subscribe(new StepObserver(post, step, next, fail, this.#endPost));
    if (post.step === step && !sub.closed) post.wait = sub;
  }

  /** The orders are hashed: the hashes are stored BEFORE the post (a restart finds and reconciles it by them). */
  #prepared(post: Post, orders: readonly PreparedOrder[]): void {
    const desk = this.#desk;
    const live = post.records;
    const at = desk.clock.now();
    const tracker = desk.tracker;
    desk.transaction(() => {
      for (let i = 0; i < orders.length; i++) tracker.setOrderId(live[i]!, orders[i]!.orderId, at);
    });
    desk.metrics.inc(ENGINE_METRICS.batches);
    // the hashes are committed before the post (the tick's transaction may still be open)
    const persistence = desk.persistence;
    if (persistence?.afterCommit === undefined) {
      this.#send(post, live, orders, 1);
      return;
    }
    const step = ++post.step;
    post.wait = undefined;
    persistence.afterCommit((committed) => {
      if (post.step !== step) return;
      try {
        if (!committed) throw new ClobotError('the order hashes were not committed to the store; the orders were not sent');
        this.#send(post, live, orders, 1);
      } catch (err) {
        this.#refuse(live, err);
        this.#end(post);
      }
    });
  }

  /** Once: the post is answered (or torn down); the next waiting batch may start. */
  #end(post: Post, next = true): void {
    if (post.ended) return;
    post.ended = true;
    post.step++;
    post.wait = undefined;
    this.#posts.delete(post);
    this.#inFlight--;
    if (this.#inFlight === 0) this.#settled$.next();
    if (next) this.#out.done();
  }

  /** Orders cancelled while they waited (in the batcher or for a retry) never leave. */
  #dropCancelled(batch: readonly OrderRecord[]): OrderRecord[] {
    const desk = this.#desk;
    const now = desk.clock.now();
    return batch.filter((r) => {
      if (!r.cancelWhenLive) return true;
      desk.tracker.transition(r, 'CANCELED', now, 'cancelled before submission');
      desk.orderEvent(r.request.strategyId, { type: 'OrderCanceled', clientOrderId: r.request.clientOrderId, orderId: undefined, reason: 'cancelled before submission', tsInit: now });
      return false;
    });
  }

  /**
   * Posts prepared orders. A 429 or a 503 (trading paused) is a definite "not taken": the same
   * signed orders (same hashes, so never a duplicate) are posted again after the venue's
   * Retry-After, up to MAX_SUBMIT_ATTEMPTS, so a throttling storm loses no intent.
   */
  #send(post: Post, records: readonly OrderRecord[], prepared: readonly PreparedOrder[], attempt: number): void {
    const desk = this.#desk;
    if (attempt === 1) {
      desk.metrics.inc(ENGINE_METRICS.submitted, undefined, prepared.length);
      this.#timed(post, records.length);
    }
    this.#follow(
      post,
      desk.execution.submit(prepared),
      (results) => desk.transaction(() => this.#applyResults(records, results)),
      (err) => this.#sendFailed(post, records, prepared, attempt, err),
    );
  }

  /** The batch's timings as its post is handed to the edge (first attempt): a `batch` event on the bus. */
  #timed(post: Post, orders: number): void {
    const desk = this.#desk;
    const now = desk.stopwatch();
    const tickAt = post.records[0]!.tickAt;
    const from = tickAt > 0 ? tickAt : post.startedAt;
    desk.emit({
      type: 'batch',
      orders,
      at: desk.clock.now(),
      timings: { tickToTradeSeconds: (now - from) / 1000, queuedSeconds: (post.startedAt - from) / 1000, prepareSeconds: (now - post.startedAt) / 1000 },
    });
  }

  #sendFailed(post: Post, records: readonly OrderRecord[], prepared: readonly PreparedOrder[], attempt: number, err: unknown): void {
    const desk = this.#desk;
    if (this.#venue?.refused(err) === true) {
      // the venue restarts (425) or is in a restricted mode (503): these orders were not taken.
      // Not posted again (a taker order held through a restart would go out at a stale price):
      // the strategy hears OrderRejected and VenueStateChanged and decides again; not a reject
      // the kill switch counts
      this.#refuse(records, err, false);
      this.#end(post);
      return;
    }
    const retryAfterMs = retryableRefusal(err);
    if (retryAfterMs !== undefined && attempt < MAX_SUBMIT_ATTEMPTS && !desk.stopped) {
      desk.metrics.inc(ENGINE_METRICS.resubmitted, undefined, prepared.length);
      desk.log.warn('batch throttled; posting the same orders again', { orders: prepared.length, retryAfterMs, attempt });
      const step = ++post.step;
      post.wait = desk.clock.scheduler.schedule(() => {
        if (post.step !== step) return;
        try {
          const still = this.#dropCancelled(records);
          if (still.length === 0) {
            this.#end(post);
            return;
          }
          const keep = new Set(still);
          this.#send(post, still, prepared.filter((_, i) => keep.has(records[i]!)), attempt + 1);
        } catch (error) {
          this.#refuse(post.records, error);
          this.#end(post);
        }
      }, retryAfterMs);
      return;
    }
    if (prepared.length > 0 && isOutcomeUnknown(err)) this.#reconciler.markUnknown(records, err instanceof Error ? err.message : String(err));
    else this.#refuse(records, err);
    this.#end(post);
  }

  #applyResults(records: readonly OrderRecord[], results: readonly SubmitResult[]): void {
    const desk = this.#desk;
    const { tracker, metrics } = desk;
    const now = desk.clock.now();
    let taken = false;
    let taker = false;
    records.forEach((record, i) => {
      const result = results[i];
      const strategyId = record.request.strategyId;
      if (!result) {
        this.#reconciler.markUnknown([record], 'no result for this item');
        return;
      }
      if (result.ok) {
        metrics.inc(ENGINE_METRICS.accepted);
        desk.consecutiveRejects = 0;
        taken = true;
        if (!isPostOnly(record)) taker = true;
        if (record.orderId !== result.orderId && result.orderId) tracker.setOrderId(record, result.orderId, now);
        // the shares it matched at once: a BUY takes them, a SELL gives them
        if (result.status === 'MATCHED') record.matched = record.request.side === 'BUY' ? result.taking : result.making;
        // a matched order may already be filled; fills arrive through fills$
        if (record.status === 'PENDING_SUBMIT' || record.status === 'SUBMIT_UNKNOWN') {
          const next = result.status === 'MATCHED' && record.filled >= record.request.size ? 'FILLED' : record.filled > 0 ? 'PARTIALLY_FILLED' : 'LIVE';
          tracker.transition(record, next, now, result.status === 'DELAYED' ? 'delayed by the venue (matching delay)' : undefined);
        }
        // held for the market's matching delay: followed until it matched or ended, never sent again
        if (result.status === 'DELAYED') this.#reconciler.followDelayed(record);
        else if ((record.request.orderType === 'FAK' || record.request.orderType === 'FOK') && record.status !== 'FILLED') {
          // FAK/FOK never rest: once the venue has answered, what did not fill is gone (its
          // fills still arrive through fills$ and are booked on this record)
          tracker.transition(record, 'CANCELED', now, 'FAK/FOK: unfilled remainder killed at the venue');
        }
        desk.orderEvent(strategyId, { type: 'OrderAccepted', clientOrderId: record.request.clientOrderId, orderId: result.orderId, tsInit: now });
        if (record.cancelWhenLive) this.#canceller.request(record);
      } else {
        metrics.inc(ENGINE_METRICS.rejected);
        // an item refused for the venue's mode is the venue's state, not a reject the kill switch counts
        const restriction = this.#venue === undefined ? undefined : venueRestrictionOfItem(result.errorMsg);
        if (restriction === undefined) desk.consecutiveRejects++;
        else this.#venue!.restricted(restriction);
        tracker.transition(record, 'REJECTED', now, result.errorMsg);
        desk.orderEvent(strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason: result.errorMsg, tsInit: now });
      }
    });
    this.#venue?.posted(taken, taker);
  }

  /**
   * The batch was refused as a whole (4xx, 503 or 429 past the retries, the venue restricted) or
   * never sent. `counts`: whether the kill switch's consecutive rejects count it.
   */
  #refuse(records: readonly OrderRecord[], err: unknown, counts = true): void {
    const desk = this.#desk;
    const now = desk.clock.now();
    const reason = err instanceof VenueRejectError ? `${err.status} ${err.venueMessage}` : err instanceof RateLimitError ? `429 ${err.message}` : err instanceof Error ? err.message : String(err);
    for (const record of records) {
      desk.metrics.inc(ENGINE_METRICS.rejected);
      desk.tracker.transition(record, 'REJECTED', now, reason);
      desk.orderEvent(record.request.strategyId, { type: 'OrderRejected', clientOrderId: record.request.clientOrderId, reason, tsInit: now });
    }
    if (counts && !(err instanceof RateLimitError)) desk.consecutiveRejects += records.length;
    desk.log.warn('batch refused', { orders: records.length, reason });
  }
}

/** A post-only GTC/GTD order: what the venue takes in its post-only mode. */
function isPostOnly(record: OrderRecord): boolean {
  const { postOnly, orderType } = record.request;
  return postOnly === true && (orderType === undefined || orderType === 'GTC' || orderType === 'GTD');
}
