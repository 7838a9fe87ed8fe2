import { Observable } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { ConfigError } from '../core/errors.ts';
import type { OrderBook, TokenId } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';
import type { FeedEvent } from './feed-events.ts';
import { WatchedTokens, type WatchedTokensChange } from './watched-tokens.ts';
import { WsConnection, type WsConnectionSettings } from './ws-connection.ts';

/** The venue closes market-channel connections that send no `PING` for a while (PROTOCOL: every 10 s). */
export const WS_PING_INTERVAL_MS = 10_000;
/** Assets per connection; more are spread over several connections. */
export const WS_MAX_ASSETS_PER_CONNECTION = 500;

export interface WsSourceOptions {
  /**
   * The venue's base URL (`http://127.0.0.1:8765`, `https://host/prefix`): the channel is
   * `<base>/ws/market` over ws/wss. A `ws://` or `wss://` URL is used as given.
   */
  readonly url: string;
  /** The assets: a fixed list, or a set that changes while the source runs. */
  readonly tokenIds: readonly TokenId[] | WatchedTokens;
  /** Receipt times (`tsInit`) and every timer (ping, reconnect backoff, staleness). */
  readonly clock: Clock;
  /** Default 10 s. */
  readonly pingIntervalMs?: number;
  /** No frame at all (not even PONG) for this long: the connection is dropped and remade. Default 3 pings. */
  readonly staleAfterMs?: number;
  /** First reconnect delay; doubles per failed attempt up to `maxReconnectDelayMs`. Default 250 ms. */
  readonly reconnectDelayMs?: number;
  /** Default 30 s. */
  readonly maxReconnectDelayMs?: number;
  /** Default 500. */
  readonly maxAssetsPerConnection?: number;
  /** Ask for the custom-feature messages; `best_bid_ask` then becomes `prices` events. Default false. */
  readonly customFeatures?: boolean;
  /**
   * The watchdog: a connection with no market message (PONGs do not count) for this long
   * resubscribes its assets, then, silent again, reconnects; each time its books are fetched by
   * `refreshBooks`. 0 or absent: no watchdog (the `staleAfterMs` check still applies).
   */
  readonly silentAfterMs?: number;
  /**
   * Keeps books fresh while nothing changes them: each connection emits again, unchanged and with
   * a newer receipt time, the books it has not emitted for this many ms, once a frame (a message,
   * or the PONG of a PING it sends when quiet) shows it alive; so a quiet book's age (what the
   * staleBook risk check reads) stays under about 5/3 of it. 0 or absent: books are emitted only
   * when they change.
   */
  readonly confirmBooksMs?: number;
  /** The REST books of a silent connection's assets (`POST /books`). */
  readonly refreshBooks?: (tokenIds: readonly TokenId[]) => Promise<readonly OrderBook[]>;
  /** Connections, splits and the watchdog's actions (see FeedEvent). */
  readonly onFeedEvent?: (event: FeedEvent) => void;
  /** Transport failures and undecodable frames (the source goes on: reconnects or re-syncs). */
  readonly onError?: (err: unknown) => void;
  /** Each time a connection opens and its subscription is sent (1 = first connect). */
  readonly onConnect?: (info: { readonly connection: number; readonly tokenIds: readonly TokenId[] }) => void;
}

/**
 * Market data from the WebSocket market channel (PROTOCOL "Market data"), as market events:
 *
 * - a local book per token from `book` snapshots and `price_change` deltas; every change emits
 *   the full `OrderBook` (levels sorted, the message's hash, tsEvent from the message, tsInit from
 *   the clock);
 * - `tick_size_change` emits `tickSize` and drops the token's book until the next snapshot (the
 *   source asks for one by unsubscribing and subscribing the token again);
 * - `last_trade_price` emits `trade`; with `customFeatures`, `best_bid_ask` emits `prices`.
 *
 * The assets are split over connections of at most `maxAssetsPerConnection` each (a `FeedSplit`
 * event says so). A watched set that grows subscribes the new assets on a connection with room,
 * or opens one; assets removed are unsubscribed, and a connection left with none is closed.
 *
 * Each connection sends `PING` every `pingIntervalMs` on the clock; on close, error or staleness
 * it reconnects with exponential backoff and subscribes again (fresh snapshots; deltas for a
 * token without a book are ignored). An undecodable message also forces a reconnect: a lost delta
 * would leave a wrong book. A silent connection is handled by the watchdog (`silentAfterMs`).
 * Cold: connects on subscribe, closes on unsubscribe.
 */
