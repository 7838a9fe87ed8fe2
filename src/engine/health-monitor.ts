import type { Clock } from '../core/clock.ts';
import type { HeartbeatHealth } from '../execution/heartbeat.ts';
import type { OrderTracker } from '../execution/order-tracker.ts';
import type { EventBus } from './event-bus.ts';
import type { Halts } from './halts.ts';
import { assess, reasonKey, type ExternalReasonKind, type HealthReason, type HealthState, type RaisedHealthReason } from './health.ts';
import type { EngineEvent } from './ports.ts';

/** Default limit of an order's time in SUBMIT_UNKNOWN before it is a `submitUnknown` reason, ms. */
export const DEFAULT_SUBMIT_UNKNOWN_LIMIT_MS = 30_000;
/** Default period of the health check between the events that change it, ms (clock time). */
export const DEFAULT_HEALTH_CHECK_MS = 1_000;

export interface HealthSources {
  readonly clock: Clock;
  readonly bus: EventBus;
  /** The heartbeat's health; undefined when the run has none (paper, backtest). */
  readonly heartbeat: () => HeartbeatHealth | undefined;
  readonly halts: Halts;
  /** Markets (condition ids) with orders under reconciliation, with how many (the reconciler's). */
  readonly reconciling: ReadonlyMap<string, number>;
  readonly tracker: OrderTracker;
  /** Every strategy's state by id (the strategy host's). */
  readonly strategies: () => Readonly<Record<string, string>>;
  /** An order in SUBMIT_UNKNOWN longer than this is a `submitUnknown` reason, ms. */
  readonly submitUnknownLimitMs: number;
  /** The flatten under way (its band, since when), if any (the flattener's); absent: none ever. */
  readonly flattening?: () => { readonly bandCents: number; readonly since: number } | undefined;
}

const NOT_STARTED: HealthState = Object.freeze({ health: 'unknown', permission: 'unknown', reasons: Object.freeze([]), since: 0 });

/**
 * Gathers the reasons of the run's health (health.ts) from the engine's parts and from the parts
 * outside that raise their own (feed silence, the venue's restricted modes, a rate-budget
 * fallback), and puts a `HealthChanged` event on the bus when health, permission or the set of
 * reasons changes. It looks again on the events that can change them (heartbeat, halts and
 * commands, faults, orders of unknown outcome) and on a period (`check`, for the ones that
 * change with time alone), and whenever the state is asked for.
 */
