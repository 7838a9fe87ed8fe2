import { merge, Observable, type Subscriber, type Subscription } from 'rxjs';
import { WebSocket, type RawData } from 'ws';
import type { Clock } from '../core/clock.ts';
import { ConfigError, TransportError } from '../core/errors.ts';
import type { Micros } from '../core/fixed.ts';
import type { BookLevel, ConditionId, OrderBook, Side, TokenId } from '../core/types.ts';
import type { MarketEvent } from '../core/events.ts';
import { decodeWsMarketText, type WsMarketMessage } from './ws-messages.ts';

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
  readonly tokenIds: readonly TokenId[];
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
 * Sends `PING` every `pingIntervalMs` on the clock; on close, error or staleness reconnects with
 * exponential backoff and subscribes again (fresh snapshots; deltas for a token without a book
 * are ignored). An undecodable message also forces a reconnect: a lost delta would leave a wrong
 * book. Cold: connects on subscribe, closes on unsubscribe.
 */
export function wsMarketSource(options: WsSourceOptions): Observable<MarketEvent> {
  const url = marketChannelUrl(options.url);
  const per = Math.max(1, options.maxAssetsPerConnection ?? WS_MAX_ASSETS_PER_CONNECTION);
  const unique = [...new Set(options.tokenIds)];
  const chunks: TokenId[][] = [];
  for (let i = 0; i < unique.length; i += per) chunks.push(unique.slice(i, i + per));
  if (chunks.length === 0) return new Observable<MarketEvent>((s) => s.complete());
  if (chunks.length === 1) return connection$(url, chunks[0] as TokenId[], options);
  return merge(...chunks.map((c) => connection$(url, c, options)));
}

/** A text frame's text: ws hands a frame as one Buffer by default; the other forms for completeness. */
function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
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

function connection$(url: string, tokenIds: readonly TokenId[], options: WsSourceOptions): Observable<MarketEvent> {
  return new Observable<MarketEvent>((subscriber) => new WsConnection(url, tokenIds, options, subscriber).start());
}

/** One socket's life, and its replacements, for one set of tokens. */
class WsConnection {
  readonly #url: string;
  readonly #tokenIds: readonly TokenId[];
  readonly #wanted: ReadonlySet<TokenId>;
  readonly #clock: Clock;
  readonly #options: WsSourceOptions;
  readonly #out: Subscriber<MarketEvent>;
  readonly #pingMs: number;
  readonly #staleMs: number;
  readonly #books = new Map<TokenId, LocalBook>();
  /** Last known tick per token (snapshots may lack it). */
  readonly #ticks = new Map<TokenId, Micros>();
  readonly #lastTrade = new Map<TokenId, Micros>();
  #ws: WebSocket | undefined;
  #pinger: Subscription | undefined;
  #retry: Subscription | undefined;
  #stopped = false;
  #failures = 0;
  #connections = 0;
  #lastFrameAt = 0;

  constructor(url: string, tokenIds: readonly TokenId[], options: WsSourceOptions, out: Subscriber<MarketEvent>) {
    this.#url = url;
    this.#tokenIds = tokenIds;
    this.#wanted = new Set(tokenIds);
    this.#clock = options.clock;
    this.#options = options;
    this.#out = out;
    this.#pingMs = options.pingIntervalMs ?? WS_PING_INTERVAL_MS;
    this.#staleMs = options.staleAfterMs ?? 3 * this.#pingMs;
  }

  start(): () => void {
    this.#connect();
    return () => this.#stop();
  }

