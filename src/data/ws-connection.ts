import type { Subscription } from 'rxjs';
import { WebSocket, type RawData } from 'ws';
import type { Clock } from '../core/clock.ts';
import { TransportError } from '../core/errors.ts';
import type { Micros } from '../core/fixed.ts';
import type { MarketEvent } from '../core/events.ts';
import type { OrderBook, TokenId } from '../core/types.ts';
import type { FeedEvent } from './feed-events.ts';
import { LocalBook } from './local-book.ts';
import { decodeWsMarketText, type WsMarketMessage } from './ws-messages.ts';

/** Confirmation passes per `confirmMs` (see `WsConnection.#startConfirming`). */
const CONFIRM_TICKS = 3;
/** Close code of a connection the venue refused (RFC 6455: policy violation; the sandbox's per-caller caps). */
const CLOSE_POLICY = 1008;

/** What one connection needs from its source's options (see `WsSourceOptions`). */
export interface WsConnectionSettings {
  readonly clock: Clock;
  readonly pingMs: number;
  readonly staleMs: number;
  readonly reconnectDelayMs: number;
  readonly maxReconnectDelayMs: number;
  readonly customFeatures: boolean;
  /** 0: no watchdog. */
  readonly silentAfterMs: number;
  /** 0: books are emitted only when they change (see `WsSourceOptions.confirmBooksMs`). */
  readonly confirmMs: number;
  readonly refreshBooks: ((tokenIds: readonly TokenId[]) => Promise<readonly OrderBook[]>) | undefined;
  readonly onError: ((err: unknown) => void) | undefined;
  readonly onConnect: ((info: { readonly connection: number; readonly tokenIds: readonly TokenId[] }) => void) | undefined;
  readonly onFeedEvent: ((event: FeedEvent) => void) | undefined;
}

/**
 * One socket's life, and its replacements, for a set of tokens that may grow or shrink while it
 * runs (`add` and `remove` send the channel's `subscribe` and `unsubscribe` operations).
 *
 * The watchdog (`silentAfterMs` > 0): a connection that delivers no market message for that long
 * (PONGs do not count, so a connection kept alive but fed nothing is caught) resubscribes its
 * assets, asking for fresh snapshots; silent again right after, it is dropped and remade. Either
 * way the assets' books are fetched by REST (`refreshBooks`) and emitted, so the strategies see
 * current books while the channel is silent.
 */
export class WsConnection {
  readonly #id: number;
  readonly #url: string;
  readonly #assets: Set<TokenId>;
  readonly #s: WsConnectionSettings;
  readonly #clock: Clock;
  readonly #emit: (event: MarketEvent) => void;
  readonly #books = new Map<TokenId, LocalBook>();
  /** Last known tick per token (snapshots may lack it). */
  readonly #ticks = new Map<TokenId, Micros>();
  readonly #lastTrade = new Map<TokenId, Micros>();
  #ws: WebSocket | undefined;
  #pinger: Subscription | undefined;
  #watchdog: Subscription | undefined;
  #confirmer: Subscription | undefined;
  #retry: Subscription | undefined;
  #stopped = false;
  #failures = 0;
  #opens = 0;
  #lastFrameAt = 0;
  /** Last market message (not PONG), or the open, or the watchdog's last action. */
  #lastDataAt = 0;
  /** When the watchdog last found this process held up (a look a period late): silence counts from then at the earliest. */
  #heldAt = 0;
  /** Watchdog actions since the last market message. */
  #silentStreak = 0;

  constructor(id: number, url: string, tokenIds: readonly TokenId[], settings: WsConnectionSettings, emit: (event: MarketEvent) => void) {
    this.#id = id;
    this.#url = url;
    this.#assets = new Set(tokenIds);
    this.#s = settings;
    this.#clock = settings.clock;
    this.#emit = emit;
  }

  get id(): number {
    return this.#id;
  }

  get size(): number {
    return this.#assets.size;
  }

