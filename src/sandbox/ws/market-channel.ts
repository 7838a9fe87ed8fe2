import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Clock } from '../../core/clock.ts';
import { formatMicros, type Micros } from '../../core/fixed.ts';
import type { ConditionId, OrderBook, TokenId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { BookChanged, SimEvent, TickSizeChanged, TokenTop, Trade } from '../../sim/types.ts';
import type { WireWsBook, WireWsPriceChange } from '../../venue/wire/ws-market.ts';
import { bestBidAskMessage, bookMessage, lastTradeMessage, priceChangeMessage, priceChanges, tickSizeMessage } from './market-messages.ts';
import { rawDataText } from './raw-data-text.ts';

/** Paths the market channel answers on (the root mount and the trading prefix). */
export const MARKET_CHANNEL_PATHS: readonly string[] = ['/ws/market', '/clob/ws/market'];
/** A client whose unsent data passes this many bytes is dropped (4 MiB). */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Largest client message accepted (64 KiB: a subscription of several hundred assets). */
const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

export interface MarketChannelOptions {
  readonly engine: MatchingEngine;
  /** Venue time of snapshots. */
  readonly clock: Clock;
  readonly maxBufferedBytes?: number;
  readonly paths?: readonly string[];
  /** True while no market message may go out (fault `wsSilent`): connections stay open, PINGs are answered. */
  readonly silent?: () => boolean;
  /** Last trade price of a token that has not traded in the engine yet (the world's), for snapshots. */
  readonly lastTradeFallback?: (tokenId: TokenId) => Micros | undefined;
}

export interface MarketChannelStats {
  readonly connections: number;
  /** Σ assets over connections. */
  readonly subscriptions: number;
  readonly messagesSent: number;
  /** Text `PING`s received. */
  readonly pings: number;
  /** Connections dropped for falling behind (`maxBufferedBytes`). */
  readonly droppedSlow: number;
  /** Connections dropped on request (`dropAll`). */
  readonly droppedByRequest: number;
}

class Connection {
  readonly assets = new Set<TokenId>();
  custom = false;
  constructor(readonly ws: WebSocket) {}
}

/**
 * The WebSocket market channel of the sandbox (PROTOCOL "Market data"), fed by the matching
 * engine's events:
 *
 * - `{"assets_ids": [...], "type": "market"}` subscribes (later messages may say
 *   `"operation": "subscribe"` or `"unsubscribe"`). Each newly subscribed asset gets a `book`
 *   snapshot; the snapshots of one message go out as one JSON array, as the venue's first dump
 *   does. Subscribing to an asset already subscribed sends nothing (the venue ignores it too), so
 *   a client re-syncs by unsubscribing and subscribing again. Unknown assets and malformed
 *   messages are ignored without an answer.
 * - `BookChanged` -> `price_change` (one message per market per connection, only the assets it
 *   holds; size = new aggregate, `"0"` removes), `TradeExecuted` -> `last_trade_price` for the
 *   taker's asset and, mirrored (1 - price, other side), for its complement; `TickSizeChanged`
 *   -> `tick_size_change` followed by a fresh `book` snapshot of the asset.
 * - With `custom_feature_enabled`, `best_bid_ask` whenever an asset's top of book changes.
 * - Text `PING` is answered `PONG`, also while `silent()` holds every market message back (the
 *   fault `wsSilent`: a connection that looks alive and says nothing).
 * - Backpressure: a connection whose unsent data passes `maxBufferedBytes` is terminated; it
 *   never buffers without bound. Its client reconnects and gets fresh snapshots.
 */
export class MarketChannel {
  readonly #engine: MatchingEngine;
  readonly #clock: Clock;
  readonly #maxBuffered: number;
  readonly #paths: ReadonlySet<string>;
  readonly #lastTradeFallback: ((tokenId: TokenId) => Micros | undefined) | undefined;
  readonly #silent: () => boolean;
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<Connection>();
  readonly #subs = new Map<TokenId, Set<Connection>>();
  readonly #pairs = new Map<ConditionId, readonly [TokenId, TokenId]>();
  /** Last top sent as best_bid_ask, per asset with a custom-feature subscriber. */
  readonly #lastTop = new Map<TokenId, string>();
  readonly #unlisten: () => void;
  #server: Server | undefined;
  #closed = false;
  #sent = 0;
  #pings = 0;
  #droppedSlow = 0;
  #droppedByRequest = 0;

  constructor(options: MarketChannelOptions) {
    this.#engine = options.engine;
    this.#clock = options.clock;
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#paths = new Set(options.paths ?? MARKET_CHANNEL_PATHS);
    this.#lastTradeFallback = options.lastTradeFallback;
    this.#silent = options.silent ?? (() => false);
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: false });
    this.#unlisten = this.#engine.onEvent((event) => this.#onEngineEvent(event));
  }

  /** Serves the channel on `server`'s upgrade requests for the channel's paths. */
  attach(server: Server): void {
    if (this.#server !== undefined) throw new Error('MarketChannel.attach: already attached');
    this.#server = server;
    server.on('upgrade', this.#onUpgrade);
  }

  stats(): MarketChannelStats {
    let subscriptions = 0;
    for (const c of this.#connections) subscriptions += c.assets.size;
    return {
      connections: this.#connections.size,
      subscriptions,
      messagesSent: this.#sent,
      pings: this.#pings,
      droppedSlow: this.#droppedSlow,
      droppedByRequest: this.#droppedByRequest,
    };
  }

  /** Terminates every connection (a fault for reconnect tests); returns how many. */
  dropAll(): number {
    const n = this.#connections.size;
    for (const c of [...this.#connections]) this.#drop(c);
    this.#droppedByRequest += n;
    return n;
  }

  /** Stops listening to the engine and to upgrades, and terminates every connection. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten();
    this.#server?.off('upgrade', this.#onUpgrade);
    for (const c of [...this.#connections]) this.#drop(c);
    this.#wss.close();
  }

  // ------------------------------------------------------------------------ connections

  readonly #onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const url = request.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    if (!this.#paths.has(path)) {
      // Another upgrade handler may serve this path; answer only when there is none.
      if ((this.#server?.listenerCount('upgrade') ?? 0) <= 1) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      }
      return;
    }
    if (this.#closed) {
      socket.destroy();
      return;
    }
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws));
  };

  #accept(ws: WebSocket): void {
    if (this.#closed) {
      ws.terminate();
      return;
    }
    const conn = new Connection(ws);
    this.#connections.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => this.#onMessage(conn, data, isBinary));
    ws.on('close', () => this.#forget(conn));
    ws.on('error', () => this.#drop(conn));
  }

  #onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const text = rawDataText(data);
    if (text === 'PING') {
      this.#pings++;
      this.#send(conn, 'PONG', false);
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return;
    const m = message as Record<string, unknown>;
    const ids = m['assets_ids'];
    if (!Array.isArray(ids)) return;
    if (typeof m['custom_feature_enabled'] === 'boolean') conn.custom = m['custom_feature_enabled'];
    const assets = ids.filter((id): id is string => typeof id === 'string');
    if (m['operation'] === 'unsubscribe') {
      for (const id of assets) this.#unsubscribe(conn, id);
      return;
    }
    this.#subscribe(conn, assets);
  }

  #subscribe(conn: Connection, assets: readonly string[]): void {
    const now = this.#clock.now();
    const snapshots: WireWsBook[] = [];
    for (const id of assets) {
      if (conn.assets.has(id) || this.#engine.tokenInfo(id) === undefined) continue;
      // The book call may expire orders and dispatch their events; the connection joins after,
      // so it gets the state after expiry in the snapshot and every later change as deltas.
      const book = this.#engine.book(id, now);
      snapshots.push(this.#bookMessage(book));
      conn.assets.add(id);
      let set = this.#subs.get(id);
      if (set === undefined) {
        set = new Set();
        this.#subs.set(id, set);
      }
      set.add(conn);
      if (conn.custom) this.#lastTop.set(id, topKey(book.bids[0]?.price, book.asks[0]?.price));
    }
    if (snapshots.length > 0) this.#send(conn, JSON.stringify(snapshots));
  }

  #unsubscribe(conn: Connection, id: TokenId): void {
    if (!conn.assets.delete(id)) return;
    const set = this.#subs.get(id);
    set?.delete(conn);
    if (set !== undefined && set.size === 0) {
      this.#subs.delete(id);
      this.#lastTop.delete(id);
    }
  }

  #forget(conn: Connection): void {
    if (!this.#connections.delete(conn)) return;
    for (const id of [...conn.assets]) this.#unsubscribe(conn, id);
  }

  #drop(conn: Connection): void {
    this.#forget(conn);
    conn.ws.terminate();
  }

  /** Sends one text; a market message (`data`) is held back while the channel is silent. */
  #send(conn: Connection, text: string, data = true): void {
    const ws = conn.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (data && this.#silent()) return;
    ws.send(text);
    this.#sent++;
    if (ws.bufferedAmount > this.#maxBuffered) {
      this.#droppedSlow++;
      this.#drop(conn);
    }
  }

  // ------------------------------------------------------------------------ engine events

  #onEngineEvent(event: SimEvent): void {
    if (this.#subs.size === 0) return;
    switch (event.type) {
      case 'BookChanged':
        this.#onBookChanged(event);
        return;
      case 'TradeExecuted':
        this.#onTrade(event.trade, event.ts);
        return;
      case 'TickSizeChanged':
        this.#onTickSize(event);
        return;
      default:
        return;
    }
  }

  #onBookChanged(event: BookChanged): void {
    const [yesTop, noTop] = event.tops;
    this.#pairs.set(event.conditionId, [yesTop.tokenId, noTop.tokenId]);
    const yesSubs = this.#subs.get(yesTop.tokenId);
    const noSubs = this.#subs.get(noTop.tokenId);
    if (yesSubs === undefined && noSubs === undefined) return;
    let yesChanges: WireWsPriceChange[] | undefined;
    let noChanges: WireWsPriceChange[] | undefined;
    // One text per distinct asset set (YES, NO, both), made on first use.
    const texts: (string | undefined)[] = [undefined, undefined, undefined, undefined];
    const textFor = (mask: number): string => {
      let text = texts[mask];
      if (text === undefined) {
        yesChanges ??= mask & 1 ? priceChanges(event, yesTop) : undefined;
        noChanges ??= mask & 2 ? priceChanges(event, noTop) : undefined;
        const list = mask === 3 ? [...(yesChanges ?? []), ...(noChanges ?? [])] : mask === 1 ? (yesChanges ?? []) : (noChanges ?? []);
        text = JSON.stringify(priceChangeMessage(event, list));
        texts[mask] = text;
      }
      return text;
    };
    if (yesSubs !== undefined) {
      for (const conn of [...yesSubs]) this.#send(conn, textFor(noSubs?.has(conn) === true ? 3 : 1));
    }
    if (noSubs !== undefined) {
      for (const conn of [...noSubs]) if (yesSubs?.has(conn) !== true) this.#send(conn, textFor(2));
    }
    this.#bestBidAsk(event.conditionId, yesTop, yesSubs, event.ts);
    this.#bestBidAsk(event.conditionId, noTop, noSubs, event.ts);
  }

  #bestBidAsk(conditionId: ConditionId, top: TokenTop, subs: Set<Connection> | undefined, ts: number): void {
    if (subs === undefined) return;
    const key = topKey(top.bestBid, top.bestAsk);
    if (this.#lastTop.get(top.tokenId) === key) return;
    let text: string | undefined;
    for (const conn of [...subs]) {
      if (!conn.custom) continue;
      this.#lastTop.set(top.tokenId, key);
      text ??= JSON.stringify(bestBidAskMessage(conditionId, top, ts));
      this.#send(conn, text);
    }
  }

  #onTrade(trade: Trade, ts: number): void {
    const pair = this.#pair(trade.conditionId);
    if (pair === undefined) return;
    for (const tokenId of pair) {
      const subs = this.#subs.get(tokenId);
      if (subs === undefined) continue;
      const text = JSON.stringify(lastTradeMessage(trade, ts, tokenId));
      for (const conn of [...subs]) this.#send(conn, text);
    }
  }

  #onTickSize(event: TickSizeChanged): void {
    const now = event.ts;
    for (const tokenId of event.tokenIds) {
      const subs = this.#subs.get(tokenId);
      if (subs === undefined) continue;
      const tick = JSON.stringify(tickSizeMessage(event, tokenId));
      for (const conn of [...subs]) this.#send(conn, tick);
      // Clients drop their book on a tick change (PROTOCOL); send the new one right away.
      const snapshot = JSON.stringify(this.#bookMessage(this.#engine.book(tokenId, now)));
      for (const conn of [...(this.#subs.get(tokenId) ?? [])]) this.#send(conn, snapshot);
    }
  }

  #bookMessage(book: OrderBook): WireWsBook {
    const message = bookMessage(book);
    if (message.last_trade_price === undefined && this.#lastTradeFallback !== undefined) {
      const last = this.#lastTradeFallback(book.tokenId);
      if (last !== undefined) message.last_trade_price = formatMicros(last);
    }
    return message;
  }

  #pair(conditionId: ConditionId): readonly [TokenId, TokenId] | undefined {
    let pair = this.#pairs.get(conditionId);
    if (pair === undefined) {
      pair = this.#engine.market(conditionId)?.tokenIds;
      if (pair !== undefined) this.#pairs.set(conditionId, pair);
    }
    return pair;
  }
}

function topKey(bid: number | undefined, ask: number | undefined): string {
  return `${bid ?? ''}|${ask ?? ''}`;
}
