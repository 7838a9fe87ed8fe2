import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import { LIQUIDITY_OWNER, type SandboxEngine } from '../trading/sandbox-engine.ts';
import type { MarketResolutions } from '../world/market-resolution.ts';
import type { SandboxMarket } from '../world/model.ts';
import { Prng } from '../world/prng.ts';
import { EpisodeClock } from './episode-clock.ts';
import { cancelOwnOrders } from './step-back.ts';

/** Knobs of the near-end episodes (`SandboxOptions.nearEnd`, `clobot sandbox --near-end-episodes`). */
export interface NearEndEpisodeOptions {
  /** Episodes per hour of sandbox time over the whole sandbox (a Poisson rate of end dates); 0 (default): none planned. */
  readonly ratePerHour?: number;
  /** The planned end dates fall within this long after the sandbox starts, ms; default 3,600,000 (an hour). */
  readonly withinMs?: number;
  /** How long before its end date a market's favourite starts to drift, ms, [min, max] (default [60 s, 180 s]). */
  readonly approachMs?: readonly [number, number];
  /** The favourite's price when the drift starts, [min, max] (default [0.86, 0.92]). */
  readonly startPrice?: readonly [number, number];
  /** Its price at the end date, [min, max] (default [0.96, 0.97]; the flow keeps prices within [0.03, 0.97]). */
  readonly endPrice?: readonly [number, number];
  /** Share of episodes (0 to 1, default 0.15) in which the favourite collapses before the end and the other outcome wins. */
  readonly breakdownShare?: number;
  /** Where a collapsed favourite's price goes, [min, max] (default [0.15, 0.45]). */
  readonly collapseTo?: readonly [number, number];
  /** How often the episodes are stepped, ms; default 1000. */
  readonly stepMs?: number;
}

/** What `POST /admin/near-end` (or a test) asks for: a market whose end date is `approachMs` from now. */
export interface NearEndRequest {
  /** The market's condition id or slug; default the first eligible market (world order). */
  readonly market?: string;
  /** The outcome that becomes the favourite (0: YES, 1: NO); default drawn. */
  readonly favourite?: 0 | 1;
  readonly approachMs?: number;
  readonly startPrice?: number;
  readonly endPrice?: number;
  /** The favourite collapses and loses (default drawn with `breakdownShare`). */
  readonly breakdown?: boolean;
}

/** An episode as the admin route shows it. */
export interface NearEndView {
  readonly conditionId: string;
  readonly slug: string;
  /** The favourite's token and outcome index. */
  readonly favouriteTokenId: string;
  readonly favourite: 0 | 1;
  readonly startPrice: number;
  readonly endPrice: number;
  /** When the drift starts and the end date (the market closes then and resolves after), epoch ms. */
  readonly driftsAt: number;
  readonly endDate: number;
  /** When the favourite collapses (breakdown episodes), epoch ms; null: it does not. */
  readonly collapsesAt: number | null;
  readonly collapseTo: number | null;
  /** The outcome index that wins at resolution. */
  readonly winnerIndex: 0 | 1;
  readonly state: 'planned' | 'drifting' | 'collapsed' | 'closed' | 'resolved';
}

/** A market these episodes may use: a binary market the flow trades (its latent price is what moves). */
export interface NearEndMarket {
  readonly market: SandboxMarket;
  /** The flow's latent YES probability now; undefined before the flow first visits the market. */
  readonly latent: () => number | undefined;
  /** Moves the flow's latent YES probability by `dp`; false when it cannot. */
  readonly nudge: (dp: number) => boolean;
}

interface Episode {
  readonly entry: NearEndMarket;
  readonly favourite: 0 | 1;
  readonly startPrice: number;
  readonly endPrice: number;
  readonly driftsAt: number;
  readonly endDate: number;
  collapsesAt: number | undefined;
  readonly collapseTo: number;
  /** The favourite's price where the collapse began (set when it begins). */
  collapseFrom: number | undefined;
  drifted: boolean;
  resolved: boolean;
}

/** The collapse takes this long, ms: a few steps, so a stop can go out on the way down. */
const COLLAPSE_MS = 8_000;

