import type { AlertsConfig, AlertTarget } from '../config/run-config.ts';
import type { EngineEvent } from '../engine/ports.ts';
import { alertBody } from './alert-formats.ts';
import { alertOf, dailyLossAlert, type Alert, type AlertKind } from './alert-rules.ts';

export interface AlerterOptions {
  readonly config: AlertsConfig;
  /** The run's name, at the head of every alert. */
  readonly run: string;
  /** Values that must never leave in a payload (beside the targets' own URLs and tokens). */
  readonly secrets?: readonly string[];
  /** One line for the run's log when a message is given up (never its URL). */
  readonly onError?: (message: string) => void;
  /** Wall clock for the rate limit, ms (default Date.now). */
  readonly now?: () => number;
  /** First backoff, ms (default 500; doubled per attempt, at most 30 s). */
  readonly backoffMs?: number;
}

export interface AlerterStats {
  /** Messages delivered (one per alert per target). */
  sent: number;
  /** Attempts that failed (an error status, no answer in time, the network) and were retried or given up. */
  failedAttempts: number;
  /** Messages given up after every attempt, or dropped from a full queue. */
  dropped: number;
  /** Alerts held back by the per-kind rate limit. */
  suppressed: number;
}

/** Messages waiting per target; past this the oldest is dropped (a receiver down for hours). */
const MAX_QUEUE = 200;

interface Outbox {
  readonly target: AlertTarget;
  readonly queue: string[];
  busy: boolean;
}

/**
 * Sends alerts to webhooks (issue 23 point 5) off the engine's path: the bus listener decides
 * (alert-rules.ts), applies the per-kind rate limit and queues a formatted body per target, all
 * synchronous and bounded; each target's queue is sent by its own loop on later turns, one
 * message at a time, each attempt bounded by `timeoutMs`, retried with doubling backoff up to
 * `attempts`. Nothing it does can throw into the engine or wait on it. Every body is scrubbed of
 * the targets' URLs and tokens (and any other secret given) before it is queued.
 */