export function wsMarketSource(options: WsSourceOptions): Observable<MarketEvent> {
  const url = marketChannelUrl(options.url);
  if (Array.isArray(options.tokenIds) && options.tokenIds.length === 0) return new Observable<MarketEvent>((s) => s.complete());
  return new Observable<MarketEvent>((subscriber) => {
    const feed = new WsFeed(url, options, (e) => subscriber.next(e));
    feed.start();
    return () => feed.stop();
  });
}

/** `<base>/ws/market` with the ws scheme matching the base's http scheme. */
export function marketChannelUrl(base: string): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new ConfigError(`wsMarketSource.url: not a URL: '${base}'`);
  }
  if (u.protocol === 'ws:' || u.protocol === 'wss:') return u.toString();
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`wsMarketSource.url: expected http(s) or ws(s), was '${u.protocol}'`);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = u.pathname.replace(/\/+$/, '') + '/ws/market';
  u.search = '';
  u.hash = '';
  return u.toString();
}

/** The connections of one source, and how the watched assets are spread over them. */
class WsFeed {
  readonly #url: string;
  readonly #options: WsSourceOptions;
  readonly #settings: WsConnectionSettings;
  readonly #watched: WatchedTokens;
  readonly #per: number;
  readonly #emit: (event: MarketEvent) => void;
  readonly #connections: WsConnection[] = [];
  readonly #byToken = new Map<TokenId, WsConnection>();
  #nextId = 1;
  #unlisten: (() => void) | undefined;
  #splitReported = 1;

  constructor(url: string, options: WsSourceOptions, emit: (event: MarketEvent) => void) {
    this.#url = url;
    this.#options = options;
    this.#watched = WatchedTokens.of(options.tokenIds);
    this.#per = Math.max(1, options.maxAssetsPerConnection ?? WS_MAX_ASSETS_PER_CONNECTION);
    this.#emit = emit;
    const pingMs = options.pingIntervalMs ?? WS_PING_INTERVAL_MS;
    this.#settings = {
      clock: options.clock,
      pingMs,
      staleMs: options.staleAfterMs ?? 3 * pingMs,
      reconnectDelayMs: options.reconnectDelayMs ?? 250,
      maxReconnectDelayMs: options.maxReconnectDelayMs ?? 30_000,
      customFeatures: options.customFeatures ?? false,
      silentAfterMs: options.silentAfterMs ?? 0,
      confirmMs: options.confirmBooksMs ?? 0,
      refreshBooks: options.refreshBooks,
      onError: options.onError,
      onConnect: options.onConnect,
      onFeedEvent: options.onFeedEvent,
    };
  }

  start(): void {
    this.#place(this.#watched.list());
    this.#unlisten = this.#watched.listen((change) => this.#onChange(change));
  }

  stop(): void {
    this.#unlisten?.();
    for (const c of this.#connections.splice(0)) c.stop();
    this.#byToken.clear();
  }

  #onChange(change: WatchedTokensChange): void {
    const byConnection = new Map<WsConnection, TokenId[]>();
    for (const id of change.removed) {
      const c = this.#byToken.get(id);
      if (c === undefined) continue;
      this.#byToken.delete(id);
      const list = byConnection.get(c) ?? [];
      list.push(id);
      byConnection.set(c, list);
    }
    for (const [c, ids] of byConnection) {
      c.remove(ids);
      if (c.size === 0) {
        c.stop();
        this.#connections.splice(this.#connections.indexOf(c), 1);
      }
    }
    this.#place(change.added);
  }

  /** Puts new assets on connections with room (oldest first), then on new connections. */
  #place(tokenIds: readonly TokenId[]): void {
    let rest = tokenIds.filter((id) => !this.#byToken.has(id));
    for (const c of this.#connections) {
      if (rest.length === 0) break;
      const room = this.#per - c.size;
      if (room <= 0) continue;
      const take = rest.slice(0, room);
      rest = rest.slice(room);
      c.add(take);
      for (const id of take) this.#byToken.set(id, c);
    }
    for (let i = 0; i < rest.length; i += this.#per) {
      const chunk = rest.slice(i, i + this.#per);
      const c = new WsConnection(this.#nextId++, this.#url, chunk, this.#settings, this.#emit);
      this.#connections.push(c);
      for (const id of chunk) this.#byToken.set(id, c);
      c.start();
    }
    const n = this.#connections.length;
    if (n > 1 && n !== this.#splitReported) {
      this.#options.onFeedEvent?.({ type: 'FeedSplit', connections: n, assets: this.#byToken.size, maxAssetsPerConnection: this.#per, tsInit: this.#options.clock.now() });
    }
    this.#splitReported = n;
  }
}