const DEFAULTS = {
  ratePerHour: 0,
  withinMs: 3_600_000,
  approachMs: [60_000, 180_000] as const,
  startPrice: [0.86, 0.92] as const,
  endPrice: [0.96, 0.97] as const,
  breakdownShare: 0.15,
  collapseTo: [0.15, 0.45] as const,
  stepMs: 1_000,
};

/**
 * Near-end episodes: markets approaching their end date while one outcome drifts toward certainty,
 * then resolving. An episode gives a binary market an end date (through the sandbox's market
 * lifecycle, `MarketResolutions`: the market closes at it, every open order cancelled, and
 * resolves `resolveAfterMs` later, paying the winner's holders), picks a favourite and, from
 * `approachMs` before the end date, moves the flow's latent price so the favourite goes from
 * `startPrice` to `endPrice` linearly (the flow's maker re-centres on it; the seeded depth on the
 * wrong side of the new price steps back). The favourite wins, except in a breakdown
 * episode (`breakdownShare`): at a drawn time in the last part of the approach its price
 * collapses to `collapseTo` within a few seconds, and the other outcome wins.
 *
 * The end dates are planned when the sandbox starts (a run reads a market's end date when it
 * lists its markets): arrivals of a Poisson process at `ratePerHour` within `withinMs`, each on
 * the next eligible market (open, not neg-risk, traded by the flow, not already due to resolve).
 * `begin` starts one at once (the admin route; a run listing markets after it sees its end date).
 * Deterministic: one seeded stream (`near-end`) draws everything, stepped every `stepMs` of the
 * sandbox clock. The price moves through the synthetic flow: with `--no-flow` no episode runs.
 */
export class NearEndEpisodes {
  readonly #engine: SandboxEngine;
  readonly #clock: Clock;
  readonly #markets: readonly NearEndMarket[];
  readonly #resolutions: MarketResolutions;
  readonly #rng: Prng;
  readonly #opts: typeof DEFAULTS;
  readonly #episodes: Episode[] = [];
  readonly #counts = { planned: 0, drifted: 0, collapsed: 0, resolved: 0, skipped: 0 };
  readonly #stepper: EpisodeClock;

  constructor(engine: SandboxEngine, markets: readonly NearEndMarket[], resolutions: MarketResolutions, seed: number, clock: Clock, options: NearEndEpisodeOptions = {}) {
    this.#opts = checkNearEndOptions(options);
    this.#stepper = new EpisodeClock(clock, this.#opts.stepMs, (now) => this.#step(now));
    this.#engine = engine;
    this.#clock = clock;
    this.#markets = markets;
    this.#resolutions = resolutions;
    this.#rng = Prng.from(seed, 'near-end');
  }

