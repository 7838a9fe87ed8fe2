import type { Subscription } from 'rxjs';
import { WebSocket, type RawData } from 'ws';
import type { Clock } from '../../core/clock.ts';
import { ConfigError, TransportError } from '../../core/errors.ts';
import type { ConditionId } from '../../core/types.ts';
import type { ApiCredentials } from '../../venue/signing/l2-auth.ts';
import { decodeUserChannelText, type UserChannelMessage } from './user-channel-messages.ts';

/** The venue closes sockets that send no `PING` for a while (every 10 s, as on the market channel). */
export const USER_CHANNEL_PING_MS = 10_000;
/** Close code of a subscription the venue refused (bad credentials): retried at the longest delay. */
const CLOSE_POLICY = 1008;

export interface UserChannelSocketOptions {
  /** `ws://` or `wss://` URL of the channel (`.../ws/user`). */
  readonly url: string;
  readonly credentials: ApiCredentials;
  /** Condition ids to hear of; empty: every market of the account. */
  readonly markets?: readonly ConditionId[];
  /** Receipt times and every timer (ping, backoff, staleness). */
  readonly clock: Clock;
  readonly pingMs?: number;
  /** No frame (not even PONG) for this long: the socket is dropped and remade. Default 3 pings. */
  readonly staleMs?: number;
  /** First reconnect delay, doubled per failed attempt up to `maxReconnectDelayMs`. Default 250 ms. */
  readonly reconnectDelayMs?: number;
  /** Default 30 s. */
  readonly maxReconnectDelayMs?: number;
  /** The socket is subscribed (its PING after the subscription was answered), or it is gone. */
  readonly onState: (state: 'up' | 'down', reason: string) => void;
  /** Decoded messages of one frame, with their receipt time on the clock. */
  readonly onMessages: (messages: readonly UserChannelMessage[], tsInit: number) => void;
  /** A transport or decode failure (already handled: the socket is remade). Never carries a secret. */
  readonly onError?: (err: unknown) => void;
}

/**
 * One authenticated socket of the venue's user channel, remade whenever it drops. On open it
 * sends `{"auth": {apiKey, secret, passphrase}, "type": "user", "markets": [...]}` and a `PING`;
 * the `PONG` to it says the subscription was read (the venue reads a socket's messages in order),
 * and only then is the socket `up`: whoever fills the gap by a read of the venue's trades does it
 * after that moment, so no trade falls between the read and the channel. PINGs every `pingMs`;
 * a socket silent past `staleMs` is dropped. A refused subscription (close 1008) is retried at
 * the longest delay; the reason is reported, the credentials never.
 */
export class UserChannelSocket {
  readonly #o: UserChannelSocketOptions;
  readonly #clock: Clock;
  #ws: WebSocket | undefined;
  #pinger: Subscription | undefined;
  #retry: Subscription | undefined;
  #stopped = true;
  #up = false;
  #failures = 0;
  #lastFrameAt = 0;
  /** Sockets opened so far. */
  opens = 0;

  constructor(options: UserChannelSocketOptions) {
    this.#o = options;
    this.#clock = options.clock;
  }

  get up(): boolean {
    return this.#up;
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#connect();
  }

  stop(): void {
    this.#stopped = true;
    this.#retry?.unsubscribe();
    this.#pinger?.unsubscribe();
    const ws = this.#ws;
    this.#ws = undefined;
    ws?.terminate();
    this.#down('stopped');
  }

  #connect(): void {
    if (this.#stopped) return;
    const ws = new WebSocket(this.#o.url, { perMessageDeflate: false });
    this.#ws = ws;
    let refused: string | undefined;
    ws.on('open', () => {
      if (this.#ws !== ws) return;
      this.opens++;
      this.#lastFrameAt = this.#clock.now();
      const c = this.#o.credentials;
      ws.send(JSON.stringify({ auth: { apiKey: c.apiKey, secret: c.secret.reveal(), passphrase: c.passphrase.reveal() }, type: 'user', markets: this.#o.markets ?? [] }));
      ws.send('PING');
      this.#startPinging(ws);
    });
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (this.#ws !== ws || isBinary) return;
      const tsInit = this.#clock.now();
      this.#lastFrameAt = tsInit;
      const text = frameText(data);
      if (text === 'PONG') {
        if (!this.#up) {
          this.#up = true;
          this.#failures = 0;
          this.#o.onState('up', this.opens === 1 ? 'connected' : 'reconnected');
        }
        return;
      }
      let messages: UserChannelMessage[];
      try {
        messages = decodeUserChannelText(text);
      } catch (err) {
        // a message we could not read may have been a fill: the socket is remade and the gap read again
        this.#o.onError?.(err);
        ws.terminate();
        return;
      }
      if (messages.length > 0) this.#o.onMessages(messages, tsInit);
    });
    ws.on('error', (err: Error) => {
      if (this.#ws !== ws || this.#stopped) return;
      this.#o.onError?.(new TransportError(`ws user channel ${this.#o.url}: ${err.message}`, false, { cause: err }));
    });
    ws.on('close', (code: number, reason: Buffer) => {
      if (code === CLOSE_POLICY) refused = reason.toString('utf8').slice(0, 200);
      if (this.#ws !== ws) return;
      this.#ws = undefined;
      this.#pinger?.unsubscribe();
      this.#pinger = undefined;
      if (refused !== undefined) this.#o.onError?.(new TransportError(`ws user channel ${this.#o.url}: the venue refused the subscription: ${refused}`, false));
      this.#down(refused !== undefined ? `refused: ${refused}` : `closed (${code})`);
      if (!this.#stopped) this.#scheduleReconnect(refused !== undefined);
    });
  }

  #down(reason: string): void {
    if (!this.#up) return;
    this.#up = false;
    this.#o.onState('down', reason);
  }

  #scheduleReconnect(longest: boolean): void {
    const max = this.#o.maxReconnectDelayMs ?? 30_000;
    const delay = longest ? max : Math.min(max, (this.#o.reconnectDelayMs ?? 250) * 2 ** Math.min(this.#failures, 20));
    this.#failures++;
    this.#retry = this.#clock.scheduler.schedule(() => {
      this.#retry = undefined;
      this.#connect();
    }, delay);
  }

  #startPinging(ws: WebSocket): void {
    const every = this.#o.pingMs ?? USER_CHANNEL_PING_MS;
    const staleMs = this.#o.staleMs ?? 3 * every;
    this.#pinger?.unsubscribe();
    this.#pinger = this.#clock.scheduler.schedule(() => {
      if (this.#ws !== ws || ws.readyState !== WebSocket.OPEN) return;
      if (this.#clock.now() - this.#lastFrameAt > staleMs) {
        this.#o.onError?.(new TransportError(`ws user channel ${this.#o.url}: no frame for ${staleMs} ms`, true));
        ws.terminate();
        return;
      }
      ws.send('PING');
      this.#startPinging(ws);
    }, every);
  }
}

/** `<trading base>/ws/user` with the ws scheme matching the base's http scheme (the venue's own host serves it elsewhere: give its URL). */
export function userChannelUrl(base: string): string {
  let u: URL;
  try {
    u = new URL(base);
  } catch {
    throw new ConfigError(`execution.userChannel.url: the trading URL is not a URL: '${base}'`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new ConfigError(`execution.userChannel.url: expected an http(s) trading URL, was '${u.protocol}'`);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = u.pathname.replace(/\/+$/, '') + '/ws/user';
  u.search = '';
  u.hash = '';
  return u.toString();
}

function frameText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
