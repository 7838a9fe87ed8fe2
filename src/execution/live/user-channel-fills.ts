import { BehaviorSubject, defer, distinctUntilChanged, EMPTY, exhaustMap, from, map, merge, mergeMap, Observable, share, Subject, switchMap, takeUntil, timer } from 'rxjs';
import type { Clock } from '../../core/clock.ts';
import type { VenueLogger } from '../../venue/logger.ts';
import type { FillsSnapshot, VenueFill, VenueOrderUpdate } from '../execution-client.ts';
import type { FillsPoll, FillsPoller } from './fills-poller.ts';
import { fillsOfTrade, type FillOwner } from './trade-fills.ts';
import { UserChannelSocket, type UserChannelSocketOptions } from './user-channel.ts';
import type { UserChannelMessage, UserOrderEvent } from './user-channel-messages.ts';

/** What each `order` message of the channel is to the engine. */
const ORDER_EVENTS = { PLACEMENT: 'placed', UPDATE: 'matched', CANCELLATION: 'cancelled' } as const satisfies Record<UserOrderEvent, VenueOrderUpdate['event']>;

/** Where the fills come from: `down` (polled), `syncing` (channel up, its gap being read), `up` (the channel). */
export type UserChannelMode = 'down' | 'syncing' | 'up';

export interface UserChannelFillsOptions {
  /** The account-trades poller: the fallback, the gap reads and the shared record of fills seen. */
  readonly poller: FillsPoller;
  readonly owner: FillOwner;
  readonly clock: Clock;
  /** The channel socket's settings (URL, credentials, markets, timers). */
  readonly socket: Omit<UserChannelSocketOptions, 'clock' | 'onState' | 'onMessages' | 'onError'>;
  /** Polls while the channel is not trusted (down, or its gap not read yet), ms. Default 1,000. */
  readonly pollIntervalMs?: number;
  /** While the channel is trusted, a poll this often all the same (a check on the channel); 0: none. Default 30,000. */
  readonly auditPollMs?: number;
  readonly logger?: VenueLogger;
}

export interface UserChannelCounters {
  mode: UserChannelMode;
  /** Sockets subscribed (PONG after the subscription), and how often one dropped. */
  connects: number;
  drops: number;
  /** Messages read (`order` and `trade`), and frames that failed to decode (the socket was remade). */
  messages: number;
  decodeErrors: number;
  /** Fills (or status moves) first learned from the channel, and from polls. */
  channelFills: number;
  polledFills: number;
  /** Channel fills already known at that status (a re-sent message, or polled first): dropped. */
  duplicates: number;
  /** Reads of the venue's trades after a (re)connect, and those that missed a page (read again). */
  gapReads: number;
  gapReadsIncomplete: number;
  /** `order` messages (PLACEMENT, UPDATE, CANCELLATION) passed on as order updates. */
  orderUpdates: number;
}

/** A user-channel message with its receipt time, as the run journals it. */
export type ReceivedUserMessage = UserChannelMessage & { readonly tsInit: number };

/**
 * Our fills from the venue's user channel, with polling as the fallback and the gap filler:
 *
 * - Channel `down` (not yet connected, or dropped): `GET /data/trades` is polled every
 *   `pollIntervalMs` (the poller's budget reserve applies) and each poll's snapshot is told.
 *   A drop of a subscribed socket says an incomplete snapshot with `gap: true`, so the engine
 *   trades no market until a complete read.
 * - Channel subscribed: `syncing` until one complete read of our trades that began after the
 *   subscription was acknowledged (a read that began earlier, or missed a page, does not count:
 *   read again next interval); then `up`: the channel alone, and a poll each `auditPollMs` if set.
 * - Each `trade` message becomes our fills (trade-fills.ts) as the poller's would; one is passed
 *   on only when it is news: not seen, or a later status (MATCHED -> MINED/RETRYING ->
 *   CONFIRMED/FAILED). The poller and the channel share one record of what was seen
 *   (`FillsPoller.note`), so a trade re-sent, or polled and pushed, counts once, and a trade still
 *   settling keeps the polled window open for when the channel drops.
 * - `order` messages are passed on (`orderUpdates$`): PLACEMENT `placed`, UPDATE `matched`,
 *   CANCELLATION `cancelled` (what the engine makes of each: src/engine/venue-order-updates.ts).
 *   Every message is told on `messages$` for the run's journal.
 */
export class UserChannelFills {
  readonly counters: UserChannelCounters = {
    mode: 'down',
    connects: 0,
    drops: 0,
    messages: 0,
    decodeErrors: 0,
    channelFills: 0,
    polledFills: 0,
    duplicates: 0,
    gapReads: 0,
    gapReadsIncomplete: 0,
    orderUpdates: 0,
  };
  readonly fills$: Observable<VenueFill>;
  readonly snapshots$: Observable<FillsSnapshot>;
  readonly orderUpdates$: Observable<VenueOrderUpdate>;
  readonly messages$: Observable<ReceivedUserMessage>;
  /** The mode as it changes (starts `down`). */
  readonly mode$: Observable<UserChannelMode>;
  readonly #o: UserChannelFillsOptions;
  readonly #poller: FillsPoller;
  readonly #socket: UserChannelSocket;
  readonly #mode = new BehaviorSubject<UserChannelMode>('down');
  readonly #pushed = new Subject<VenueFill>();
  readonly #snapshots = new Subject<FillsSnapshot>();
  readonly #orders = new Subject<VenueOrderUpdate>();
  readonly #messages = new Subject<ReceivedUserMessage>();
  readonly #closed = new Subject<void>();
  /** Counts subscriptions: a read counts as the gap read only if it began in `syncing` of the same subscription. */
  #epoch = 0;