  /** Plans the end dates (`ratePerHour` within `withinMs` of now) and starts stepping on the clock. */
  start(): void {
    const { ratePerHour, withinMs, approachMs } = this.#opts;
    const now = this.#clock.now();
    if (ratePerHour > 0 && this.#markets.length > 0) {
      const meanGapMs = 3_600_000 / ratePerHour;
      // the first end date leaves the shortest approach to drift in
      let at = now + approachMs[0];
      for (;;) {
        at += Math.round(-Math.log(1 - this.#rng.float()) * meanGapMs);
        if (at > now + withinMs) break;
        const planned = this.#plan({}, at, now);
        if (typeof planned === 'string') break;
      }
    }
    this.#stepper.start();
  }

  stop(): void {
    this.#stepper.stop();
  }

  stats(): {
    readonly episodes: NearEndView[];
    readonly planned: number;
    readonly drifted: number;
    readonly collapsed: number;
    readonly resolved: number;
    readonly skipped: number;
    readonly ratePerHour: number;
    readonly breakdownShare: number;
  } {
    return { episodes: this.#episodes.map((e) => this.#view(e)), ...this.#counts, ratePerHour: this.#opts.ratePerHour, breakdownShare: this.#opts.breakdownShare };
  }

  /** An episode now: the market's end date `approachMs` from now, the drift starting at once. Returns it, or a sentence saying why none started. */
  begin(request: NearEndRequest = {}): NearEndView | string {
    const now = this.#clock.now();
    const approach = request.approachMs ?? this.#rng.int(this.#opts.approachMs[0], this.#opts.approachMs[1]);
    const planned = this.#plan(request, now + approach, now);
    if (typeof planned === 'string') return planned;
    this.#step(now);
    return this.#view(planned);
  }

  /**
   * The favourite of a market's running episode collapses now (a breakdown on demand; the other
   * outcome wins). Returns the episode, or a sentence saying why not.
   */
  collapse(market: string): NearEndView | string {
    const e = this.#episodes.find((x) => x.entry.market.conditionId === market || x.entry.market.slug === market);
    if (e === undefined) return `no near-end episode in market '${market}'`;
    if (e.entry.market.closed) return `market '${e.entry.market.slug}' is closed already`;
    const now = this.#clock.now();
    if (e.collapsesAt !== undefined && e.collapsesAt <= now) return `the favourite of '${e.entry.market.slug}' collapsed already`;
    e.collapsesAt = Math.max(now, e.driftsAt);
    this.#resolutions.setWinner(e.entry.market.conditionId, e.favourite === 0 ? 1 : 0);
    this.#step(now);
    return this.#view(e);
  }

  /** Gives a market an end date at `endDate` and plans its drift (and its collapse in a breakdown). */
  #plan(request: NearEndRequest, endDate: number, now: number): Episode | string {
    const refused = (why: string): string => {
      this.#counts.skipped++;
      return why;
    };
    if (this.#markets.length === 0) return refused('near-end episodes move prices through the synthetic flow, which is off (or trades no binary market)');
    const free = (e: NearEndMarket): boolean => {
      const m = e.market;
      return !m.closed && m.acceptingOrders && !this.#resolutions.isScheduled(m.conditionId) && this.#engine.market(m.conditionId)?.acceptingOrders === true;
    };
    const entry =
      request.market === undefined
        ? this.#markets.find(free)
        : this.#markets.find((e) => e.market.conditionId === request.market || e.market.slug === request.market);
    if (entry === undefined) return refused(request.market === undefined ? 'no open binary market free for a near-end episode' : `no binary market '${request.market}' the flow trades`);
    if (!free(entry)) return refused(`market '${entry.market.slug}' is closed or already due to resolve`);
    const rng = this.#rng;
    const o = this.#opts;
    const draw = (range: readonly [number, number]): number => range[0] + rng.float() * (range[1] - range[0]);
    // every draw is made whatever the request says, so a request changes no later episode
    const favourite: 0 | 1 = rng.chance(0.5) ? 0 : 1;
    const startPrice = draw(o.startPrice);
    const endPrice = draw(o.endPrice);
    const breakdown = rng.chance(o.breakdownShare);
    const collapseTo = draw(o.collapseTo);
    const collapsePoint = 0.5 + 0.4 * rng.float();
    const approach = rng.int(o.approachMs[0], o.approachMs[1]);
    const driftsAt = Math.max(now, endDate - (request.approachMs ?? approach));
    const broken = request.breakdown ?? breakdown;
    const fav = request.favourite ?? favourite;
    const episode: Episode = {
      entry,
      favourite: fav,
      startPrice: request.startPrice ?? startPrice,
      endPrice: request.endPrice ?? endPrice,
      driftsAt,
      endDate,
      collapsesAt: broken ? Math.round(driftsAt + collapsePoint * (endDate - driftsAt)) : undefined,
      collapseTo,
      collapseFrom: undefined,
      drifted: false,
      resolved: false,
    };
    const winnerIndex: 0 | 1 = broken ? (fav === 0 ? 1 : 0) : fav;
    this.#resolutions.add(entry.market.conditionId, endDate, winnerIndex, now);
    this.#episodes.push(episode);
    this.#counts.planned++;
    return episode;
  }

  #step(now: number): void {
    for (const e of this.#episodes) {
      const m = e.entry.market;
      if (m.closed) {
        if (m.winnerIndex !== undefined && !e.resolved) {
          e.resolved = true;
          this.#counts.resolved++;
        }
        continue;
      }
      if (now < e.driftsAt) continue;
      const target = this.#favouritePrice(e, now);
      const latent = e.entry.latent();
      if (latent === undefined) continue;
      const yes = e.favourite === 0 ? target : 1 - target;
      if (!e.drifted) {
        e.drifted = true;
        this.#counts.drifted++;
      }
      if (!e.entry.nudge(yes - latent)) continue;
      // the seeded depth on the wrong side of the new price steps back (asks under it, bids over it),
      // so the flow's maker can quote there; the maker moves its own ladder at its next visit (one
      // cancelled here would leave the book without that side until then: a gap a stop would sell into)
      const y = Math.round(yes * MICROS_PER_UNIT);
      cancelOwnOrders(this.#engine, m.conditionId, m.tokens[0].tokenId, (isBid, yesPrice, owner) => owner === LIQUIDITY_OWNER && (isBid ? yesPrice > y : yesPrice < y), now);
    }
  }

  /** The favourite's price the episode wants at `now`: the linear drift, or the collapse. */
  #favouritePrice(e: Episode, now: number): number {
    const span = Math.max(1, e.endDate - e.driftsAt);
    const drift = (t: number): number => e.startPrice + (e.endPrice - e.startPrice) * Math.min(1, Math.max(0, (t - e.driftsAt) / span));
    if (e.collapsesAt === undefined || now < e.collapsesAt) return drift(now);
    if (e.collapseFrom === undefined) {
      e.collapseFrom = drift(e.collapsesAt);
      this.#counts.collapsed++;
    }
    const k = Math.min(1, (now - e.collapsesAt) / COLLAPSE_MS);
    return e.collapseFrom + (e.collapseTo - e.collapseFrom) * k;
  }

  #view(e: Episode): NearEndView {
    const m = e.entry.market;
    const broken = e.collapsesAt !== undefined;
    const now = this.#clock.now();
    return {
      conditionId: m.conditionId,
      slug: m.slug,
      favouriteTokenId: m.tokens[e.favourite].tokenId,
      favourite: e.favourite,
      startPrice: round4(e.startPrice),
      endPrice: round4(e.endPrice),
      driftsAt: e.driftsAt,
      endDate: e.endDate,
      collapsesAt: e.collapsesAt ?? null,
      collapseTo: broken ? round4(e.collapseTo) : null,
      winnerIndex: broken ? (e.favourite === 0 ? 1 : 0) : e.favourite,
      state: m.winnerIndex !== undefined ? 'resolved' : m.closed ? 'closed' : e.collapsesAt !== undefined && now >= e.collapsesAt ? 'collapsed' : now >= e.driftsAt ? 'drifting' : 'planned',
    };
  }
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/** Checks the options; a ConfigError names the one that is wrong. */
export function checkNearEndOptions(o: NearEndEpisodeOptions): typeof DEFAULTS {
  const out = { ...DEFAULTS, ...o } as typeof DEFAULTS;
  const bad = (key: string, rule: string, value: unknown): never => {
    throw new ConfigError(`sandbox.nearEnd.${key}: must be ${rule}, was ${JSON.stringify(value)}`);
  };
  if (!(Number.isFinite(out.ratePerHour) && out.ratePerHour >= 0 && out.ratePerHour <= 3600)) bad('ratePerHour', 'a number in [0, 3600]', out.ratePerHour);
  if (!(Number.isSafeInteger(out.withinMs) && out.withinMs >= 1)) bad('withinMs', 'a whole number of ms >= 1', out.withinMs);
  const [a0, a1] = out.approachMs;
  if (!(Number.isSafeInteger(a0) && Number.isSafeInteger(a1) && a0 >= 1_000 && a1 >= a0)) bad('approachMs', 'two whole numbers 1000 <= min <= max', out.approachMs);
  const prices = (key: 'startPrice' | 'endPrice' | 'collapseTo') => {
    const [p0, p1] = out[key];
    if (!(p0 > 0 && p1 >= p0 && p1 < 1)) bad(key, 'two prices 0 < min <= max < 1', out[key]);
  };
  prices('startPrice');
  prices('endPrice');
  prices('collapseTo');
  if (!(out.collapseTo[1] < out.startPrice[0])) bad('collapseTo', `below the lowest startPrice (${out.startPrice[0]})`, out.collapseTo);
  if (!(out.breakdownShare >= 0 && out.breakdownShare <= 1)) bad('breakdownShare', 'a number in [0, 1]', out.breakdownShare);
  if (!(out.stepMs > 0)) bad('stepMs', 'a number > 0', out.stepMs);
  return out;
}
