import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Clock } from '../../core/clock.ts';
import type { Micros } from '../../core/fixed.ts';
import type { TokenId } from '../../core/types.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import { CallerCaps, WS_CLOSE_CAP_EXCEEDED, type CallerUse } from './caller-caps.ts';
import { serveUpgrades } from './channel-upgrades.ts';
import { rawDataText } from './raw-data-text.ts';
import { MarketFanout } from './market-fanout.ts';
import { DEFAULT_MAX_BUFFERED_BYTES, Outbox } from './outbox.ts';
import { SnapshotTexts } from './snapshot-texts.ts';
import { parseSubscription, type SubscriptionRequest } from './subscription-request.ts';
import { eventLoopBudget, type SlicedWork, type TurnBudget } from './turn-budget.ts';
import { textFrame, textFrameHeader } from './text-frame.ts';

/** Paths the market channel answers on (the root mount and the trading prefix). */
export const MARKET_CHANNEL_PATHS: readonly string[] = ['/ws/market', '/clob/ws/market'];
/** Largest client message accepted (64 KiB: a subscription of several hundred assets). */
const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;
/**
 * Book texts one step of the snapshot work makes (each an engine book read and a JSON text, tens
 * of microseconds): the first snapshot of a burst makes hundreds, and made in one go they held the
 * HTTP routes for several milliseconds.
 */
const SNAPSHOT_TEXTS_PER_STEP = 16;
/** Assets a step of the departure work takes a connection gone out of (a Set delete each, well under a microsecond). */
const DEPARTURES_PER_STEP = 200;

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
  /** Connections one caller (remote IP address) may hold; one more is closed with 1008. Default 64. */
  readonly maxConnectionsPerCaller?: number;
  /** Assets one caller may hold subscribed over all its connections; a subscription past it closes that connection with 1008. Default 20,000. */
  readonly maxSubscriptionsPerCaller?: number | (() => number);
  /** The event-loop budget the channel's work is done under (default: this thread's, shared with the upgrade admission). */
  readonly budget?: TurnBudget;
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
  /** Connections closed by a per-caller cap (connections or subscriptions), code 1008. */
  readonly refusedByCap: number;
  /** The caps per caller in force (the subscription cap may follow the world). */
  readonly maxConnectionsPerCaller: number;
  readonly maxSubscriptionsPerCaller: number;
  /** Connections gone that are still being taken out of their assets' deltas (a step at a time). */
  readonly departing: number;
  /** Turns of the event loop that worked on queued snapshots (the snapshots of a burst take many, between HTTP requests). */
  readonly snapshotSlices: number;
}

class Connection {
  assets = new Set<TokenId>();
  /** Assets asked for whose snapshot has not been sent yet (they join `assets` when it is). */
  pending = new Set<TokenId>();
  /** Subscription messages received and not applied yet, in order (applied a connection a step). */
  readonly requests: SubscriptionRequest[] = [];
  custom = false;
  constructor(
    readonly ws: WebSocket,
    /** The connection's TCP socket: the channel's frames are written to it by the `Outbox`, `ws` writes only its control frames. */
    readonly socket: Duplex,
    readonly use: CallerUse,
  ) {}
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
 * - The engine's events become deltas (`price_change`, `last_trade_price`, `tick_size_change`
 *   and a fresh `book`, and `best_bid_ask` with `custom_feature_enabled`) in `MarketFanout`
 *   (market-fanout.ts); snapshots are made of shared texts by `SnapshotTexts` (snapshot-texts.ts).
 * - Text `PING` is answered `PONG`, also while `silent()` holds every market message back (the
 *   fault `wsSilent`: a connection that looks alive and says nothing).
 * - Backpressure: a connection whose unsent data passes `maxBufferedBytes` is terminated; it
 *   never buffers without bound. Its client reconnects and gets fresh snapshots.
 * - The channel's work is done a step at a time under the event loop's `TurnBudget` (about 1 ms
 *   a turn over the handshakes, subscriptions, snapshots and writes of every channel), so HTTP
 *   requests are served between the steps however many sockets connect and subscribe at once:
 *   subscription messages are queued and applied a connection a step; a snapshot's book texts
 *   are made 16 a step, then it is sent; a connection joins an asset's deltas when its snapshot
 *   goes out, and a connection that goes is taken out of its assets' deltas 200 assets a step.
 *   A `PING` applies the connection's own queued messages and sends its queued snapshot first.
 *   Identical subscription texts are parsed once, and connections asking for the same assets
 *   share one snapshot message.
 * - A message that goes to many connections is framed once (one WebSocket frame per event, the
 *   same bytes for every connection: `textFrame`), queued for each connection's socket and
 *   written by the `Outbox`: up to 64 KiB of a socket's queue in one system call a step. With
 *   300 subscribers on every asset, a `ws.send` per subscriber per event and a `writev` per
 *   subscriber in one turn held the HTTP routes for 5-15 ms at a time.
 * - Caps per caller (remote IP address): `maxConnectionsPerCaller` connections and
 *   `maxSubscriptionsPerCaller` assets over them; past either, the connection is closed with
 *   1008 (`WS_CLOSE_CAP_EXCEEDED`) and a reason naming the cap.
 */