  constructor(options: UserChannelFillsOptions) {
    this.#o = options;
    this.#poller = options.poller;
    const clock = options.clock;
    this.#socket = new UserChannelSocket({
      ...options.socket,
      clock,
      onState: (state, reason) => this.#onState(state, reason),
      onMessages: (messages, tsInit) => this.#onMessages(messages, tsInit),
      onError: (err) => {
        if (err instanceof Error && err.name === 'DecodeError') this.counters.decodeErrors++;
        options.logger?.warn({ err: err instanceof Error ? err.message : String(err) }, 'user channel');
      },
    });
    const every = options.pollIntervalMs ?? 1_000;
    const audit = options.auditPollMs ?? 30_000;
    const polls$ = this.#mode.pipe(
      distinctUntilChanged(),
      switchMap((mode) => (mode !== 'up' ? timer(0, every, clock.scheduler) : audit > 0 ? timer(audit, audit, clock.scheduler) : EMPTY)),
      // a read in flight is never cut off (its fills are marked seen when it ends): ticks wait for it
      exhaustMap(() => this.#read()),
      mergeMap((fills) => from(fills)),
    );
    this.fills$ = defer(() => {
      this.#socket.start();
      return merge(this.#pushed, polls$, this.#poller.flushed$);
    }).pipe(takeUntil(this.#closed), share());
    this.snapshots$ = merge(this.#snapshots, this.#poller.snapshots$);
    this.orderUpdates$ = this.#orders.asObservable();
    this.messages$ = this.#messages.asObservable();
    this.mode$ = this.#mode.asObservable();
  }

  /** A final poll before stopping (FillsPoller.flush): its fills come on `fills$`. */
  flush(): Promise<number> {
    return this.#poller.flush();
  }

  close(): void {
    this.#socket.stop();
    this.#closed.next();
    this.#closed.complete();
    this.#poller.close();
    this.#snapshots.complete();
    this.#orders.complete();
    this.#messages.complete();
    this.#mode.complete();
  }

  #setMode(mode: UserChannelMode): void {
    this.counters.mode = mode;
    if (this.#mode.value !== mode) this.#mode.next(mode);
  }

  #onState(state: 'up' | 'down', reason: string): void {
    const log = this.#o.logger;
    if (state === 'up') {
      this.counters.connects++;
      this.#epoch++;
      this.#setMode('syncing');
      log?.info({ reason }, 'user channel subscribed; reading our trades to fill the gap');
      return;
    }
    if (this.#mode.value === 'down') return;
    // our own stop (the run is ending) is not a drop: no warning, not counted
    const ours = reason === 'stopped';
    if (!ours) this.counters.drops++;
    this.#epoch++;
    this.#setMode('down');
    if (ours) log?.info({ reason }, 'user channel closed; our trades are read by polling until the run ends');
    else log?.warn({ reason }, 'user channel down; polling our trades until it is back');
    this.#snapshots.next({ complete: false, at: this.#o.clock.now(), reason: `the user channel dropped (${reason})`, gap: true });
  }

  /** One read of our trades: a gap read while `syncing` (any budget), else a poll; its snapshot told after its fills. */
  #read(): Observable<VenueFill[]> {
    const mode = this.#mode.value;
    const epoch = this.#epoch;
    const poll$: Observable<FillsPoll> = mode === 'syncing' ? defer(() => from(this.#poller.readOnce())) : this.#poller.poll();
    return poll$.pipe(
      map(({ fills, snapshot }) => {
        this.counters.polledFills += fills.length;
        if (mode === 'syncing') {
          this.counters.gapReads++;
          if (!snapshot.complete) this.counters.gapReadsIncomplete++;
        }
        // told after the fills are out (see FillsPoller): deferred to the end of this turn's emission
        queueMicrotask(() => {
          this.#snapshots.next(snapshot);
          if (mode === 'syncing' && snapshot.complete && epoch === this.#epoch && this.#mode.value === 'syncing') {
            this.#setMode('up');
            this.#o.logger?.info({}, 'user channel trusted: our trades read in full since it subscribed');
          }
        });
        return fills;
      }),
    );
  }

  #onMessages(messages: readonly UserChannelMessage[], tsInit: number): void {
    for (const m of messages) {
      this.counters.messages++;
      this.#messages.next({ ...m, tsInit });
      if (m.kind === 'order') {
        this.counters.orderUpdates++;
        const o = m.order;
        this.#orders.next({
          event: ORDER_EVENTS[m.event],
          state: {
            orderId: o.id,
            status: m.event === 'CANCELLATION' ? 'CANCELED' : o.status,
            tokenId: o.assetId,
            conditionId: o.market,
            side: o.side,
            price: o.price,
            originalSize: o.originalSize,
            sizeMatched: o.sizeMatched,
            clientOrderId: undefined,
          },
          at: m.ts ?? tsInit,
          tsInit,
        });
        continue;
      }
      for (const fill of fillsOfTrade(m.trade, this.#o.owner, tsInit)) {
        // the window moves on only once the channel is trusted (before that, a gap may lie behind this trade)
        if (!this.#poller.note(fill, m.trade.matchTime, this.#mode.value === 'up')) {
          this.counters.duplicates++;
          continue;
        }
        this.counters.channelFills++;
        this.#pushed.next(fill);
      }
    }
  }
}