export class HealthMonitor {
  readonly #s: HealthSources;
  #phase: 'notStarted' | 'running' | 'stopped' = 'notStarted';
  #sawMarketData = false;
  readonly #external = new Map<string, HealthReason>();
  /** When each reason in force was first seen, by key. */
  #since = new Map<string, number>();
  #state: HealthState;
  /** Whether order events may change the state (orders under reconciliation or of unknown outcome). */
  #watchOrders = false;
  #checking = false;
  /** Subscribed to the bus as is. */
  readonly listener = (event: EngineEvent): void => {
    if (this.#affects(event)) this.check();
  };

  constructor(sources: HealthSources) {
    this.#s = sources;
    const reasons = Object.freeze([Object.freeze({ kind: 'notStarted' as const, since: sources.clock.now() })]);
    this.#state = Object.freeze({ ...NOT_STARTED, reasons, since: sources.clock.now() });
  }

  /** The current state, looked at now. */
  current(): HealthState {
    this.check();
    return this.#state;
  }

  /** The engine started: strategies run, orders may go out. */
  started(): void {
    this.#phase = 'running';
    this.check();
  }

  /** The engine stopped. */
  stopped(): void {
    this.#phase = 'stopped';
    this.check();
  }

  /** The first market event arrived (called once; later calls cost one branch). */
  marketData(): void {
    if (this.#sawMarketData) return;
    this.#sawMarketData = true;
    this.check();
  }

  /** Raises (or updates) a reason a part outside the engine sees; it stays until cleared. */
  raise(reason: RaisedHealthReason): void {
    const key = reasonKey(reason);
    const since = this.#external.get(key)?.since ?? this.#s.clock.now();
    this.#external.set(key, Object.freeze({ ...reason, since }));
    this.check();
  }

  /** Clears a reason raised by `raise`: every one of `kind`, or the one of `connection` for feedSilent. */
  clear(kind: ExternalReasonKind, connection?: number): void {
    const key = connection === undefined ? undefined : reasonKey({ kind, connection });
    let changed = false;
    for (const [k, reason] of this.#external) {
      if (reason.kind !== kind || (key !== undefined && k !== key)) continue;
      this.#external.delete(k);
      changed = true;
    }
    if (changed) this.check();
  }

  /** Whether any raised reason of `kind` is in force. */
  has(kind: ExternalReasonKind): boolean {
    for (const reason of this.#external.values()) if (reason.kind === kind) return true;
    return false;
  }

  /** Looks at the sources again; emits `HealthChanged` when the state changed. */
  check(): void {
    // a listener of HealthChanged that asks for the state (or raises) sees the new one: no nested look
    if (this.#checking) return;
    this.#checking = true;
    try {
      this.#check();
    } finally {
      this.#checking = false;
    }
  }

  #check(): void {
    const now = this.#s.clock.now();
    const found = this.#gather(now);
    const since = new Map<string, number>();
    const stamped: HealthReason[] = [];
    for (const reason of found) {
      const key = reasonKey(reason);
      const first = this.#since.get(key) ?? reason.since;
      since.set(key, first);
      stamped.push(first === reason.since ? reason : Object.freeze({ ...reason, since: first }));
    }
    this.#since = since;
    const next = assess(stamped);
    const previous = this.#state;
    this.#watchOrders = this.#s.reconciling.size > 0 || stamped.some((r) => r.kind === 'submitUnknown');
    const sameState = next.health === previous.health && next.permission === previous.permission;
    const state: HealthState = Object.freeze({ health: next.health, permission: next.permission, reasons: Object.freeze(next.reasons), since: sameState ? previous.since : now });
    this.#state = state;
    // figures that move with time alone (how long silent, how old) are kept fresh without an event
    if (sameState && sameReasons(previous.reasons, next.reasons)) return;
    this.#s.bus.emit({ type: 'HealthChanged', previous, state, at: now });
  }

  /** Every reason in force now, stamped `now` (the caller keeps the first time each was seen). */
  #gather(now: number): HealthReason[] {
    const s = this.#s;
    const out: HealthReason[] = [];
    if (this.#phase === 'notStarted') out.push({ kind: 'notStarted', since: now });
    if (this.#phase === 'stopped') out.push({ kind: 'stopped', since: now });
    if (this.#phase === 'running' && !this.#sawMarketData) out.push({ kind: 'awaitingMarketData', since: now });
    // before the halts it narrows (listed first among equals)
    const flatten = s.flattening?.();
    if (flatten !== undefined) out.push({ kind: 'flattening', bandCents: flatten.bandCents, since: flatten.since });
    for (const halt of s.halts.active()) {
      if (halt.name === 'killSwitch') out.push({ kind: 'killSwitch', reason: halt.reason, since: halt.since });
      else out.push({ kind: 'halt', name: halt.name, reason: halt.reason, latched: halt.latched, since: halt.since });
    }
    if (this.#phase === 'running') {
      const heartbeat = s.heartbeat();
      if (heartbeat === 'idle') out.push({ kind: 'heartbeatPending', since: now });
      else if (heartbeat === 'late') out.push({ kind: 'heartbeatLate', since: now });
      else if (heartbeat === 'lost') out.push({ kind: 'heartbeatLost', since: now });
    }
    for (const [conditionId, orders] of s.reconciling) out.push({ kind: 'marketReconciling', conditionId, orders, since: now });
    const unknown = this.#unknownPastLimit(now);
    if (unknown !== undefined) out.push(unknown);
    for (const [strategyId, state] of Object.entries(s.strategies())) if (state === 'FAULTED') out.push({ kind: 'strategyFaulted', strategyId, since: now });
    for (const reason of this.#external.values()) out.push(reason);
    return out;
  }

  #unknownPastLimit(now: number): HealthReason | undefined {
    const limitMs = this.#s.submitUnknownLimitMs;
    let orders = 0;
    let oldest = now;
    for (const record of this.#s.tracker.open()) {
      if (record.status !== 'SUBMIT_UNKNOWN') continue;
      const entered = enteredAt(record.history);
      if (now - entered < limitMs) continue;
      orders++;
      if (entered < oldest) oldest = entered;
    }
    return orders === 0 ? undefined : { kind: 'submitUnknown', orders, oldestMs: now - oldest, limitMs, since: oldest + limitMs };
  }

  #affects(event: EngineEvent): boolean {
    switch (event.type) {
      case 'heartbeat':
      case 'command':
      case 'fault':
        return true;
      case 'lifecycle':
        return event.event.type === 'Halted' || event.event.type === 'Resumed';
      case 'order':
        return this.#watchOrders || event.event.type === 'OrderSubmitUnknown';
      default:
        return false;
    }
  }
}

/** When the order last entered SUBMIT_UNKNOWN. */
function enteredAt(history: readonly { readonly status: string; readonly at: number }[]): number {
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.status === 'SUBMIT_UNKNOWN') return history[i]!.at;
  return history[history.length - 1]?.at ?? 0;
}

/** The same reasons (by key and facts, `since` aside) in the same order. */
function sameReasons(a: readonly HealthReason[], b: readonly HealthReason[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (factsOf(a[i]!) !== factsOf(b[i]!)) return false;
  return true;
}

/** A reason's facts as text, without the figures that move every look (`silentMs`, `oldestMs`). */
function factsOf(reason: HealthReason): string {
  switch (reason.kind) {
    case 'submitUnknown':
      return `submitUnknown:${reason.orders}`;
    case 'marketReconciling':
      return `${reasonKey(reason)}:${reason.orders}`;
    case 'halt':
    case 'killSwitch':
      return `${reasonKey(reason)}:${reason.reason}`;
    case 'venueRestricted':
      return `venueRestricted:${reason.state}`;
    default:
      return reasonKey(reason);
  }
}