  tokenIds(): TokenId[] {
    return [...this.#assets];
  }

  start(): void {
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    this.#retry?.unsubscribe();
    this.#pinger?.unsubscribe();
    this.#watchdog?.unsubscribe();
    this.#confirmer?.unsubscribe();
    const ws = this.#ws;
    this.#ws = undefined;
    if (ws !== undefined) ws.terminate();
  }

  /** Subscribes more assets on this connection (sent at once when open, else at the next open). */
  add(tokenIds: readonly TokenId[]): void {
    const fresh = tokenIds.filter((id) => !this.#assets.has(id));
    if (fresh.length === 0) return;
    for (const id of fresh) this.#assets.add(id);
    this.#send({ assets_ids: fresh, operation: 'subscribe' });
  }

  /** Stops streaming these assets: unsubscribed, their books forgotten. */
  remove(tokenIds: readonly TokenId[]): void {
    const gone = tokenIds.filter((id) => this.#assets.delete(id));
    if (gone.length === 0) return;
    for (const id of gone) {
      this.#books.delete(id);
      this.#ticks.delete(id);
      this.#lastTrade.delete(id);
    }
    this.#send({ assets_ids: gone, operation: 'unsubscribe' });
  }

  #send(message: Record<string, unknown>): void {
    const ws = this.#ws;
    if (ws === undefined || ws.readyState !== WebSocket.OPEN) return;
    if (this.#s.customFeatures) message['custom_feature_enabled'] = true;
    ws.send(JSON.stringify(message));
  }

  #connect(): void {
    if (this.#stopped) return;
    const ws = new WebSocket(this.#url, { perMessageDeflate: false });
    this.#ws = ws;
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      const now = this.#clock.now();
      this.#lastFrameAt = now;
      this.#lastDataAt = now;
      const tokenIds = this.tokenIds();
      const subscribe: Record<string, unknown> = { assets_ids: tokenIds, type: 'market' };
      if (this.#s.customFeatures) subscribe['custom_feature_enabled'] = true;
      ws.send(JSON.stringify(subscribe));
      this.#startPinging(ws);
      this.#startWatchdog(ws);
      this.#startConfirming(ws);
      this.#opens++;
      this.#s.onConnect?.({ connection: this.#opens, tokenIds });
      this.#s.onFeedEvent?.({ type: 'FeedConnected', connection: this.#id, attempt: this.#opens, tokenIds, tsInit: now });
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (this.#ws !== ws || isBinary) return;
      this.#lastFrameAt = this.#clock.now();
      this.#onText(ws, frameText(data));
    });
    ws.on('error', (err: Error) => {
      if (this.#ws !== ws || this.#stopped) return;
      this.#s.onError?.(new TransportError(`ws market channel ${this.#url}: ${err.message}`, false, { cause: err }));
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      this.#pinger?.unsubscribe();
      this.#pinger = undefined;
      this.#watchdog?.unsubscribe();
      this.#watchdog = undefined;
      this.#confirmer?.unsubscribe();
      this.#confirmer = undefined;
      this.#books.clear();
      if (this.#stopped) return;
      // refused by the venue's policy (a cap on connections or subscriptions): said once per
      // refusal with the venue's reason, and tried again only after the longest backoff
      const refused = code === CLOSE_POLICY;
      if (refused) this.#s.onError?.(new TransportError(`ws market channel ${this.#url}: the venue closed the connection (${code}): ${reason.toString('utf8').slice(0, 200) || 'no reason given'}`, false));
      this.#scheduleReconnect(refused);
    });
  }

  #scheduleReconnect(longest = false): void {
    const delay = longest ? this.#s.maxReconnectDelayMs : Math.min(this.#s.maxReconnectDelayMs, this.#s.reconnectDelayMs * 2 ** Math.min(this.#failures, 20));
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
      if (this.#clock.now() - this.#lastFrameAt > this.#s.staleMs) {
        this.#s.onError?.(new TransportError(`ws market channel ${this.#url}: no frame for ${this.#s.staleMs} ms`, true));
        ws.terminate();
        return;
      }
      ws.send('PING');
      this.#startPinging(ws);
    }, this.#s.pingMs);
  }

  /**
   * Looks for silence four times per `silentAfterMs`, on the clock. A look that comes a period or
   * more late finds this process held up (a long pause, a starved CPU): what the venue sent
   * meanwhile waits unread, and a venue in this process was held up as well, so the silence is
   * counted again from then. Taken as the venue's, a stall of ours cost a resubscribe and a REST
   * read of every book of the connection when the process was already behind. On a simulated
   * clock no look is late.
   */
  #startWatchdog(ws: WebSocket): void {
    const silentMs = this.#s.silentAfterMs;
    if (!(silentMs > 0)) return;
    this.#watchdog?.unsubscribe();
    const every = Math.max(10, Math.floor(silentMs / 4));
    const due = this.#clock.now() + every;
    this.#watchdog = this.#clock.scheduler.schedule(() => {
      if (this.#ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      const now = this.#clock.now();
      if (now - due >= every) this.#heldAt = now;
      if (this.#assets.size > 0 && now - Math.max(this.#lastDataAt, this.#heldAt) >= silentMs) this.#onSilent(ws);
      if (this.#ws === ws) this.#startWatchdog(ws);
    }, every);
  }

  /**
   * Every `confirmMs / CONFIRM_TICKS`, on the clock: a frame received at time F (a market message
   * or a PONG) shows that every message sent before it was applied, so each book is the venue's as
   * of F. A book last emitted `confirmMs` or more before F is emitted again, unchanged, with tsInit
   * F (same hash: the cache takes it as confirmed fresh, strategies hear nothing). A connection
   * that sent no frame for a tick is sent a PING, so a quiet one is confirmed by its PONG. A book's
   * age thus stays under about `confirmMs` plus two ticks. One timer per connection, a pass over
   * its books per tick.
   */
  #startConfirming(ws: WebSocket): void {
    const every = this.#s.confirmMs;
    if (!(every > 0)) return;
    const tick = Math.max(1, Math.floor(every / CONFIRM_TICKS));
    this.#confirmer?.unsubscribe();
    this.#confirmer = this.#clock.scheduler.schedule(() => {
      if (this.#ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      const proof = this.#lastFrameAt;
      if (this.#clock.now() - proof >= tick) ws.send('PING');
      for (const local of this.#books.values()) {
        const last = local.emitted;
        if (last !== undefined && proof - last.tsInit >= every) this.#emitAgain(local, last, proof);
      }
      this.#startConfirming(ws);
    }, tick);
  }

  /** A book emitted before, again with a later receipt time (same content, same hash). */
  #emitAgain(local: LocalBook, last: OrderBook, tsInit: number): void {
    const book: OrderBook = Object.freeze({
      tokenId: last.tokenId,
      conditionId: last.conditionId,
      tsEvent: last.tsEvent,
      tsInit,
      hash: last.hash,
      bids: last.bids,
      asks: last.asks,
      tickSize: last.tickSize,
      minOrderSize: last.minOrderSize,
      negRisk: last.negRisk,
      lastTradePrice: last.lastTradePrice,
    });
    local.emitted = book;
    this.#emit({ type: 'book', book, tsEvent: book.tsEvent, tsInit });
  }

  #onSilent(ws: WebSocket): void {
    const now = this.#clock.now();
    const silentMs = now - this.#lastDataAt;
    this.#lastDataAt = now;
    this.#silentStreak++;
    const tokenIds = this.tokenIds();
    const action = this.#silentStreak >= 2 ? 'reconnect' : 'resubscribe';
    this.#s.onFeedEvent?.({ type: 'FeedSilent', connection: this.#id, tokenIds, silentMs, action, tsInit: now });
    this.#refresh(tokenIds);
    if (action === 'reconnect') {
      this.#silentStreak = 0;
      ws.terminate();
      return;
    }
    // a repeated subscribe is ignored by the venue, a cycle is not: fresh snapshots
    ws.send(JSON.stringify({ assets_ids: tokenIds, operation: 'unsubscribe' }));
    this.#send({ assets_ids: tokenIds, operation: 'subscribe' });
  }

  /** The assets' books by REST, emitted as they come (a failure is reported; the watchdog goes on). */
  #refresh(tokenIds: readonly TokenId[]): void {
    const fetch = this.#s.refreshBooks;
    if (fetch === undefined || tokenIds.length === 0) return;
    fetch(tokenIds).then(
      (books) => {
        if (this.#stopped) return;
        let n = 0;
        for (const book of books) {
          if (!this.#assets.has(book.tokenId)) continue;
          const held = this.#books.get(book.tokenId);
          if (held !== undefined && held.tsEvent > book.tsEvent) continue;
          if (book.tickSize !== undefined) this.#ticks.set(book.tokenId, book.tickSize);
          const local = LocalBook.of(book);
          local.emitted = book;
          this.#books.set(book.tokenId, local);
          this.#emit({ type: 'book', book, tsEvent: book.tsEvent, tsInit: book.tsInit });
          n++;
        }
        this.#s.onFeedEvent?.({ type: 'FeedRefreshed', connection: this.#id, books: n, tsInit: this.#clock.now() });
      },
      (err: unknown) => {
        if (!this.#stopped) this.#s.onError?.(err);
      },
    );
  }

  #onText(ws: WebSocket, text: string): void {
    const tsInit = this.#clock.now();
    let messages: WsMarketMessage[];
    try {
      messages = decodeWsMarketText(text, tsInit);
    } catch (err) {
      this.#s.onError?.(err);
      // A plain-text notice loses nothing; a bad JSON message may have been a delta: re-sync.
      const c = text.charCodeAt(0);
      if (c === 123 /* { */ || c === 91 /* [ */) ws.terminate();
      return;
    }
    if (messages.length === 0) return; // PONG
    this.#failures = 0; // a connection that delivers good data resets the backoff
    this.#lastDataAt = tsInit;
    this.#silentStreak = 0;
    for (const m of messages) this.#apply(ws, m, tsInit);
  }

  #apply(ws: WebSocket, m: WsMarketMessage, tsInit: number): void {
    const emit = this.#emit;
    switch (m.kind) {
      case 'book': {
        const b = m.book;
        if (!this.#assets.has(b.tokenId)) return;
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
        if (!this.#assets.has(m.tokenId)) return;
        this.#lastTrade.set(m.tokenId, m.price);
        emit({ type: 'trade', tokenId: m.tokenId, price: m.price, size: m.size, side: m.side, tsEvent: m.tsEvent, tsInit });
        return;
      case 'tickSize':
        if (!this.#assets.has(m.tokenId)) return;
        this.#ticks.set(m.tokenId, m.newTickSize);
        this.#books.delete(m.tokenId);
        emit({ type: 'tickSize', tokenId: m.tokenId, tickSize: m.newTickSize, tsEvent: m.tsEvent, tsInit });
        // Ask for a fresh snapshot: a repeated subscribe is ignored by the venue, a cycle is not.
        if (ws.readyState === WebSocket.OPEN) {
          ws.send(JSON.stringify({ assets_ids: [m.tokenId], operation: 'unsubscribe' }));
          ws.send(JSON.stringify({ assets_ids: [m.tokenId], operation: 'subscribe' }));
        }
        return;
      case 'bestBidAsk':
        if (!this.#s.customFeatures || !this.#assets.has(m.tokenId)) return;
        emit({ type: 'prices', prices: [{ tokenId: m.tokenId, buy: m.bestBid, sell: m.bestAsk, tsInit }], tsEvent: m.tsEvent, tsInit });
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
    local.emitted = book;
    this.#emit({ type: 'book', book, tsEvent: book.tsEvent, tsInit });
  }
}

/** A text frame's text: ws hands a frame as one Buffer by default; the other forms for completeness. */
function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
