import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { ceilToTick, floorToTick, MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import { FeeRate } from '../../core/money.ts';
import { buyEntryRequirement } from '../../sim/admission.ts';
import type { SimOrderRequest } from '../../sim/types.ts';
import type { SandboxEngine } from '../trading/sandbox-engine.ts';
import type { SandboxEvent } from '../world/model.ts';
import { Prng } from '../world/prng.ts';
import { EPISODE_ACCOUNT } from './flow-accounts.ts';
import { EpisodeClock, startChance } from './episode-clock.ts';
import { cancelOwnOrders } from './step-back.ts';

/** Knobs of the neg-risk episodes (`SandboxOptions.episodes`, `clobot sandbox --neg-risk-episodes`). */
export interface NegRiskEpisodeOptions {
  /** Episodes per neg-risk event per hour of sandbox time (a Poisson rate); 0 (default): none start by themselves. */
  readonly ratePerHour?: number;
  /** How far from 1 the outcomes' prices sum during an episode, [min, max] (default [0.02, 0.06]). */
  readonly gap?: readonly [number, number];
  /** How long an episode lasts, ms, [min, max] (default [20 s, 90 s]). */
  readonly durationMs?: readonly [number, number];
  /** Shares offered on each outcome (at least the market's minimum size); default 50. */
  readonly sizeShares?: number;
  /**
   * Share of episodes (0 to 1; default 0) in which one outcome's depth on the mispriced side (the
   * episode's quote and the sandbox's own orders behind it) is withdrawn when the first client
   * order reaches any market of the event: a basket sent over the whole set then
   * fills every leg but that one (the partial fills an arbitrage must survive).
   */
  readonly withdrawLegShare?: number;
  /** How often the episodes are stepped, ms; default 1000. */
  readonly stepMs?: number;
}

/** What `POST /admin/episodes` (or a test) asks for: an episode now. */
export interface EpisodeRequest {
  /** The event's id or slug; default the first eligible event not in an episode (world order). */
  readonly event?: string;
  /** `cheap`: the YES asks sum below 1 - gap; `rich`: the YES bids sum above 1 + gap. Default cheap. */
  readonly direction?: 'cheap' | 'rich';
  readonly gap?: number;
  readonly durationMs?: number;
  /** Withdraw one outcome's depth at the first client order (default: drawn with `withdrawLegShare`). */
  readonly withdraw?: boolean;
}

/** An episode as the admin route shows it. */
export interface EpisodeView {
  readonly eventId: string;
  readonly slug: string;
  readonly augmented: boolean;
  readonly direction: 'cheap' | 'rich';
  /** The YES prices of the episode's depth, one per outcome market (decimal text), and their sum. */
  readonly prices: readonly string[];
  readonly sum: string;
  readonly sizeShares: number;
  readonly startedAt: number;
  readonly endsAt: number;
  /** The outcome market (condition id) whose depth is withdrawn at the first client order; undefined: none. */
  readonly fragile: string | undefined;
  readonly withdrawn: boolean;
}

interface Episode {
  readonly event: SandboxEvent;
  readonly direction: 'cheap' | 'rich';
  readonly prices: readonly Micros[];
  readonly size: Micros;
  /** One resting order per outcome market (the mispriced side), by market index in the event. */
  readonly orders: readonly string[];
  /** The other side of each outcome's quote, two ticks behind (so what is bought can be sold back). */
  readonly behind: readonly string[];
  readonly startedAt: number;
  readonly endsAt: number;
  readonly fragile: number | undefined;
  withdrawn: boolean;
}

const DEFAULTS = { ratePerHour: 0, gap: [0.02, 0.06] as const, durationMs: [20_000, 90_000] as const, sizeShares: 50, withdrawLegShare: 0, stepMs: 1_000 };

/**
 * Neg-risk episodes: for a while, the outcomes of one neg-risk event are mispriced as a set. A
 * `cheap` episode offers every outcome's YES at prices summing to 1 - gap (the asks: buying one
 * of each costs less than the 1 the set pays); a `rich` one bids for every YES at prices summing
 * to 1 + gap. The depth is the episode account's post-only orders (BUY NO at 1 - p is a YES ask at
 * p) at each outcome's mid scaled to the set's price, with the other side two ticks behind (a
 * bid under a cheap ask, an ask over a rich bid: the whole quote moved); the sandbox's own depth
 * that would cross it steps back (cancelled), and the episode's quotes are cancelled when it ends, and what traders take of it is gone. Augmented events (an unlisted "Other"
 * outcome) get episodes too: there, a set of listed YES below 1 is no arbitrage. With
 * `withdrawLegShare`, an episode may mark one outcome fragile: its depth on the mispriced side is
 * cancelled as the first client order reaches the event, so a basket over the set fills all legs but that one.
 *
 * Deterministic: each event draws from its own seeded stream (`episodes`, event index), stepped
 * every `stepMs` of the sandbox clock. An episode that cannot be placed (a book whose spread
 * leaves no room, a market not trading) is skipped and counted.
 */
export class NegRiskEpisodes {
  readonly #engine: SandboxEngine;
  readonly #clock: Clock;
  readonly #events: readonly SandboxEvent[];
  readonly #rngs: Prng[];
  readonly #opts: typeof DEFAULTS;
  readonly #active = new Map<SandboxEvent, Episode>();
  readonly #counts = { started: 0, ended: 0, skipped: 0, withdrawn: 0 };
  #seq = 0;
  readonly #stepper: EpisodeClock;
  readonly #unlisten: () => void;

  constructor(engine: SandboxEngine, events: readonly SandboxEvent[], seed: number, clock: Clock, options: NegRiskEpisodeOptions = {}) {
    this.#opts = checkOptions(options);
    this.#stepper = new EpisodeClock(clock, this.#opts.stepMs, (now, dtSec) => this.#step(now, dtSec));
    this.#engine = engine;
    this.#clock = clock;
    this.#events = events.filter((e) => e.negRisk && !e.closed && e.markets.length >= 2);
    this.#rngs = this.#events.map((e) => Prng.from(seed, 'episodes', e.index));
    this.#unlisten = engine.onOutsideOrder((req) => this.#outsideOrder(req));
  }

  /** Starts stepping on the clock (episodes start by themselves only with a rate above 0). */
  start(): void {
    this.#stepper.start();
  }

  stop(): void {
    this.#stepper.stop();
  }

  /** Stops and cancels every episode's depth. */
  close(): void {
    this.stop();
    const now = this.#clock.now();
    for (const episode of [...this.#active.values()]) this.#end(episode, now);
    this.#unlisten();
  }

  stats(): { readonly active: EpisodeView[]; readonly started: number; readonly ended: number; readonly skipped: number; readonly withdrawn: number; readonly ratePerHour: number; readonly withdrawLegShare: number } {
    return { active: [...this.#active.values()].map(view), ...this.#counts, ratePerHour: this.#opts.ratePerHour, withdrawLegShare: this.#opts.withdrawLegShare };
  }

  /** Starts an episode now; returns it, or a sentence saying why none started. */
  begin(request: EpisodeRequest = {}): EpisodeView | string {
    const event =
      request.event === undefined
        ? this.#events.find((e) => !this.#active.has(e))
        : this.#events.find((e) => e.id === request.event || e.slug === request.event);
    if (event === undefined) return request.event === undefined ? 'no neg-risk event free for an episode' : `no open neg-risk event '${request.event}'`;
    if (this.#active.has(event)) return `event '${event.slug}' is in an episode already`;
    const rng = this.#rngs[this.#events.indexOf(event)]!;
    const [gapLo, gapHi] = this.#opts.gap;
    const [durLo, durHi] = this.#opts.durationMs;
    const gap = request.gap ?? gapLo + rng.float() * (gapHi - gapLo);
    const duration = request.durationMs ?? rng.int(durLo, durHi);
    const direction = request.direction ?? 'cheap';
    const withdraw = request.withdraw ?? (this.#opts.withdrawLegShare > 0 && rng.chance(this.#opts.withdrawLegShare));
    const fragile = withdraw ? rng.int(0, event.markets.length - 1) : undefined;
    const placed = this.#place(event, direction, gap, duration, fragile);
    if (typeof placed === 'string') {
      this.#counts.skipped++;
      return placed;
    }
    return view(placed);
  }

  #step(now: number, dtSec: number): void {
    for (const episode of [...this.#active.values()]) if (now >= episode.endsAt) this.#end(episode, now);
    const rate = this.#opts.ratePerHour;
    if (!(rate > 0) || dtSec === 0) return;
    const p = startChance(rate, dtSec);
    this.#events.forEach((event, i) => {
      // every event draws each step, in or out of an episode, so one event's draws never depend on another's
      const starts = this.#rngs[i]!.chance(p);
      if (starts && !this.#active.has(event)) this.begin({ event: event.id, direction: this.#rngs[i]!.chance(0.7) ? 'cheap' : 'rich' });
    });
  }

  /**
   * The episode's prices: each outcome's mid scaled so the set sums to 1 - gap (cheap, rounded
   * down to the tick) or 1 + gap (rich, rounded up), within [tick, 1 - tick]. The sandbox's own
   * depth on the other side that would cross them (seeded liquidity, flow makers) is withdrawn
   * first, as a market maker steps back when the price moves; a client's order that would cross
   * makes the episode's post-only order refused, and the episode is skipped.
   */
  #place(event: SandboxEvent, direction: 'cheap' | 'rich', gap: number, duration: number, fragile: number | undefined): Episode | string {
    const engine = this.#engine;
    const now = this.#clock.now();
    const cheap = direction === 'cheap';
    const mids: Micros[] = [];
    for (const m of event.markets) {
      const cfg = engine.market(m.conditionId);
      if (cfg === undefined || !cfg.acceptingOrders) return `event '${event.slug}': market ${m.slug} is not trading`;
      const q = engine.quote(m.tokens[0].tokenId);
      mids.push(q.bestBid !== undefined && q.bestAsk !== undefined ? Math.round((q.bestBid + q.bestAsk) / 2) : (q.bestBid ?? q.bestAsk ?? m.initialMid));
    }
    let total = 0;
    for (const mid of mids) total += mid;
    const target = (cheap ? 1 - gap : 1 + gap) * MICROS_PER_UNIT;
    const prices = event.markets.map((m, i) => {
      const tick = engine.market(m.conditionId)!.tickSize;
      const scaled = (mids[i]! * target) / total;
      const onGrid = cheap ? floorToTick(Math.floor(scaled), tick) : ceilToTick(Math.ceil(scaled), tick);
      return Math.min(MICROS_PER_UNIT - tick, Math.max(tick, onGrid));
    });
    let sum = 0;
    for (const p of prices) sum += p;
    if (cheap ? sum > target : sum < target) return `event '${event.slug}': the ticks leave no set ${cheap ? 'below' : 'above'} ${target / MICROS_PER_UNIT}`;
    const size = Math.max(this.#opts.sizeShares * MICROS_PER_UNIT, ...event.markets.map((m) => engine.market(m.conditionId)!.minOrderSize));
    const { owner } = EPISODE_ACCOUNT;
    const orders: string[] = [];
    const behind: string[] = [];
    for (let i = 0; i < event.markets.length; i++) {
      const m = event.markets[i]!;
      const price = prices[i]!;
      const tick = engine.market(m.conditionId)!.tickSize;
      this.#clearCrossing(m.conditionId, m.tokens[0].tokenId, cheap, price);
      const id = this.#quote(m, cheap ? 'ask' : 'bid', price, size, now);
      if (typeof id !== 'string') {
        engine.cancelOrders([...orders, ...behind], owner, now);
        return `event '${event.slug}': ${m.slug} refused the episode's order (${id.error})`;
      }
      orders.push(id);
      // the other side follows the price: a bid two ticks under a cheap ask, an ask two ticks over a rich bid
      const other = cheap ? price - 2 * tick : price + 2 * tick;
      if (other >= tick && other <= MICROS_PER_UNIT - tick) {
        const second = this.#quote(m, cheap ? 'bid' : 'ask', other, size, now);
        if (typeof second === 'string') behind.push(second);
      }
    }
    const episode: Episode = { event, direction, prices, size, orders, behind, startedAt: now, endsAt: now + duration, fragile, withdrawn: false };
    this.#active.set(event, episode);
    this.#counts.started++;
    return episode;
  }

  /** One post-only quote of the episode account in YES terms (a YES ask at p is a BUY of NO at 1 - p: collateral only); its id, or the refusal. */
  #quote(m: SandboxEvent['markets'][number], side: 'bid' | 'ask', price: Micros, size: Micros, now: number): string | { error: string } {
    const engine = this.#engine;
    const { owner, address } = EPISODE_ACCOUNT;
    const tokenId = side === 'ask' ? m.tokens[1].tokenId : m.tokens[0].tokenId;
    const limit = side === 'ask' ? MICROS_PER_UNIT - price : price;
    const need = buyEntryRequirement(limit, size, FeeRate.of(engine.market(m.conditionId)!.makerBaseFeeBps));
    const account = engine.ledger.account(address);
    if (account.collateral < need) engine.ledger.deposit(address, need - account.collateral + 1_000 * MICROS_PER_UNIT);
    const id = `${owner}-${++this.#seq}`;
    const r = engine.submit({ id, owner, address, tokenId, side: 'BUY', price: limit, size, type: 'GTC', postOnly: true, createdAt: now }, now);
    return r.status === 'REJECTED' ? { error: r.errorMsg } : id;
  }

  /** Cancels the sandbox's own resting orders that would cross an episode order at YES price `price`. */
  #clearCrossing(conditionId: string, yesToken: string, cheap: boolean, price: Micros): void {
    // never the episodes' own quotes (another episode's, or this one's behind side)
    this.#cancelOwn(conditionId, yesToken, (isBid, yesPrice, owner) => owner !== EPISODE_ACCOUNT.owner && (cheap ? isBid && yesPrice >= price : !isBid && yesPrice <= price));
  }

  /** The sandbox's own resting orders of a market that `pick` chooses, cancelled now (step-back.ts). */
  #cancelOwn(conditionId: string, yesToken: string, pick: (isBid: boolean, yesPrice: Micros, owner: string) => boolean): void {
    cancelOwnOrders(this.#engine, conditionId, yesToken, pick, this.#clock.now());
  }

  #end(episode: Episode, now: number): void {
    this.#active.delete(episode.event);
    this.#engine.cancelOrders([...episode.orders, ...episode.behind], EPISODE_ACCOUNT.owner, now);
    this.#counts.ended++;
  }

  /**
   * A client order reaches the book: a fragile outcome of its event loses its depth on the
   * episode's side first: the episode's quote AND the sandbox's own orders behind it (the seeded
   * asks of a cheap episode, the bids of a rich one). Withdrawing only the episode's quote left
   * the pre-episode depth in reach of a basket priced on a book read before the episode had
   * reached every market, and that leg filled there: no forced partial.
   */
  #outsideOrder(req: SimOrderRequest): void {
    if (this.#active.size === 0) return;
    for (const episode of this.#active.values()) {
      if (episode.fragile === undefined || episode.withdrawn) continue;
      if (!episode.event.markets.some((m) => m.tokens[0].tokenId === req.tokenId || m.tokens[1].tokenId === req.tokenId)) continue;
      episode.withdrawn = true;
      this.#counts.withdrawn++;
      const m = episode.event.markets[episode.fragile]!;
      const cheap = episode.direction === 'cheap';
      // every own order on the mispriced side (the episode's behind quote is on the other side: kept)
      this.#cancelOwn(m.conditionId, m.tokens[0].tokenId, (isBid) => isBid !== cheap);
    }
  }
}

function view(e: Episode): EpisodeView {
  let sum = 0;
  for (const p of e.prices) sum += p;
  return {
    eventId: e.event.id,
    slug: e.event.slug,
    augmented: e.event.negRiskAugmented,
    direction: e.direction,
    prices: e.prices.map((p) => String(p / MICROS_PER_UNIT)),
    sum: String(sum / MICROS_PER_UNIT),
    sizeShares: e.size / MICROS_PER_UNIT,
    startedAt: e.startedAt,
    endsAt: e.endsAt,
    fragile: e.fragile === undefined ? undefined : e.event.markets[e.fragile]!.conditionId,
    withdrawn: e.withdrawn,
  };
}

function checkOptions(o: NegRiskEpisodeOptions): typeof DEFAULTS {
  const out = { ...DEFAULTS, ...o } as typeof DEFAULTS;
  const bad = (key: string, rule: string, value: unknown): never => {
    throw new ConfigError(`sandbox.episodes.${key}: must be ${rule}, was ${JSON.stringify(value)}`);
  };
  if (!(Number.isFinite(out.ratePerHour) && out.ratePerHour >= 0)) bad('ratePerHour', 'a number >= 0', out.ratePerHour);
  const [g0, g1] = out.gap;
  if (!(g0 > 0 && g1 >= g0 && g1 < 0.5)) bad('gap', 'two numbers 0 < min <= max < 0.5', out.gap);
  const [d0, d1] = out.durationMs;
  if (!(Number.isSafeInteger(d0) && Number.isSafeInteger(d1) && d0 > 0 && d1 >= d0)) bad('durationMs', 'two whole numbers 0 < min <= max', out.durationMs);
  if (!(out.sizeShares > 0 && Number.isSafeInteger(out.sizeShares * 100))) bad('sizeShares', 'a positive number of shares in steps of 0.01', out.sizeShares);
  if (!(out.withdrawLegShare >= 0 && out.withdrawLegShare <= 1)) bad('withdrawLegShare', 'a number from 0 to 1', out.withdrawLegShare);
  if (!(out.stepMs > 0)) bad('stepMs', 'a number > 0', out.stepMs);
  return out;
}