export class MarketChannel {
  readonly #engine: MatchingEngine;
  readonly #clock: Clock;
  readonly #maxBuffered: number;
  readonly #paths: ReadonlySet<string>;
  readonly #silent: () => boolean;
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<Connection>();
  readonly #subs = new Map<TokenId, Set<Connection>>();
  /** The deltas of the engine's events, to the connections that hold their assets. */
  readonly #fanout: MarketFanout<Connection>;
  /** The snapshots' shared `book` texts and the last snapshot message. */
  readonly #texts: SnapshotTexts;
  /**
   * The last subscription message (its UTF-8 bytes) and what it asked for: a connect burst of
   * clients sending the same text (hundreds of asset ids each) is decoded and parsed once, and its
   * asset ids are the same strings, which the snapshot's reuse then compares by reference.
   */
  #lastRequest: { readonly bytes: Buffer; readonly request: SubscriptionRequest | undefined } | undefined;
  /** Connections with subscription messages to apply, in the order they came; applied a slice per turn. */
  readonly #requestQueue = new Set<Connection>();
  /** Connections with snapshots to send, in the order they asked; drained a slice per turn. */
  readonly #snapshotQueue = new Set<Connection>();
  /** This thread's event-loop budget: handshakes, subscriptions, snapshots and writes share it, a step at a time. */
  readonly #budget: TurnBudget;
  /** The frames queued for each connection's socket, written a socket a step. */
  readonly #outbox: Outbox;
  /** Applies the subscription messages of the connection first in line, a connection a step. */
  readonly #requestWork: SlicedWork = {
    pending: () => this.#requestQueue.size > 0,
    step: () => {
      for (const conn of this.#requestQueue) return this.#applyRequests(conn);
    },
  };
  /** Makes the book texts of the connection first in line, SNAPSHOT_TEXTS_PER_STEP a step, then sends its snapshot. */
  readonly #snapshotWork: SlicedWork = { pending: () => this.#snapshotQueue.size > 0, step: () => this.#snapshotStep() };
  /** Connections gone whose assets still list them (`#forget`), in the order they went. */
  readonly #departures = new Set<Connection>();
  /** Takes the connections gone out of their assets' deltas, DEPARTURES_PER_STEP assets a step. */
  readonly #departureWork: SlicedWork = { pending: () => this.#departures.size > 0, step: () => this.#departureStep() };
  /** The budget's turn count when the snapshot work last ran (for `snapshotSlices`). */
  #snapshotTurn = -1;
  readonly #caps: CallerCaps;
  readonly #unlisten: () => void;
  #detach: (() => void) | undefined;
  #closed = false;
  #sent = 0;
  #pings = 0;
  #droppedSlow = 0;
  #droppedByRequest = 0;
  #refusedByCap = 0;
  #snapshotSlices = 0;

