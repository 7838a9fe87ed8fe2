import { z } from 'zod';
import { ConfigError } from '../core/errors.ts';
import { ENDPOINTS, type RouteId } from '../venue/endpoints.ts';
import { Prng } from './world/prng.ts';

/**
 * Fault knobs for reliability tests, in one place: set by the sandbox options, by
 * `RunningSandbox.faults.set(...)`, or by the loopback-only `POST /admin/faults`.
 *
 * Every route honours `latencyMs`, `errorRate`, `stallMs`, `dropRate` and `rateLimitStorm`. The
 * order routes also honour `dropAfterAccept` (the orders are placed, then the connection is
 * destroyed without an answer) and `mode` (`post-only`: order posts that are not all post-only
 * are answered 503 with Retry-After; `cancel-only`: every order post is; cancels always pass).
 * With `ignoreHeartbeats` beats are answered as usual but do not push the deadline back, so the
 * open orders of a key are cancelled once its deadline passes.
 *
 * `restart` stages a restart of the matching engine as the venue runs its weekly one (docs/
 * venue-states.md): from the moment it is set, `restartingMs` of `425 Too Early` on every order
 * route (posts and cancels), then `postOnlyMs` of post-only mode, then back to `mode`; its Retry-After
 * is what is left of the phase. Set by `{"restart": {"restartingMs", "postOnlyMs"}}` on
 * `/admin/faults`, `POST /admin/restart` (seconds), or the sandbox options; `null` ends it.
 *
 * `routes` scopes the per-request knobs (`latencyMs`, `errorRate`, `stallMs`, `dropRate`,
 * `rateLimitStorm`) to those route ids (e.g. `["postHeartbeatV1"]`: only beats fail, or
 * `["postOrders"]`: only order posts stall); empty, the default, means every route.
 */
export const TRADING_MODES = ['normal', 'post-only', 'cancel-only'] as const;
export type TradingMode = (typeof TRADING_MODES)[number];

/** A staged restart: its two phases' lengths and when it began (the sandbox clock, epoch ms). */
export interface StagedRestart {
  readonly restartingMs: number;
  readonly postOnlyMs: number;
  readonly startedAt: number;
}

/** Where a staged restart is at a moment: its phase and what is left of it, ms. */
export interface RestartPhase {
  readonly phase: 'restarting' | 'post-only';
  readonly remainingMs: number;
}

export interface FaultSettings {
  /** Added delay before a request is handled, ms. */
  readonly latencyMs: number;
  /** Share of requests answered `500 {"error"}`, drawn from a seeded stream. */
  readonly errorRate: number;
  /** The answer is held this long before it is sent, ms (after the work is done). */
  readonly stallMs: number;
  /** Share of requests whose connection is destroyed without an answer, seeded. */
  readonly dropRate: number;
  /** Every request is answered 429 with `Retry-After`. */
  readonly rateLimitStorm: boolean;
  readonly mode: TradingMode;
  /** Heartbeats are answered but do not keep the session alive. */
  readonly ignoreHeartbeats: boolean;
  /** Share of order posts whose orders are placed and whose connection is then destroyed, seeded. */
  readonly dropAfterAccept: number;
  /** Route ids the per-request knobs apply to; empty = every route. */
  readonly routes: readonly RouteId[];
  /** Settlement of our trades (src/sim/settlement-model.ts): MATCHED to MINED or RETRYING, ms (each trade draws 0.5-1.5x). */
  readonly settlementMinedMs: number;
  /** MINED to CONFIRMED, and RETRYING to CONFIRMED or FAILED, ms (drawn the same way). */
  readonly settlementConfirmedMs: number;
  /** Share of trades that go RETRYING and then CONFIRMED, seeded per trade. */
  readonly settlementRetryRate: number;
  /** Share of trades that go RETRYING and then FAILED (void: reversed on the ledger), seeded per trade. */
  readonly settlementFailRate: number;
  /** Matching delay of every market, ms; null (the default): each market's own `seconds_delay`. */
  readonly matchingDelayMs: number | null;
  /**
   * The WS market channel keeps its connections open and answers PING, but sends no market
   * message (no snapshot, delta, trade or tick change) while this is on: a feed that looks alive
   * and is silent. Subscriptions made meanwhile are kept; turned off, messages flow again.
   */
  readonly wsSilent: boolean;
  /** Share (0..1) of the user channel's `trade` messages sent twice, as the venue re-sends one (src/sandbox/ws/user-channel.ts). */
  readonly wsUserResendRate: number;
  /**
   * The venue's clock runs this far ahead of ours (negative: behind), ms: `GET /time` answers it
   * and the L1/L2 timestamp window is judged by it, as a venue whose clock differs from the
   * caller's would (what `clobot doctor` measures).
   */
  readonly clockSkewMs: number;
  /** A staged restart (425, then post-only), or null. */
  readonly restart: StagedRestart | null;
  /**
   * One page of the account's orders or trades fails: the next `times` requests for page `page`
   * (1 = the first) of `route` (`getAccountOrders`, `getAccountTrades`) are answered 500, the
   * pages before and after it as usual: a snapshot with a page missing. Null: off.
   */
  readonly pageFault: PageFault | null;
}

