import { Redis } from 'ioredis';
import { redisConnectionFields, type RedisTarget } from '../core/redis-url.ts';
import type { RateWindow } from './rate-limits.ts';

/**
 * Part 8's sliding windows kept in Redis, so every bot on one key draws from one count. Each
 * window is a sorted set of request entries scored by time (Redis's own clock, `TIME`, so the
 * bots' clocks need not agree); a request of cost N is N entries. Three Lua scripts, each atomic:
 *
 * - admit: prunes every window of the route, and either adds the request to all of them (scored
 *   `now + lease`: in flight, counted until it ends) or answers how long to wait. All windows or
 *   none, so two bots never both take the last place.
 * - release: re-scores the request's entries at the time it ended. As in the local budget
 *   (rate-budget.ts), an entry leaves the window `windowMs` after the request ended, never before
 *   the venue's count of it does. A bot that dies in flight leaves entries that end with the lease.
 * - restore: puts entries back with their age (a bot rejoining after Redis was away brings the
 *   requests it sent meanwhile; entries Redis still has are left as they are).
 *
 * Why scripts and not a limiter package: the windows here are the client's own table (several
 * windows per route, group windows shared between routes, cost per item, permits held in flight
 * and stamped at release); a sliding-window limiter such as rate-limiter-flexible counts one key
 * at a time at admission, which is neither atomic across a route's windows nor safe against the
 * venue counting a request at its arrival.
 */

/** One window of a route, named by its key in Redis. */
export interface SharedWindow {
  readonly key: string;
  readonly spec: RateWindow;
}

export type Admission =
  /** Admitted at `atMs` (Redis time); `used`: each window's count after it. */
  | { readonly ok: true; readonly atMs: number; readonly used: readonly number[] }
  /** Not now: ask again in `waitMs`; `used`: each window's count. */
  | { readonly ok: false; readonly waitMs: number; readonly used: readonly number[] };

/** How soon to ask again when only requests in flight fill a window (their release frees it). */
const IN_FLIGHT_RETRY_MS = 20;

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

// KEYS: the windows; ARGV: cost, lease ms, member prefix, then limit and window ms per window
const ADMIT = `${NOW}
local cost = tonumber(ARGV[1])
local lease = tonumber(ARGV[2])
local wait = 0
local used = {}
for i = 1, #KEYS do
  local limit = tonumber(ARGV[2 + 2 * i])
  local w = tonumber(ARGV[3 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. (now - w))
  local n = redis.call('ZCARD', KEYS[i])
  used[i] = n
  local excess = n + cost - limit
  if excess > 0 then
    local e = redis.call('ZRANGE', KEYS[i], excess - 1, excess - 1, 'WITHSCORES')
    local stamp = tonumber(e[2])
    local ww = ${IN_FLIGHT_RETRY_MS}
    if stamp <= now then ww = stamp + w + 1 - now end
    if ww > wait then wait = ww end
  end
end
if wait > 0 then
  table.insert(used, 1, wait)
  table.insert(used, 1, 0)
  return used
end
for i = 1, #KEYS do
  local w = tonumber(ARGV[3 + 2 * i])
  for k = 1, cost do redis.call('ZADD', KEYS[i], now + lease, ARGV[3] .. ':' .. k) end
  redis.call('PEXPIRE', KEYS[i], w + lease + 60000)
  used[i] = used[i] + cost
end
table.insert(used, 1, now)
table.insert(used, 1, 1)
return used`;

// KEYS: the windows; ARGV: cost, member prefix
const RELEASE = `${NOW}
local cost = tonumber(ARGV[1])
for i = 1, #KEYS do
  for k = 1, cost do redis.call('ZADD', KEYS[i], 'XX', now, ARGV[2] .. ':' .. k) end
end
return now`;

// KEYS: the windows; ARGV: cost, member prefix, age ms, then window ms per window
const RESTORE = `${NOW}
local cost = tonumber(ARGV[1])
local at = now - tonumber(ARGV[3])
for i = 1, #KEYS do
  for k = 1, cost do redis.call('ZADD', KEYS[i], 'NX', at, ARGV[2] .. ':' .. k) end
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[3 + i]) + 60000)
end
return now`;

interface RateCommands {
  clobotAdmit(...args: (string | number)[]): Promise<number[]>;
  clobotRelease(...args: (string | number)[]): Promise<number>;
  clobotRestore(...args: (string | number)[]): Promise<number>;
}

export class RedisRateWindows {
  readonly #redis: Redis & RateCommands;
  readonly #timeoutMs: number;

  /**
   * Connects lazily and keeps reconnecting in the background; a command while disconnected, or
   * one Redis does not answer within `commandTimeoutMs`, rejects at once (the caller falls back).
   */
  constructor(target: RedisTarget, commandTimeoutMs = 3_000) {
    const redis = new Redis({
      ...redisConnectionFields(target),
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: commandTimeoutMs,
      retryStrategy: (times: number) => Math.min(100 * times, 1_000),
    });
    redis.on('error', () => undefined); // each command's own rejection is what the budget acts on
    redis.defineCommand('clobotAdmit', { lua: ADMIT });
    redis.defineCommand('clobotRelease', { lua: RELEASE });
    redis.defineCommand('clobotRestore', { lua: RESTORE });
    this.#redis = redis as Redis & RateCommands;
    this.#timeoutMs = commandTimeoutMs;
    this.#redis.connect().catch(() => undefined);
  }

  /** Resolves once connected (at once when it is); rejects when not connected within the command timeout. */
  #ready(): Promise<void> {
    if (this.#redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#redis.off('ready', done);
        reject(new Error(`not connected within ${this.#timeoutMs} ms (${this.#redis.status})`));
      }, this.#timeoutMs);
      this.#redis.once('ready', done);
    });
  }

  async admit(windows: readonly SharedWindow[], cost: number, member: string, leaseMs: number): Promise<Admission> {
    await this.#ready(); // the first request of a run waits for the connection, not falls back
    const args = windows.flatMap((w) => [w.spec.limit, w.spec.windowMs]);
    const reply = await this.#redis.clobotAdmit(windows.length, ...windows.map((w) => w.key), cost, leaseMs, member, ...args);
    const used = reply.slice(2);
    return reply[0] === 1 ? { ok: true, atMs: reply[1] as number, used } : { ok: false, waitMs: reply[1] as number, used };
  }

  async release(windows: readonly SharedWindow[], cost: number, member: string): Promise<void> {
    await this.#redis.clobotRelease(windows.length, ...windows.map((w) => w.key), cost, member);
  }

  async restore(windows: readonly SharedWindow[], cost: number, member: string, ageMs: number): Promise<void> {
    await this.#redis.clobotRestore(windows.length, ...windows.map((w) => w.key), cost, member, Math.max(0, Math.round(ageMs)), ...windows.map((w) => w.spec.windowMs));
  }

  async ping(): Promise<void> {
    if (this.#redis.status === 'wait' || this.#redis.status === 'end') await this.#redis.connect();
    await this.#redis.ping();
  }

  close(): void {
    this.#redis.disconnect();
  }
}
