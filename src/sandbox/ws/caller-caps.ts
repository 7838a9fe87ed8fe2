/** Connections one caller (remote IP address) may hold open at once, on each channel. */
export const DEFAULT_MAX_CONNECTIONS_PER_CALLER = 64;
/**
 * Subscriptions (market channel: assets; user channel: markets) one caller may hold over all its
 * connections, at least (a 5,000-market world twice over); the sandbox raises it to twice its
 * world (`subscriptionCapOfWorld`), so two whole-venue runs on one machine fit however large it is.
 */
export const DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER = 20_000;

/** A subscription cap that follows a world of `size()` subscribable things (it grows with the world): twice it, and at least the default. */
export function subscriptionCapOfWorld(size: () => number): () => number {
  return () => Math.max(DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER, 2 * size());
}
/** WebSocket close code of a connection refused by a per-caller cap (RFC 6455: policy violation). */
export const WS_CLOSE_CAP_EXCEEDED = 1008;

/** What one caller (remote IP address) holds on a channel: connections, and subscriptions over them. */
export interface CallerUse {
  readonly caller: string;
  connections: number;
  subscriptions: number;
}

/**
 * The per-caller caps of one WebSocket channel: how many connections a caller (remote IP
 * address) holds, and how many subscriptions over them. A connection past `maxConnections`, or
 * whose subscription takes its caller past `maxSubscriptions`, is closed by its channel with
 * 1008 (`WS_CLOSE_CAP_EXCEEDED`) and the reason these methods give. A caller with nothing left
 * open is forgotten.
 */
export class CallerCaps {
  readonly #callers = new Map<string, CallerUse>();

  readonly #maxSubscriptions: number | (() => number);

  /** `maxSubscriptions`: a number, or a function read at each subscription (a cap that follows the world). */
  constructor(
    readonly maxConnections: number = DEFAULT_MAX_CONNECTIONS_PER_CALLER,
    maxSubscriptions: number | (() => number) = DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER,
  ) {
    this.#maxSubscriptions = maxSubscriptions;
  }

  get maxSubscriptions(): number {
    const max = this.#maxSubscriptions;
    return typeof max === 'number' ? max : max();
  }

  /** Counts a new connection of `caller`: its use, or the reason it is refused (nothing counted). */
  admit(caller: string): CallerUse | string {
    let use = this.#callers.get(caller);
    if (use === undefined) {
      use = { caller, connections: 0, subscriptions: 0 };
      this.#callers.set(caller, use);
    }
    if (use.connections >= this.maxConnections) return `too many connections from ${shortCaller(caller)}: ${use.connections} open (max ${this.maxConnections})`;
    use.connections++;
    return use;
  }

  /**
   * Counts `added` subscriptions; returns the reason when they take the caller past its cap (they
   * stay counted: the channel forgets the connection, which gives them back with `release`).
   */
  subscribe(use: CallerUse, added: number): string | undefined {
    const before = use.subscriptions;
    use.subscriptions += added;
    const max = this.maxSubscriptions;
    if (use.subscriptions <= max) return undefined;
    return `too many subscriptions from ${shortCaller(use.caller)}: ${before} + ${added} (max ${max})`;
  }

  /** Gives back `n` subscriptions (unsubscribed). */
  unsubscribe(use: CallerUse, n: number): void {
    use.subscriptions -= n;
  }

  /** A connection gone, with the `subscriptions` it still held. */
  release(use: CallerUse, subscriptions: number): void {
    use.subscriptions -= subscriptions;
    use.connections--;
    if (use.connections === 0 && use.subscriptions === 0) this.#callers.delete(use.caller);
  }

  /** Callers with something open (for tests and stats). */
  get callers(): number {
    return this.#callers.size;
  }
}

/** A caller as named in a close reason (a close frame's reason is at most 123 bytes). */
function shortCaller(caller: string): string {
  return caller.slice(0, 45);
}