export class Alerter {
  readonly stats: AlerterStats = { sent: 0, failedAttempts: 0, dropped: 0, suppressed: 0 };
  readonly #o: AlerterOptions;
  readonly #outboxes: Outbox[];
  readonly #secrets: readonly string[];
  readonly #lastSent = new Map<AlertKind, number>();
  readonly #held = new Map<AlertKind, number>();
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #controllers = new Set<AbortController>();
  #idle: (() => void)[] = [];
  #closed = false;
  /** Subscribed to the engine's bus as is. */
  readonly listener = (event: EngineEvent): void => {
    const alert = alertOf(event, this.#o.run);
    if (alert !== undefined) this.raise(alert);
  };

  constructor(options: AlerterOptions) {
    this.#o = options;
    this.#outboxes = options.config.targets.map((target) => ({ target, queue: [], busy: false }));
    const fromTargets = options.config.targets.flatMap((t) => secretParts(t.url.reveal()));
    this.#secrets = [...fromTargets, ...(options.secrets ?? [])].filter((s) => s.length >= 6).sort((a, b) => b.length - a.length);
  }

  /** Queues an alert for every target unless its kind sent one within `minIntervalMs` (then it is counted into the next). */
  raise(alert: Alert): void {
    if (this.#closed) return;
    const now = (this.#o.now ?? Date.now)();
    const last = this.#lastSent.get(alert.kind);
    if (last !== undefined && now - last < this.#o.config.minIntervalMs && alert.kind !== 'runEnded') {
      this.stats.suppressed++;
      this.#held.set(alert.kind, (this.#held.get(alert.kind) ?? 0) + 1);
      return;
    }
    this.#lastSent.set(alert.kind, now);
    const held = this.#held.get(alert.kind) ?? 0;
    this.#held.delete(alert.kind);
    const withHeld = held > 0 ? { ...alert, suppressed: held } : alert;
    for (const box of this.#outboxes) {
      if (box.queue.length >= MAX_QUEUE) {
        box.queue.shift();
        this.stats.dropped++;
      }
      box.queue.push(this.#scrub(JSON.stringify(alertBody(withHeld, box.target.format, box.target.chatId))));
      if (!box.busy) {
        box.busy = true;
        setImmediate(() => void this.#drain(box));
      }
    }
  }

  /** A daily-loss alert when the run's net PnL (USDC) is below minus the configured threshold. */
  checkDailyLoss(netUsdc: number, at: number): void {
    const threshold = this.#o.config.dailyLoss;
    if (threshold === undefined) return;
    const alert = dailyLossAlert(this.#o.run, netUsdc, threshold / 1e6, at);
    if (alert !== undefined) this.raise(alert);
  }

  /** Messages waiting or being sent. */
  get pending(): number {
    let n = 0;
    for (const box of this.#outboxes) n += box.queue.length + (box.busy && box.queue.length === 0 ? 1 : 0);
    return n;
  }

  /** Resolves once every queue is empty, or after `deadlineMs` (what is left stays queued until close). */
  async flush(deadlineMs: number): Promise<void> {
    if (this.#outboxes.every((b) => !b.busy)) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, deadlineMs);
      timer.unref();
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Stops sending: waits and attempts in progress are abandoned, what is queued is dropped. */
  close(): void {
    this.#closed = true;
    for (const t of this.#timers) clearTimeout(t);
    for (const c of this.#controllers) c.abort();
    for (const box of this.#outboxes) {
      this.stats.dropped += box.queue.length;
      box.queue.length = 0;
    }
    this.#settled();
  }

  async #drain(box: Outbox): Promise<void> {
    try {
      for (let body = box.queue.shift(); body !== undefined && !this.#closed; body = box.queue.shift()) await this.#deliver(box.target, body);
    } finally {
      box.busy = false;
      if (this.#outboxes.every((b) => !b.busy)) this.#settled();
    }
  }

  async #deliver(target: AlertTarget, body: string): Promise<void> {
    const attempts = this.#o.config.attempts;
    for (let attempt = 1; attempt <= attempts && !this.#closed; attempt++) {
      const why = await this.#post(target, body);
      if (why === undefined) {
        this.stats.sent++;
        return;
      }
      this.stats.failedAttempts++;
      if (attempt === attempts) {
        this.stats.dropped++;
        this.#o.onError?.(`alert to a ${target.format} target given up after ${attempts} attempt(s): ${why}`);
        return;
      }
      await this.#sleep(Math.min(30_000, (this.#o.backoffMs ?? 500) * 2 ** (attempt - 1)));
    }
  }

  /** One POST; undefined when the receiver took it, else why not (never naming the URL). */
  async #post(target: AlertTarget, body: string): Promise<string | undefined> {
    const controller = new AbortController();
    this.#controllers.add(controller);
    const timer = setTimeout(() => controller.abort(), this.#o.config.timeoutMs);
    timer.unref();
    try {
      const res = await fetch(target.url.reveal(), { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: controller.signal });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? undefined : `HTTP ${res.status}`;
    } catch (err) {
      return controller.signal.aborted ? `no answer within ${this.#o.config.timeoutMs} ms` : this.#scrub(err instanceof Error ? err.message : String(err));
    } finally {
      clearTimeout(timer);
      this.#controllers.delete(controller);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      timer.unref();
      this.#timers.add(timer);
    });
  }

  #scrub(text: string): string {
    let out = text;
    for (const s of this.#secrets) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return out;
  }

  #settled(): void {
    const waiting = this.#idle;
    this.#idle = [];
    for (const done of waiting) done();
  }
}

/** A target URL and the parts of it that carry a secret (its path segments and query values, the bot token). */
function secretParts(url: string): string[] {
  const out = [url];
  try {
    const u = new URL(url);
    for (const seg of u.pathname.split('/')) if (seg.length >= 12) out.push(seg, seg.startsWith('bot') ? seg.slice(3) : seg);
    for (const v of u.searchParams.values()) out.push(v);
    if (u.password) out.push(u.password);
  } catch {
    // not a URL: the whole text is the secret
  }
  return out;
}
