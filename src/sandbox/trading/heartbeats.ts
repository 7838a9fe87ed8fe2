import { createHash } from 'node:crypto';
import { uuidOf } from './api-keys.ts';

/**
 * Heartbeat sessions per API key (PROTOCOL "Heartbeats").
 *
 * - `POST /v1/heartbeats` with `heartbeat_id: ""` starts (or restarts) the key's chain; a beat
 *   carrying the id last handed out is valid. Each valid beat answers a new id and arms the
 *   deadline at now + timeout. Any other id gets `400 Invalid Heartbeat ID` with the id the
 *   sandbox now expects (a fresh one when the key has no chain), which the client adopts.
 * - `POST /heartbeats` (no body) is valid whenever the request is authenticated: it arms the same
 *   deadline and answers `{"status": "ok"}`.
 * - Once armed, a deadline that passes without a valid beat cancels every open order of the key
 *   (`check(now)`, which the server calls every `heartbeatCheckMs` on the sandbox clock's
 *   scheduler, so a simulated clock drives it),
 *   disarms the session and retires the current id: the next beat with it gets the 400 and a new
 *   id.
 * - Fault `ignoreHeartbeats`: beats are answered as usual (ids advance) but do not push an armed
 *   deadline back; a key's first beat still arms it, so its orders are cancelled one timeout after
 *   that first beat.
 *
 * Ids are uuid-shaped and deterministic: a hash of the seed, the key and the key's beat count.
 */
export interface HeartbeatOutcome {
  readonly ok: boolean;
  /** The id to send next (the new one on success, the expected one on a 400). */
  readonly heartbeatId: string;
}

interface Session {
  expected: string | undefined;
  /** Epoch ms, or undefined while not armed. */
  deadline: number | undefined;
  issued: number;
}

export class HeartbeatSessions {
  readonly #seed: number;
  readonly #timeoutMs: number;
  readonly #onExpire: (apiKey: string, now: number) => void;
  readonly #ignore: () => boolean;
  readonly #sessions = new Map<string, Session>();

  constructor(options: {
    seed: number;
    timeoutMs: number;
    /** Cancels the key's open orders. */
    onExpire: (apiKey: string, now: number) => void;
    /** The `ignoreHeartbeats` fault, read on every beat. */
    ignore: () => boolean;
  }) {
    this.#seed = options.seed;
    this.#timeoutMs = options.timeoutMs;
    this.#onExpire = options.onExpire;
    this.#ignore = options.ignore;
  }

  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** A `POST /v1/heartbeats` beat. */
  beatV1(apiKey: string, heartbeatId: string, now: number): HeartbeatOutcome {
    const s = this.#session(apiKey);
    if (heartbeatId !== '' && heartbeatId !== s.expected) {
      s.expected ??= this.#nextId(apiKey, s);
      return { ok: false, heartbeatId: s.expected };
    }
    this.#arm(s, now);
    s.expected = this.#nextId(apiKey, s);
    return { ok: true, heartbeatId: s.expected };
  }

  /** A `POST /heartbeats` beat. */
  beatLegacy(apiKey: string, now: number): void {
    this.#arm(this.#session(apiKey), now);
  }

  /** Cancels for every armed session whose deadline has passed; returns their keys. */
  check(now: number): string[] {
    const expired: string[] = [];
    for (const [apiKey, s] of this.#sessions) {
      if (s.deadline === undefined || s.deadline > now) continue;
      s.deadline = undefined;
      s.expected = undefined;
      expired.push(apiKey);
      this.#onExpire(apiKey, now);
    }
    return expired;
  }

  /** The deadline of a key (epoch ms), undefined when not armed. */
  deadline(apiKey: string): number | undefined {
    return this.#sessions.get(apiKey)?.deadline;
  }

  #arm(s: Session, now: number): void {
    if (s.deadline === undefined || !this.#ignore()) s.deadline = now + this.#timeoutMs;
  }

  #session(apiKey: string): Session {
    let s = this.#sessions.get(apiKey);
    if (s === undefined) {
      s = { expected: undefined, deadline: undefined, issued: 0 };
      this.#sessions.set(apiKey, s);
    }
    return s;
  }

  #nextId(apiKey: string, s: Session): string {
    s.issued++;
    return uuidOf(createHash('sha256').update(`clobot-sandbox-heartbeat\u0000${this.#seed}\u0000${apiKey}\u0000${s.issued}`).digest());
  }
}