  #stop(): void {
    this.#stopped = true;
    this.#retry?.unsubscribe();
    this.#pinger?.unsubscribe();
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws !== undefined) ws.terminate();
  }

  #connect(): void {
    if (this.#stopped) return;
    const ws = new WebSocket(this.#url, { perMessageDeflate: false });
    this.#ws = ws;
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      this.#lastFrameAt = this.#clock.now();
      const subscribe: Record<string, unknown> = { assets_ids: this.#tokenIds, type: 'market' };
      if (this.#options.customFeatures) subscribe['custom_feature_enabled'] = true;
      ws.send(JSON.stringify(subscribe));
      this.#startPinging(ws);
      this.#connections++;
      this.#options.onConnect?.({ connection: this.#connections, tokenIds: this.#tokenIds });
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (this.#ws !== ws || isBinary) return;
      this.#lastFrameAt = this.#clock.now();
      this.#onText(ws, frameText(data));
    });
    ws.on('error', (err: Error) => {
      if (this.#ws !== ws || this.#stopped) return;
      this.#options.onError?.(new TransportError(`ws market channel ${this.#url}: ${err.message}`, false, { cause: err }));
    });
    ws.on('close', () => {
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      this.#pinger?.unsubscribe();
      this.#pinger = undefined;
      this.#books.clear();
      if (!this.#stopped) this.#scheduleReconnect();
    });
  }

  #scheduleReconnect(): void {
    const base = this.#options.reconnectDelayMs ?? 250;
    const max = this.#options.maxReconnectDelayMs ?? 30_000;
    const delay = Math.min(max, base * 2 ** Math.min(this.#failures, 20));
    this.#failures++;
    this.#retry = this.#clock.scheduler.schedule(() => {
      this.#retry = undefined;
      this.#connect();
    }, delay);
  }

  /** PINGs on the clock, one fresh action each (see SyntheticFlow on rescheduled actions). */
  #startPinging(ws: WebSocket): void {
    this.#pinger?.unsubscribe();
    this.#pinger = this.#clock.scheduler.schedule(() => {
      if (this.#ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      if (this.#clock.now() - this.#lastFrameAt > this.#staleMs) {
        this.#options.onError?.(new TransportError(`ws market channel ${this.#url}: no frame for ${this.#staleMs} ms`, true));
        ws.terminate();
        return;
      }
      ws.send('PING');
      this.#startPinging(ws);
    }, this.#pingMs);
  }

  #onText(ws: WebSocket, text: string): void {
    const tsInit = this.#clock.now();
    let messages: WsMarketMessage[];
    try {
      messages = decodeWsMarketText(text, tsInit);
    } catch (err) {
      this.#options.onError?.(err);
      // A plain-text notice loses nothing; a bad JSON message may have been a delta: re-sync.
      const c = text.charCodeAt(0);
      if (c === 123 /* { */ || c === 91 /* [ */) ws.terminate();
      return;
    }
    this.#failures = 0; // a connection that delivers good data resets the backoff
    for (const m of messages) this.#apply(ws, m, tsInit);
  }

  #apply(ws: WebSocket, m: WsMarketMessage, tsInit: number): void {
    const out = this.#out;
    switch (m.kind) {
      case 'book': {
        const b = m.book;
        if (!this.#wanted.has(b.tokenId)) return;
        if (b.tickSize !== undefined) this.#ticks.set(b.tokenId, b.tickSize);
        if (b.lastTradePrice !== undefined) this.#lastTrade.set(b.tokenId, b.lastTradePrice);
        const local = new LocalBook(b.tokenId, b.conditionId, b.bids, b.asks, b.hash, b.tsEvent);
        this.#books.set(b.tokenId, local);
        this.#emitBook(local, tsInit);
        return;
      }
      case 'priceChange': {
        const touched: LocalBook[] = [];
        for (const c of m.changes) {
          const local = this.#books.get(c.tokenId);
          if (local === undefined) continue; // no snapshot yet (or dropped after a tick change)
          local.apply(c.side, c.price, c.size);
          if (c.hash !== undefined) local.hash = c.hash;
          local.tsEvent = m.tsEvent;
          if (!touched.includes(local)) touched.push(local);
        }
        for (const local of touched) this.#emitBook(local, tsInit);
        return;
      }
      case 'lastTrade':
        if (!this.#wanted.has(m.tokenId)) return;
        this.#lastTrade.set(m.tokenId, m.price);
        out.next({ type: 'trade', tokenId: m.tokenId, price: m.price, size: m.size, side: m.side, tsEvent: m.tsEvent, tsInit });
        return;
      case 'tickSize':
        if (!this.#wanted.has(m.tokenId)) return;
        this.#ticks.set(m.tokenId, m.newTickSize);
        this.#books.delete(m.tokenId);
        out.next({ type: 'tickSize', tokenId: m.tokenId, tickSize: m.newTickSize, tsEvent: m.tsEvent, tsInit });
        // Ask for a fresh snapshot: a repeated subscribe is ignored by the venue, a cycle is not.
        if (ws.readyState === WebSocket.OPEN) {
          ws.send(JSON.stringify({ assets_ids: [m.tokenId], operation: 'unsubscribe' }));
          ws.send(JSON.stringify({ assets_ids: [m.tokenId], operation: 'subscribe' }));
        }
        return;
      case 'bestBidAsk':
        if (!this.#options.customFeatures || !this.#wanted.has(m.tokenId)) return;
        out.next({ type: 'prices', prices: [{ tokenId: m.tokenId, buy: m.bestBid, sell: m.bestAsk, tsInit }], tsEvent: m.tsEvent, tsInit });
        return;
      default:
        return; // new_market, market_resolved and unknown kinds carry nothing a MarketEvent holds
    }
  }

  #emitBook(local: LocalBook, tsInit: number): void {
    const book: OrderBook = Object.freeze({
      tokenId: local.tokenId,
      conditionId: local.conditionId,
      tsEvent: local.tsEvent,
      tsInit,
      hash: local.hash,
      bids: Object.freeze(local.bids.slice()),
      asks: Object.freeze(local.asks.slice()),
      tickSize: this.#ticks.get(local.tokenId),
      minOrderSize: undefined,
      negRisk: undefined,
      lastTradePrice: this.#lastTrade.get(local.tokenId),
    });
    this.#out.next({ type: 'book', book, tsEvent: book.tsEvent, tsInit });
  }
}

/** A token's book kept from a snapshot and deltas: levels best first, updated by binary search. */
class LocalBook {
  readonly bids: BookLevel[];
  readonly asks: BookLevel[];

  constructor(
    readonly tokenId: TokenId,
    readonly conditionId: ConditionId,
    bids: readonly BookLevel[],
    asks: readonly BookLevel[],
    public hash: string,
    public tsEvent: number,
  ) {
    // Snapshots are sorted by the decoder; zero-size levels are not levels.
    this.bids = bids.filter((l) => l.size > 0);
    this.asks = asks.filter((l) => l.size > 0);
  }

  /** Sets a level's aggregate size; 0 removes it. */
  apply(side: Side, price: Micros, size: Micros): void {
    const isBid = side === 'BUY';
    const levels = isBid ? this.bids : this.asks;
    // First index whose price is not better than `price`.
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const p = (levels[mid] as BookLevel).price;
      if (isBid ? p > price : p < price) lo = mid + 1;
      else hi = mid;
    }
    const found = lo < levels.length && (levels[lo] as BookLevel).price === price;
    if (size === 0) {
      if (found) levels.splice(lo, 1);
    } else if (found) {
      levels[lo] = { price, size };
    } else {
      levels.splice(lo, 0, { price, size });
    }
  }
}
