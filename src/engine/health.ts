import type { HaltName } from '../core/events.ts';

/**
 * The run's health and trading permission (issue 23 point 1): one state every surface reads (the
 * control API, the dashboard, /metrics, the alerts), each with the reasons that made it. Pure: the
 * reasons are gathered by the health monitor (health-monitor.ts); this file says what each one
 * means and how they add up. docs/operating.md says what to do about each.
 *
 * Health, best to worst: `normal`, `unknown` (something is not known yet: never taken as
 * healthy), `degraded` (trading goes on with a part impaired), `atRisk` (what we hold or have out
 * at the venue may differ from what we think), `halted` (no new orders).
 * Permission, widest to narrowest: `allowed`, `unknown`, `reduceOnly` (only orders that shrink a
 * position), `cancelOnly` (no new orders, cancels go out), `blocked` (nothing goes out but the
 * halt's own cancels).
 */
export const HEALTHS = ['normal', 'unknown', 'degraded', 'atRisk', 'halted'] as const;
export type Health = (typeof HEALTHS)[number];

export const PERMISSIONS = ['allowed', 'unknown', 'reduceOnly', 'cancelOnly', 'blocked'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The venue's restricted modes (raised by the venue-state watcher as `venueRestricted`). */
export type VenueRestriction = 'restarting' | 'cancelOnly' | 'postOnly';

/**
 * Why the run is in the state it is in. Each reason has a `kind`, the facts it names, and `since`
 * (epoch ms, the run's clock: when it was first seen). The engine finds most of them itself;
 * `feedSilent` (the market-data watchdog), `venueRestricted` (the venue's state) and
 * `rateBudgetFallback` (a shared rate budget that fell back to a local one) are raised by the
 * parts that see them, through `engine.healthReason` and `engine.clearHealthReason`.
 */
export type HealthReason = (
  | { readonly kind: 'notStarted' }
  | { readonly kind: 'stopped' }
  /** No market event has arrived yet. */
  | { readonly kind: 'awaitingMarketData' }
  /** Live: the heartbeat chain has not been acknowledged yet. */
  | { readonly kind: 'heartbeatPending' }
  /** No heartbeat acknowledged for longer than 1.5 intervals: new orders are denied. */
  | { readonly kind: 'heartbeatLate' }
  /** No heartbeat acknowledged for the venue's limit: it has cancelled our orders. */
  | { readonly kind: 'heartbeatLost' }
  /** A market-data connection went silent (the watchdog resubscribed or reconnected it). */
  | { readonly kind: 'feedSilent'; readonly connection: number; readonly silentMs: number; readonly tokens: number }
  /** A market has orders whose outcome is being looked up: it takes no new orders until it ends. */
  | { readonly kind: 'marketReconciling'; readonly conditionId: string; readonly orders: number }
  /** Orders in SUBMIT_UNKNOWN for longer than the limit: we may hold orders we do not know of. */
  | { readonly kind: 'submitUnknown'; readonly orders: number; readonly oldestMs: number; readonly limitMs: number }
  /** The kill switch tripped (a latched halt). */
  | { readonly kind: 'killSwitch'; readonly reason: string }
  /** A named halt is on (every halt but the kill switch, which is its own reason). */
  | { readonly kind: 'halt'; readonly name: Exclude<HaltName, 'killSwitch'>; readonly reason: string; readonly latched: boolean }
  /**
   * A flatten is under way (the `flatten` command, flattener.ts): its reduce-only SELLs pass the
   * halts (engine-gates.ts), so while it lasts the halts narrow the permission to `reduceOnly`.
   */
  | { readonly kind: 'flattening'; readonly bandCents: number }
  /** A strategy faulted and was stopped (the others run on). */
  | { readonly kind: 'strategyFaulted'; readonly strategyId: string }
  /** The venue is in a restricted mode (425 restarting, 503 cancel-only, post-only). */
  | { readonly kind: 'venueRestricted'; readonly state: VenueRestriction; readonly retryAfterMs?: number }
  /** The shared (Redis) rate budget is unreachable: this process budgets alone. */
  | { readonly kind: 'rateBudgetFallback'; readonly detail: string }
) & { readonly since: number };

export type HealthReasonKind = HealthReason['kind'];

/** Every reason kind, in the order of the union. */
export const HEALTH_REASON_KINDS: readonly HealthReasonKind[] = [
  'notStarted',
  'stopped',
  'awaitingMarketData',
  'heartbeatPending',
  'heartbeatLate',
  'heartbeatLost',
  'feedSilent',
  'marketReconciling',
  'submitUnknown',
  'killSwitch',
  'halt',
  'flattening',
  'strategyFaulted',
  'venueRestricted',
  'rateBudgetFallback',
];

/** The reasons a part outside the engine raises and clears (the engine finds the others itself). */
export type ExternalHealthReason = Extract<HealthReason, { readonly kind: 'feedSilent' | 'venueRestricted' | 'rateBudgetFallback' }>;
export type ExternalReasonKind = ExternalHealthReason['kind'];

/** A reason without its `since` (what a part raises; the monitor stamps when it was first seen). */
export type RaisedHealthReason = WithoutSince<ExternalHealthReason>;
type WithoutSince<R> = R extends unknown ? Omit<R, 'since'> : never;

/** The run's state: its health, its permission, the reasons for both, and since when it is so. */
export interface HealthState {
  readonly health: Health;
  readonly permission: Permission;
  /** Every reason in force, worst first; empty when the run is `normal` and `allowed`. */
  readonly reasons: readonly HealthReason[];
  /** When health or permission last changed (epoch ms, the run's clock). */
  readonly since: number;
}

/** What a reason alone makes of the run. */
export interface ReasonEffect {
  readonly health: Health;
  readonly permission: Permission;
}

const VENUE_EFFECT: Readonly<Record<VenueRestriction, ReasonEffect>> = {
  restarting: { health: 'atRisk', permission: 'blocked' },
  cancelOnly: { health: 'atRisk', permission: 'cancelOnly' },
  postOnly: { health: 'degraded', permission: 'allowed' },
};

/**
 * What one reason makes of health and permission (the state is the worst over its reasons).
 * `flattening`: a flatten is under way, and a halt then lets the orders that reduce positions
 * through (`reduceOnly`), not nothing (`blocked`).
 */
export function reasonEffect(reason: HealthReason, flattening = false): ReasonEffect {
  switch (reason.kind) {
    case 'notStarted':
    case 'awaitingMarketData':
    case 'heartbeatPending':
      return { health: 'unknown', permission: 'unknown' };
    case 'stopped':
      return { health: 'halted', permission: 'blocked' };
    case 'killSwitch':
    case 'halt':
      return { health: 'halted', permission: flattening ? 'reduceOnly' : 'blocked' };
    case 'flattening':
      return { health: 'halted', permission: 'reduceOnly' };
    case 'heartbeatLate':
      return { health: 'degraded', permission: 'cancelOnly' };
    case 'heartbeatLost':
      return { health: 'atRisk', permission: 'cancelOnly' };
    case 'feedSilent':
    case 'marketReconciling':
    case 'strategyFaulted':
    case 'rateBudgetFallback':
      return { health: 'degraded', permission: 'allowed' };
    case 'submitUnknown':
      return { health: 'atRisk', permission: 'allowed' };
    case 'venueRestricted':
      return VENUE_EFFECT[reason.state];
  }
}

const HEALTH_RANK: Readonly<Record<Health, number>> = { normal: 0, unknown: 1, degraded: 2, atRisk: 3, halted: 4 };
const PERMISSION_RANK: Readonly<Record<Permission, number>> = { allowed: 0, unknown: 1, reduceOnly: 2, cancelOnly: 3, blocked: 4 };

/** Whether `next` is worse than `previous` (health or permission narrower). */
export function worsened(previous: Pick<HealthState, 'health' | 'permission'>, next: Pick<HealthState, 'health' | 'permission'>): boolean {
  return HEALTH_RANK[next.health] > HEALTH_RANK[previous.health] || PERMISSION_RANK[next.permission] > PERMISSION_RANK[previous.permission];
}

/** A number for a health (0 normal .. 4 halted), for gauges and comparisons. */
export function healthRank(health: Health): number {
  return HEALTH_RANK[health];
}

/** A number for a permission (0 allowed .. 4 blocked), for gauges and comparisons. */
export function permissionRank(permission: Permission): number {
  return PERMISSION_RANK[permission];
}

/**
 * Health and permission over the reasons: the worst of each (`normal`, `allowed` with none); the
 * reasons sorted worst first. With a `flattening` reason among them, the halts read `reduceOnly`.
 */
export function assess(reasons: readonly HealthReason[]): { readonly health: Health; readonly permission: Permission; readonly reasons: readonly HealthReason[] } {
  let health: Health = 'normal';
  let permission: Permission = 'allowed';
  const flattening = reasons.some((r) => r.kind === 'flattening');
  const ranked = reasons.map((reason) => ({ reason, effect: reasonEffect(reason, flattening) }));
  for (const { effect } of ranked) {
    if (HEALTH_RANK[effect.health] > HEALTH_RANK[health]) health = effect.health;
    if (PERMISSION_RANK[effect.permission] > PERMISSION_RANK[permission]) permission = effect.permission;
  }
  ranked.sort((a, b) => HEALTH_RANK[b.effect.health] - HEALTH_RANK[a.effect.health] || PERMISSION_RANK[b.effect.permission] - PERMISSION_RANK[a.effect.permission]);
  return { health, permission, reasons: ranked.map((r) => r.reason) };
}

/** One line for a reason (a log line, an alert, the dashboard). Never a secret: reasons carry none. */
export function describeReason(reason: HealthReason): string {
  switch (reason.kind) {
    case 'notStarted':
      return 'the engine has not started';
    case 'stopped':
      return 'the engine has stopped';
    case 'awaitingMarketData':
      return 'no market data yet';
    case 'heartbeatPending':
      return 'heartbeat not yet acknowledged by the venue';
    case 'heartbeatLate':
      return 'heartbeat late: new orders denied until it is acknowledged';
    case 'heartbeatLost':
      return 'heartbeat lost: the venue has cancelled our open orders';
    case 'feedSilent':
      return `market data silent on connection ${reason.connection} for ${Math.round(reason.silentMs / 1000)} s (${reason.tokens} tokens)`;
    case 'marketReconciling':
      return `market ${reason.conditionId} reconciling ${reason.orders} order(s) of unknown outcome`;
    case 'submitUnknown':
      return `${reason.orders} order(s) of unknown outcome for over ${Math.round(reason.limitMs / 1000)} s (oldest ${Math.round(reason.oldestMs / 1000)} s)`;
    case 'killSwitch':
      return `kill switch: ${reason.reason}`;
    case 'halt':
      return `${reason.name} halt${reason.latched ? ' (latched)' : ''}: ${reason.reason}`;
    case 'flattening':
      return `flatten under way (SELLs no lower than ${reason.bandCents} cent(s) under the best bid): only orders that reduce positions go out`;
    case 'strategyFaulted':
      return `strategy ${reason.strategyId} faulted and stopped`;
    case 'venueRestricted':
      return `venue ${reason.state}${reason.retryAfterMs === undefined ? '' : ` (retry after ${Math.round(reason.retryAfterMs / 1000)} s)`}`;
    case 'rateBudgetFallback':
      return `shared rate budget unavailable, budgeting locally: ${reason.detail}`;
  }
}

/** The key that tells one reason from another of its kind (a connection, a market, a strategy, a halt). */
export function reasonKey(reason: Pick<HealthReason, 'kind'> & Partial<Record<'connection' | 'conditionId' | 'strategyId' | 'name', unknown>>): string {
  switch (reason.kind) {
    case 'feedSilent':
      return `feedSilent:${String(reason.connection)}`;
    case 'marketReconciling':
      return `marketReconciling:${String(reason.conditionId)}`;
    case 'strategyFaulted':
      return `strategyFaulted:${String(reason.strategyId)}`;
    case 'halt':
      return `halt:${String(reason.name)}`;
    default:
      return reason.kind;
  }
}

/** `health/permission: reason; reason` in one line. */
export function describeHealth(state: HealthState): string {
  const head = `${state.health}/${state.permission}`;
  return state.reasons.length === 0 ? head : `${head}: ${state.reasons.map(describeReason).join('; ')}`;
}