/** See `FaultSettings.pageFault`. */
export interface PageFault {
  readonly route: 'getAccountOrders' | 'getAccountTrades';
  readonly page: number;
  readonly times: number;
}

export const DEFAULT_FAULTS: FaultSettings = Object.freeze({
  latencyMs: 0,
  errorRate: 0,
  stallMs: 0,
  dropRate: 0,
  rateLimitStorm: false,
  mode: 'normal',
  ignoreHeartbeats: false,
  dropAfterAccept: 0,
  routes: Object.freeze([]),
  settlementMinedMs: 2_000,
  settlementConfirmedMs: 3_000,
  settlementRetryRate: 0,
  settlementFailRate: 0,
  matchingDelayMs: null,
  wsSilent: false,
  wsUserResendRate: 0,
  clockSkewMs: 0,
  restart: null,
  pageFault: null,
});

/** Longest delay a knob accepts (10 minutes). */
const MAX_DELAY_MS = 600_000;

const patchSchema = z
  .strictObject({
    latencyMs: z.number().int().min(0).max(MAX_DELAY_MS),
    errorRate: z.number().min(0).max(1),
    stallMs: z.number().int().min(0).max(MAX_DELAY_MS),
    dropRate: z.number().min(0).max(1),
    rateLimitStorm: z.boolean(),
    mode: z.enum(TRADING_MODES),
    ignoreHeartbeats: z.boolean(),
    dropAfterAccept: z.number().min(0).max(1),
    routes: z.array(z.enum(Object.keys(ENDPOINTS) as [RouteId, ...RouteId[]])),
    settlementMinedMs: z.number().int().min(0).max(MAX_DELAY_MS),
    settlementConfirmedMs: z.number().int().min(0).max(MAX_DELAY_MS),
    settlementRetryRate: z.number().min(0).max(1),
    settlementFailRate: z.number().min(0).max(1),
    matchingDelayMs: z.number().int().min(0).max(MAX_DELAY_MS).nullable(),
    wsSilent: z.boolean(),
    wsUserResendRate: z.number().min(0).max(1),
    clockSkewMs: z.number().int().min(-86_400_000).max(86_400_000),
    restart: z
      .strictObject({
        restartingMs: z.number().int().min(0).max(MAX_DELAY_MS),
        postOnlyMs: z.number().int().min(0).max(MAX_DELAY_MS),
        // GET /admin/faults shows it; a patch may carry it back (it is then kept)
        startedAt: z.number().int().min(0).optional(),
      })
      .nullable(),
    pageFault: z.strictObject({ route: z.enum(['getAccountOrders', 'getAccountTrades']), page: z.number().int().min(1).max(100_000), times: z.number().int().min(1).max(1_000_000) }).nullable(),
  })
  .partial();

/** A change of some settings, as `set`, `/admin/faults` and the sandbox options take it (a restart without `startedAt` begins when set). */
export type FaultPatch = Omit<Partial<FaultSettings>, 'restart'> & { restart?: { restartingMs: number; postOnlyMs: number; startedAt?: number } | null };

/** Checks a patch of fault settings; throws a ConfigError naming the key. */
export function parseFaultPatch(value: unknown): FaultPatch {
  const result = patchSchema.safeParse(value);
  if (result.success) return result.data.routes === undefined ? result.data : { ...result.data, routes: Object.freeze([...new Set(result.data.routes)]) };
  const issue = result.error.issues[0];
  const key = issue && issue.path.length > 0 ? issue.path.join('.') : issue?.code === 'unrecognized_keys' ? (issue.keys ?? []).join(', ') : '';
  throw new ConfigError(`faults${key ? `.${key}` : ''}: ${issue?.message ?? 'invalid'}`);
}

export class FaultKnobs {
  readonly #seed: number;
  /** The sandbox clock's now, epoch ms: when a staged restart begins and where it is. */
  readonly #now: () => number;
  #settings: FaultSettings;
  #errorDraws: Prng;
  #dropDraws: Prng;
  #acceptDropDraws: Prng;
  /** Failures of the page fault still to give. */
  #pageFaultsLeft = 0;

