import { timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import type { Subscription } from 'rxjs';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import type { Clock } from '../../core/clock.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { OrderState, SimEvent, Trade } from '../../sim/types.ts';
import type { TradeStatus } from '../../venue/domain/statuses.ts';
import type { ApiKeyRecord } from '../trading/api-keys.ts';
import type { World } from '../world/world.ts';
import { CallerCaps, WS_CLOSE_CAP_EXCEEDED, type CallerUse } from './caller-caps.ts';
import { serveUpgrades } from './channel-upgrades.ts';
import { DEFAULT_MAX_BUFFERED_BYTES } from './outbox.ts';
import { rawDataText } from './raw-data-text.ts';
import { userOrderMessage, userTradeMessage, type UserOrderEventType } from './user-channel-messages.ts';

/** Paths the user channel answers on (the root mount and the trading prefix). */
export const USER_CHANNEL_PATHS: readonly string[] = ['/ws/user', '/clob/ws/user'];
/** Close code of a connection whose subscription carried no valid credentials (RFC 6455: policy violation). */
export const WS_CLOSE_AUTH_FAILED = WS_CLOSE_CAP_EXCEEDED;
/** Largest client message accepted (a subscription of a few hundred markets). */
const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

export interface UserChannelOptions {
  readonly engine: MatchingEngine;
  readonly world: World;
  /** Venue time of the messages' `timestamp` and of the settlement timer. */
  readonly clock: Clock;
  /** The issued API key's record (secret and passphrase are checked against the subscription's). */
  readonly apiKey: (apiKey: string) => ApiKeyRecord | undefined;
  readonly maxBufferedBytes?: number;
  /** Connections one caller (remote IP address) may hold, authenticated or not; one more is closed with 1008. Default 64. */
  readonly maxConnectionsPerCaller?: number;
  /** Markets one caller may hold subscribed over all its connections; a subscription past it closes that connection with 1008. Default 20,000. */
  readonly maxSubscriptionsPerCaller?: number | (() => number);
  readonly paths?: readonly string[];
  /** Share (0..1) of `trade` messages sent twice, as the venue re-sends (fault `wsUserResendRate`). */
  readonly resendRate?: () => number;
  /** True while no message may go out (fault `wsSilent`): PINGs are still answered. */
  readonly silent?: () => boolean;
}

export interface UserChannelStats {
  /** Open sockets, authenticated or not. */
  readonly connections: number;
  readonly authenticated: number;
  /** Σ markets held over connections (a connection on every market of its account holds none). */
  readonly subscriptions: number;
  readonly messagesSent: number;
  /** `trade` messages sent a second time (`resendRate`). */
  readonly resent: number;
  readonly pings: number;
  /** Subscriptions refused for bad or missing credentials (closed with 1008). */
  readonly refusedAuth: number;
  /** Connections closed by a per-caller cap (connections or market subscriptions), code 1008. */
  readonly refusedByCap: number;
  /** The caps per caller in force (the subscription cap may follow the world). */
  readonly maxConnectionsPerCaller: number;
  readonly maxSubscriptionsPerCaller: number;
  readonly droppedByRequest: number;
  readonly droppedSlow: number;
}

class Connection {
  /** Set by a subscription with valid credentials. */
  apiKey: string | undefined;
  /** True while the subscription named no market: every market of the account. */
  everyMarket = true;
  /** Condition ids subscribed (lower case; only markets of the world are held). */
  readonly markets = new Set<string>();
  constructor(
    readonly ws: WebSocket,
    readonly use: CallerUse,
  ) {}

  wants(conditionId: string): boolean {
    return this.everyMarket || this.markets.has(conditionId.toLowerCase());
  }
}

/**
 * The WebSocket user channel of the sandbox: an account's own orders and trades, pushed at the
 * instant the matching engine makes them (its events are handled synchronously, in the engine's
 * call), in both profiles, on the app's HTTP server (`/ws/user`, `/clob/ws/user`).
 *
 * - Subscribe: `{"auth": {"apiKey", "secret", "passphrase"}, "type": "user", "markets": [condition
 *   ids]}` (empty or absent `markets`: every market). The credentials are an issued L2 key's;
 *   anything else closes the socket with 1008 and a reason that names no secret. Later messages
 *   `{"operation": "subscribe" | "unsubscribe", "markets": [...]}` change the markets (once a
 *   market is named, unsubscribing the last one leaves none, not every market). Text
 *   `PING` is answered `PONG`.
 * - `order` messages (user-channel-messages.ts): PLACEMENT when an order of the key rests,
 *   UPDATE when it matches (the size matched so far), CANCELLATION when it is cancelled or
 *   expires (the unfilled rest of a FAK, never placed, sends none).
 * - `trade` messages to every party of a trade that is the key's, from its side: MATCHED at the
 *   match, then each settlement status (MINED, RETRYING, CONFIRMED, FAILED) at its due time: a
 *   timer on the sandbox clock makes the engine apply settlement steps when they come due while
 *   anyone listens, instead of at the next call. A trade final at once (settlement off) is sent
 *   MATCHED then CONFIRMED. `resendRate` re-sends a share of them (seeded by trade id and status).
 * - Backpressure: a socket past `maxBufferedBytes` of unsent data is terminated.
 * - Caps per caller (remote IP address), as on the market channel (`CallerCaps`):
 *   `maxConnectionsPerCaller` connections, authenticated or not, and `maxSubscriptionsPerCaller`
 *   markets over them (a condition id the world does not know is ignored, not held); past either
 *   the connection is closed with 1008 and a reason naming the cap. Messages are sent at once
 *   (`ws.send`), not through the market channel's `Outbox`: an event goes to the connections of
 *   its account's key only, which the connection cap bounds.
 * - `dropAll()` terminates every socket (admin `POST /admin/ws/user/drop`), for reconnect tests.
 */
export class UserChannel {
  readonly #engine: MatchingEngine;
  readonly #world: World;
  readonly #clock: Clock;
  readonly #apiKey: (apiKey: string) => ApiKeyRecord | undefined;
  readonly #maxBuffered: number;
  readonly #paths: ReadonlySet<string>;
  readonly #resendRate: () => number;
  readonly #silent: () => boolean;
  readonly #wss: WebSocketServer;
  readonly #connections = new Set<Connection>();
  readonly #byKey = new Map<string, Set<Connection>>();
  readonly #caps: CallerCaps;
  readonly #unlisten: () => void;
  #detach: (() => void) | undefined;
  #closed = false;
  #settleTimer: Subscription | undefined;
  #settleAt = Number.POSITIVE_INFINITY;
  readonly #counts = { sent: 0, resent: 0, pings: 0, refusedAuth: 0, refusedByCap: 0, droppedByRequest: 0, droppedSlow: 0 };

  constructor(options: UserChannelOptions) {
    this.#engine = options.engine;
    this.#world = options.world;
    this.#clock = options.clock;
    this.#apiKey = options.apiKey;
    this.#maxBuffered = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
    this.#paths = new Set(options.paths ?? USER_CHANNEL_PATHS);
    this.#caps = new CallerCaps(options.maxConnectionsPerCaller, options.maxSubscriptionsPerCaller);
    this.#resendRate = options.resendRate ?? (() => 0);
    this.#silent = options.silent ?? (() => false);
    this.#wss = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES, perMessageDeflate: false });
    this.#unlisten = this.#engine.onEvent((event) => this.#onEngineEvent(event));
  }

  /** Serves the channel on `server`'s upgrade requests for the channel's paths. */
  attach(server: Server): void {
    if (this.#detach !== undefined) throw new Error('UserChannel.attach: already attached');
    this.#detach = serveUpgrades(server, this.#paths, this.#wss, () => this.#closed, (ws, request) => this.#accept(ws, request.socket.remoteAddress ?? 'unknown'));
  }

  stats(): UserChannelStats {
    let authenticated = 0;
    let subscriptions = 0;
    for (const c of this.#connections) {
      if (c.apiKey !== undefined) authenticated++;
      subscriptions += c.markets.size;
    }
    const n = this.#counts;
    return {
      connections: this.#connections.size,
      authenticated,
      subscriptions,
      messagesSent: n.sent,
      resent: n.resent,
      pings: n.pings,
      refusedAuth: n.refusedAuth,
      refusedByCap: n.refusedByCap,
      maxConnectionsPerCaller: this.#caps.maxConnections,
      maxSubscriptionsPerCaller: this.#caps.maxSubscriptions,
      droppedByRequest: n.droppedByRequest,
      droppedSlow: n.droppedSlow,
    };
  }

  /** Terminates every socket (a fault for reconnect tests); returns how many. */
  dropAll(): number {
    const n = this.#connections.size;
    for (const c of [...this.#connections]) this.#drop(c);
    this.#counts.droppedByRequest += n;
    return n;
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unlisten();
    this.#settleTimer?.unsubscribe();
    this.#detach?.();
    for (const c of [...this.#connections]) this.#drop(c);
    this.#wss.close();
  }

  // ------------------------------------------------------------------------ connections

  #accept(ws: WebSocket, caller: string): void {
    if (this.#closed) {
      ws.terminate();
      return;
    }
    const use = this.#caps.admit(caller);
    if (typeof use === 'string') {
      this.#counts.refusedByCap++;
      ws.close(WS_CLOSE_CAP_EXCEEDED, use);
      return;
    }
    const conn = new Connection(ws, use);
    this.#connections.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => this.#onMessage(conn, data, isBinary));
    ws.on('close', () => this.#forget(conn));
    ws.on('error', () => this.#drop(conn));
  }

  #onMessage(conn: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const text = rawDataText(data);
    if (text === 'PING') {
      this.#counts.pings++;
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
    const markets = Array.isArray(m['markets']) ? m['markets'].filter((id): id is string => typeof id === 'string').map((id) => id.toLowerCase()) : [];
    if (m['auth'] !== undefined || conn.apiKey === undefined) {
      this.#authenticate(conn, m, markets);
      return;
    }
    if (m['operation'] === 'unsubscribe') this.#unsubscribe(conn, markets);
    else if (m['operation'] === 'subscribe') this.#subscribe(conn, markets);
  }

  /**
   * Adds the markets of the world among `markets` to the connection's, counted against its
   * caller's cap (past it: closed with 1008). Naming any market, known or not, ends "every market".
   */
  #subscribe(conn: Connection, markets: readonly string[]): void {
    if (markets.length > 0) conn.everyMarket = false;
    const before = conn.markets.size;
    for (const id of markets) if (this.#world.marketByConditionId(id) !== undefined) conn.markets.add(id);
    const added = conn.markets.size - before;
    if (added === 0) return;
    const past = this.#caps.subscribe(conn.use, added);
    if (past === undefined) return;
    this.#counts.refusedByCap++;
    this.#forget(conn);
    conn.ws.close(WS_CLOSE_CAP_EXCEEDED, past);
  }

  #unsubscribe(conn: Connection, markets: readonly string[]): void {
    const before = conn.markets.size;
    for (const id of markets) conn.markets.delete(id);
    this.#caps.unsubscribe(conn.use, before - conn.markets.size);
  }

  /** A subscription: valid credentials of an issued key and `type: user`, or the socket is closed (1008). */
  #authenticate(conn: Connection, m: Record<string, unknown>, markets: readonly string[]): void {
    const refuse = (reason: string): void => {
      this.#counts.refusedAuth++;
      this.#forget(conn);
      conn.ws.close(WS_CLOSE_AUTH_FAILED, reason);
    };
    if (typeof m['type'] !== 'string' || m['type'].toLowerCase() !== 'user') return refuse('subscription type must be "user"');
    const auth = m['auth'];
    if (auth === null || typeof auth !== 'object') return refuse('authentication required: auth {apiKey, secret, passphrase}');
    const a = auth as Record<string, unknown>;
    const apiKey = typeof a['apiKey'] === 'string' ? a['apiKey'] : '';
    const record = this.#apiKey(apiKey);
    if (record === undefined) return refuse('invalid api credentials: unknown API key');
    if (!sameText(record.secret, a['secret']) || !sameText(record.passphrase, a['passphrase'])) return refuse('invalid api credentials: secret or passphrase');
    if (conn.apiKey !== undefined && conn.apiKey !== apiKey) this.#byKey.get(conn.apiKey)?.delete(conn);
    conn.apiKey = apiKey;
    this.#unsubscribe(conn, [...conn.markets]);
    conn.everyMarket = true;
    let set = this.#byKey.get(apiKey);
    if (set === undefined) {
      set = new Set();
      this.#byKey.set(apiKey, set);
    }
    set.add(conn);
    this.#armSettlement();
    this.#subscribe(conn, markets);
  }

  #forget(conn: Connection): void {
    if (!this.#connections.delete(conn)) return;
    this.#caps.release(conn.use, conn.markets.size);
    if (conn.apiKey === undefined) return;
    const set = this.#byKey.get(conn.apiKey);
    set?.delete(conn);
    if (set !== undefined && set.size === 0) this.#byKey.delete(conn.apiKey);
  }

  #drop(conn: Connection): void {
    this.#forget(conn);
    conn.ws.terminate();
  }

  #send(conn: Connection, text: string, data = true): void {
    const ws = conn.ws;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (data && this.#silent()) return;
    if (ws.bufferedAmount > this.#maxBuffered) {
      this.#counts.droppedSlow++;
      this.#drop(conn);
      return;
    }
    ws.send(text);
    this.#counts.sent++;
  }

  // ------------------------------------------------------------------------ engine events

  #onEngineEvent(event: SimEvent): void {
    if (this.#byKey.size === 0) return;
    switch (event.type) {
      case 'OrderAccepted':
        this.#order(event.order.owner, event.order, 'PLACEMENT', event.order.sizeMatched, event.ts);
        break;
      case 'OrderFilled': {
        const order = this.#byKey.has(event.owner) ? this.#engine.order(event.orderId) : undefined;
        if (order !== undefined) this.#order(event.owner, order, 'UPDATE', event.sizeMatched, event.ts);
        break;
      }
      case 'OrderCanceled':
      case 'OrderExpired': {
        if (event.type === 'OrderCanceled' && event.reason === 'UNFILLED_REMAINDER') break;
        const order = this.#byKey.has(event.owner) ? this.#engine.order(event.orderId) : undefined;
        if (order !== undefined) this.#order(event.owner, order, 'CANCELLATION', event.sizeMatched, event.ts);
        break;
      }
      case 'TradeExecuted': {
        this.#trade(event.trade, 'MATCHED', event.ts);
        // no settlement followed (off, or final at once): the venue's next word is CONFIRMED
        const now = this.#engine.tradeStatus(event.trade);
        if (now === 'CONFIRMED') this.#trade(event.trade, 'CONFIRMED', event.ts);
        break;
      }
      case 'TradeSettled':
        this.#trade(event.trade, event.status, event.ts);
        break;
      default:
        return;
    }
    this.#armSettlement();
  }

  #order(owner: string, order: OrderState, type: UserOrderEventType, sizeMatched: number, ts: number): void {
    const conns = this.#byKey.get(owner);
    if (conns === undefined) return;
    let text: string | undefined;
    for (const conn of [...conns]) {
      if (!conn.wants(order.conditionId)) continue;
      text ??= JSON.stringify(userOrderMessage(this.#world, order, type, sizeMatched, ts));
      this.#send(conn, text);
    }
  }

  /** The trade to each of its parties that listens (a self-cross once), each from its side. */
  #trade(trade: Trade, status: TradeStatus, ts: number): void {
    const parties = new Set<string>([trade.owner]);
    for (const m of trade.makerOrders) parties.add(m.owner);
    const resend = this.#resendRate() > 0 && draw(`${trade.id}:${status}`) < this.#resendRate();
    for (const key of parties) {
      const conns = this.#byKey.get(key);
      if (conns === undefined) continue;
      let text: string | undefined;
      for (const conn of [...conns]) {
        if (!conn.wants(trade.conditionId)) continue;
        text ??= JSON.stringify(userTradeMessage(this.#world, trade, key, status, ts));
        this.#send(conn, text);
        if (resend) {
          this.#send(conn, text);
          this.#counts.resent++;
        }
      }
    }
  }

  /**
   * While someone listens and trades are settling, the engine is called when the next step is
   * due, so its TradeSettled events (and our messages) go out then, not at the next order.
   */
  #armSettlement(): void {
    if (this.#closed || this.#byKey.size === 0) return;
    const due = this.#engine.nextSettlementAtMs;
    if (due === undefined || due >= this.#settleAt) return;
    this.#settleTimer?.unsubscribe();
    this.#settleAt = due;
    this.#settleTimer = this.#clock.scheduler.schedule(
      () => {
        this.#settleTimer = undefined;
        this.#settleAt = Number.POSITIVE_INFINITY;
        // a call applies every settlement step due by now (and GTD expiries), dispatching their events
        this.#engine.expire(this.#clock.now());
        this.#armSettlement();
      },
      Math.max(0, due - this.#clock.now()),
    );
  }
}

function sameText(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A stable draw in [0, 1) from a text (FNV-1a), for seeded re-sends. */
function draw(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) / 2 ** 32;
}