  constructor(options: MarketChannelOptions) {
    this.#engine = options.engine;
    this.#clock = options.clock;
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#paths = new Set(options.paths ?? MARKET_CHANNEL_PATHS);
    this.#silent = options.silent ?? (() => false);
    this.#caps = new CallerCaps(options.maxConnectionsPerCaller, options.maxSubscriptionsPerCaller);
    this.#texts = new SnapshotTexts(this.#engine, options.lastTradeFallback);
    this.#fanout = new MarketFanout<Connection>({
      engine: this.#engine,
      texts: this.#texts,
      subscribers: (tokenId) => this.#subs.get(tokenId),
      anySubscriber: () => this.#subs.size > 0,
      send: (conn, frame) => this.#send(conn, frame),
    });
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: false });
    this.#budget = options.budget ?? eventLoopBudget;
    this.#outbox = new Outbox(this.#budget);
    this.#unlisten = this.#engine.onEvent((event) => this.#fanout.onEvent(event));
  }

  /** Serves the channel on `server`'s upgrade requests for the channel's paths. */
  attach(server: Server): void {
    if (this.#detach !== undefined) throw new Error('MarketChannel.attach: already attached');
    this.#detach = serveUpgrades(server, this.#paths, this.#wss, () => this.#closed, (ws, request) => this.#accept(ws, request.socket, request.socket.remoteAddress ?? 'unknown'));
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
      refusedByCap: this.#refusedByCap,
      maxConnectionsPerCaller: this.#caps.maxConnections,
      maxSubscriptionsPerCaller: this.#caps.maxSubscriptions,
      departing: this.#departures.size,
      snapshotSlices: this.#snapshotSlices,
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
    this.#detach?.();
    for (const c of [...this.#connections]) this.#drop(c);
    this.#departures.clear();
    this.#subs.clear();
    this.#wss.close();
  }

  // ------------------------------------------------------------------------ connections

  #accept(ws: WebSocket, socket: Duplex, caller: string): void {
    if (this.#closed) {
      ws.terminate();
      return;
    }
    const use = this.#caps.admit(caller);
    if (typeof use === 'string') {
      this.#refusedByCap++;
      ws.close(WS_CLOSE_CAP_EXCEEDED, use);
      return;
    }
    const conn = new Connection(ws, socket, use);
    this.#connections.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => this.#onMessage(conn, data, isBinary));
    ws.on('close', () => this.#forget(conn));
    ws.on('error', () => this.#drop(conn));
  }

  #onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    // a connect burst's clients send the same subscription (hundreds of asset ids): compared as bytes, decoded and parsed once
    const last = this.#lastRequest;
    if (last !== undefined && Buffer.isBuffer(data) && data.equals(last.bytes)) {
      this.#queueRequest(conn, last.request);
      return;
    }
    const text = rawDataText(data);
    if (text === 'PING') {
      this.#pings++;
      // answers keep their order on a connection: its own queued requests and snapshot go before the PONG
      if (conn.requests.length > 0) this.#applyRequests(conn);
      if (conn.pending.size > 0) this.#sendSnapshot(conn, this.#clock.now());
      this.#send(conn, PONG_FRAME, false);
      return;
    }
    const request = parseSubscription(text);
    this.#lastRequest = { bytes: Buffer.from(text), request };
    this.#queueRequest(conn, request);
  }

  #queueRequest(conn: Connection, request: SubscriptionRequest | undefined): void {
    if (request === undefined) return;
    // applied in a later turn, a slice at a time: a connect burst's hundreds of subscriptions
    // arrive in one poll of the sockets, and applying them there would hold the HTTP routes
    conn.requests.push(request);
    this.#requestQueue.add(conn);
    this.#budget.wake(this.#requestWork);
  }

  /** Applies a connection's queued subscription messages, in the order they came. */
  #applyRequests(conn: Connection): void {
    this.#requestQueue.delete(conn);
    for (const request of conn.requests) {
      if (!this.#connections.has(conn)) break;
      if (request.custom !== undefined) conn.custom = request.custom;
      if (request.unsubscribe) for (const id of request.assets) this.#unsubscribe(conn, id);
      else this.#subscribe(conn, request.assets);
    }
    conn.requests.length = 0;
  }

  /**
   * Counts the new assets against the caller's cap and queues their snapshot; the connection
   * joins each asset's deltas when the snapshot is sent (`#snapshotStep`), so it gets the state
   * at that moment and every later change.
   */
  #subscribe(conn: Connection, assets: readonly string[]): void {
    const before = conn.pending.size;
    for (const id of assets) {
      if (conn.assets.has(id) || conn.pending.has(id) || this.#engine.tokenInfo(id) === undefined) continue;
      conn.pending.add(id);
    }
    // an asset named twice in one message counts once
    const added = conn.pending.size - before;
    if (added === 0) return;
    const past = this.#caps.subscribe(conn.use, added);
    if (past !== undefined) {
      this.#refusedByCap++;
      this.#forget(conn);
      conn.ws.close(WS_CLOSE_CAP_EXCEEDED, past);
      return;
    }
    this.#snapshotQueue.add(conn);
    this.#budget.wake(this.#snapshotWork);
  }

  /**
   * One step of the snapshot work, for the connection first in line: makes up to
   * SNAPSHOT_TEXTS_PER_STEP of the book texts its snapshot lacks (each token's text is made once
   * per book change and shared by every connection), or, once none is lacking, queues the
   * snapshot (the outbox writes it a chunk a step).
   */
  #snapshotStep(): void {
    for (const conn of this.#snapshotQueue) {
      if (this.#snapshotTurn !== this.#budget.turns) {
        this.#snapshotTurn = this.#budget.turns;
        this.#snapshotSlices++;
      }
      const now = this.#clock.now();
      if (!conn.custom && !this.#texts.reusable(conn.pending) && this.#texts.makeLacking(conn.pending, now, SNAPSHOT_TEXTS_PER_STEP)) return;
      this.#sendSnapshot(conn, now);
      return;
    }
  }

  /**
   * Sends a connection's pending snapshots as one array and joins it to their deltas (the
   * message of the last connection when it asked for the same, else one made of the shared texts).
   */
  #sendSnapshot(conn: Connection, now: number): void {
    this.#snapshotQueue.delete(conn);
    if (!this.#connections.has(conn) || conn.pending.size === 0) return;
    const message = conn.custom
      ? this.#texts.freshMessage(conn.pending, now, (book) => this.#fanout.noteTop(book))
      : this.#texts.message(conn.pending, now);
    for (const id of conn.pending) {
      let set = this.#subs.get(id);
      if (set === undefined) {
        set = new Set();
        this.#subs.set(id, set);
      }
      set.add(conn);
    }
    // the pending set becomes the held one when nothing is held yet (a first subscription: no copy of hundreds of ids)
    if (conn.assets.size === 0) {
      conn.assets = conn.pending;
      conn.pending = new Set();
    } else {
      for (const id of conn.pending) conn.assets.add(id);
      conn.pending.clear();
    }
    this.#send(conn, textFrameHeader(message.length), true, message);
  }

  #unsubscribe(conn: Connection, id: TokenId): void {
    if (conn.pending.delete(id)) {
      this.#caps.unsubscribe(conn.use, 1);
      return;
    }
    if (!conn.assets.delete(id)) return;
    this.#caps.unsubscribe(conn.use, 1);
    this.#leave(conn, id);
  }

  /** Takes a connection out of an asset's deltas. */
  #leave(conn: Connection, id: TokenId): void {
    const set = this.#subs.get(id);
    set?.delete(conn);
    if (set !== undefined && set.size === 0) {
      this.#subs.delete(id);
      this.#fanout.forgetAsset(id);
    }
  }

  /**
   * Forgets a connection that is gone: its caller's counts are freed at once, and it is taken out
   * of its assets' deltas by the departure work, DEPARTURES_PER_STEP assets a step (a mass
   * disconnect of 300 connections on 400 assets each held the HTTP routes for tens of ms). Until
   * then a delta still finds it and skips it: nothing is sent to a socket that is not open.
   */
  #forget(conn: Connection): void {
    if (!this.#connections.delete(conn)) return;
    this.#caps.release(conn.use, conn.assets.size + conn.pending.size);
    conn.pending.clear();
    this.#snapshotQueue.delete(conn);
    this.#requestQueue.delete(conn);
    this.#outbox.forget(conn.socket);
    conn.requests.length = 0;
    if (conn.assets.size === 0) return;
    this.#departures.add(conn);
    this.#budget.wake(this.#departureWork);
  }

  /** One step of the departure work: up to DEPARTURES_PER_STEP assets of the connection first in line. */
  #departureStep(): void {
    for (const conn of this.#departures) {
      let n = 0;
      for (const id of conn.assets) {
        if (n++ === DEPARTURES_PER_STEP) return;
        conn.assets.delete(id);
        this.#leave(conn, id);
      }
      this.#departures.delete(conn);
      return;
    }
  }

  #drop(conn: Connection): void {
    this.#forget(conn);
    conn.ws.terminate();
  }

  /**
   * Queues one text message for a connection: its whole frame, made once for every connection
   * that gets it, or a frame header and the `payload` it heads (a shared snapshot). A market
   * message (`data`) is held back while the channel is silent. Backpressure: a connection whose
   * unsent bytes (queued here and in its socket) pass `maxBufferedBytes` is dropped, not waited for.
   */
  #send(conn: Connection, frame: Buffer, data = true, payload?: Buffer): void {
    if (conn.ws.readyState !== WebSocket.OPEN) return;
    if (data && this.#silent()) return;
    this.#sent++;
    let queued = this.#outbox.queue(conn.socket, frame);
    if (payload !== undefined) queued = this.#outbox.queue(conn.socket, payload);
    if (queued + conn.socket.writableLength > this.#maxBuffered) {
      this.#droppedSlow++;
      this.#drop(conn);
    }
  }

}

const PONG_FRAME = textFrame('PONG');