  constructor(seed: number, initial: FaultPatch = {}, now: () => number = Date.now) {
    this.#seed = seed;
    this.#now = now;
    this.#settings = Object.freeze({ ...DEFAULT_FAULTS, ...this.#stamped(parseFaultPatch(initial)) });
    this.#pageFaultsLeft = this.#settings.pageFault?.times ?? 0;
    this.#errorDraws = Prng.from(seed, 'faults', 'error');
    this.#dropDraws = Prng.from(seed, 'faults', 'drop');
    this.#acceptDropDraws = Prng.from(seed, 'faults', 'drop-after-accept');
  }

  get settings(): FaultSettings {
    return this.#settings;
  }

  /**
   * Changes some settings and returns them all. Setting `errorRate`, `dropRate` or
   * `dropAfterAccept` restarts its seeded stream, so the same setting gives the same run of faults.
   */
  set(patch: FaultPatch): FaultSettings {
    const checked = this.#stamped(parseFaultPatch(patch));
    this.#settings = Object.freeze({ ...this.#settings, ...checked });
    if (checked.errorRate !== undefined) this.#errorDraws = Prng.from(this.#seed, 'faults', 'error');
    if (checked.dropRate !== undefined) this.#dropDraws = Prng.from(this.#seed, 'faults', 'drop');
    if (checked.dropAfterAccept !== undefined) this.#acceptDropDraws = Prng.from(this.#seed, 'faults', 'drop-after-accept');
    if (checked.pageFault !== undefined) this.#pageFaultsLeft = checked.pageFault?.times ?? 0;
    return this.#settings;
  }

  /** Back to no faults. */
  reset(): FaultSettings {
    return this.set({ ...DEFAULT_FAULTS });
  }

  /** Stages a restart from now: `restartingMs` of 425, then `postOnlyMs` of post-only mode. */
  stageRestart(restartingMs: number, postOnlyMs: number): StagedRestart {
    return this.set({ restart: { restartingMs, postOnlyMs } }).restart!;
  }

  /** Where the staged restart is now; undefined when none is on (or it has ended). */
  restartPhase(): RestartPhase | undefined {
    const restart = this.#settings.restart;
    if (restart === null) return undefined;
    const elapsed = this.#now() - restart.startedAt;
    if (elapsed < restart.restartingMs) return { phase: 'restarting', remainingMs: restart.restartingMs - elapsed };
    if (elapsed < restart.restartingMs + restart.postOnlyMs) return { phase: 'post-only', remainingMs: restart.restartingMs + restart.postOnlyMs - elapsed };
    return undefined;
  }

  /** The trading mode now: a staged restart's post-only phase, else `mode`. */
  tradingMode(): TradingMode {
    return this.restartPhase()?.phase === 'post-only' ? 'post-only' : this.#settings.mode;
  }

  /** A restart patch begins now unless it says when it began. */
  #stamped(patch: FaultPatch): Partial<FaultSettings> {
    const restart = patch.restart;
    if (restart === undefined || restart === null) return patch as Partial<FaultSettings>;
    return { ...patch, restart: Object.freeze({ restartingMs: restart.restartingMs, postOnlyMs: restart.postOnlyMs, startedAt: restart.startedAt ?? this.#now() }) };
  }

  /** True when the per-request knobs apply to `route` (`routes` empty or listing it). */
  applies(route: RouteId): boolean {
    const routes = this.#settings.routes;
    return routes.length === 0 || routes.includes(route);
  }

  /** True when this request is to be answered 500 (draws only while `errorRate` > 0). */
  drawError(): boolean {
    const rate = this.#settings.errorRate;
    return rate > 0 && this.#errorDraws.float() < rate;
  }

  /** True when this request's connection is to be dropped (draws only while `dropRate` > 0). */
  drawDrop(): boolean {
    const rate = this.#settings.dropRate;
    return rate > 0 && this.#dropDraws.float() < rate;
  }

  /** True when this request for page `page` (1-based) of `route` is to fail (the page fault; counts down). */
  failsPage(route: RouteId, page: number): boolean {
    const fault = this.#settings.pageFault;
    if (fault === null || fault.route !== route || fault.page !== page || this.#pageFaultsLeft <= 0) return false;
    this.#pageFaultsLeft--;
    return true;
  }

  /** True when this order post's connection is to be destroyed after its orders were placed. */
  drawDropAfterAccept(): boolean {
    const rate = this.#settings.dropAfterAccept;
    return rate > 0 && this.#acceptDropDraws.float() < rate;
  }
}
