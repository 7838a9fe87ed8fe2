import { AlignedTimer } from '../../core/aligned-timer.ts';
import type { Clock } from '../../core/clock.ts';
import { DAY_MS, makerScore, orderScore, quoteInYesTerms, REWARD_SAMPLE_MS, sampleMarket, sampleReward, shareOf, type RewardQuote, type RewardRules } from '../../core/rewards.ts';
import type { ConditionId } from '../../core/types.ts';
import type { OrderState } from '../../sim/types.ts';
import type { SandboxEngine } from '../trading/sandbox-engine.ts';
import type { SandboxMarket } from '../world/model.ts';
import type { World } from '../world/world.ts';

/** `SandboxOptions.rewards`. */
export interface SandboxRewardOptions {
  /** Default true. */
  readonly enabled?: boolean;
  /** How often every reward market is sampled, ms of sandbox time. Default 60,000 (the venue's minute). */
  readonly sampleMs?: number;
}

/** What one maker earned in one market. */
export interface MarketAccrual {
  readonly conditionId: ConditionId;
  /** USDC accrued (not rounded). */
  reward: number;
  /** Samples in which the maker scored. */
  scoringSamples: number;
  /** The maker's share at its latest scoring sample, 0 to 1. */
  lastShare: number;
}

/** One reward market's latest sample. */
export interface MarketSampleState {
  readonly conditionId: ConditionId;
  samples: number;
  lastMid: number | undefined;
  lastTotal: number;
  lastSampleAt: number | undefined;
  /** Every scoring maker's share at the latest sample (lowercase address → 0 to 1, above 0 only). */
  lastShares: ReadonlyMap<string, number>;
}

/** The rules of a world market's rewards, or undefined when it pays none. */
export function worldRewardRules(m: SandboxMarket): RewardRules | undefined {
  const r = m.rewards;
  if (r === undefined) return undefined;
  return { dailyRate: r.dailyRate, minSize: Math.round(r.minSize * 1_000_000), maxSpreadCents: r.maxSpread };
}

/** A resting order in YES terms, for the scorer. */
function quoteOf(o: OrderState): RewardQuote {
  return quoteInYesTerms(o.outcomeIndex, o.side, o.price, o.openSize);
}

/**
 * The sandbox pays liquidity rewards (docs/rewards.md): every `sampleMs` of sandbox time (at its
 * multiples), each open reward market whose book exists (seeded: touched by a read, an order or
 * the flow; an untouched market holds only the seeded ladder, which nobody reads) is sampled with
 * the one scoring model over the resting orders of EVERY maker, the synthetic flow and the seeded
 * liquidity included, so a client's share is a real share. Each maker (by its order's address)
 * accrues `dailyRate * share * sampleMs / day` per sample, per market.
 */
export class RewardSampler {
  readonly sampleMs: number;
  readonly #world: World;
  readonly #engine: SandboxEngine;
  readonly #byAddress = new Map<string, Map<ConditionId, MarketAccrual>>();
  readonly #markets = new Map<ConditionId, MarketSampleState>();
  readonly #timer: AlignedTimer;
  #samples = 0;
  #lastSampleAt: number | undefined;

  constructor(world: World, engine: SandboxEngine, clock: Clock, options: SandboxRewardOptions = {}) {
    const sampleMs = options.sampleMs ?? REWARD_SAMPLE_MS;
    if (!Number.isInteger(sampleMs) || sampleMs < 10 || sampleMs > DAY_MS) throw new RangeError(`rewards.sampleMs must be an integer from 10 to ${DAY_MS} ms, was ${sampleMs}`);
    this.sampleMs = sampleMs;
    this.#world = world;
    this.#engine = engine;
    this.#timer = new AlignedTimer(clock, sampleMs, (at) => this.sample(at));
  }

  /** Samples at every multiple of `sampleMs` from now on (no-op when running). */
  start(): void {
    this.#timer.start();
  }

  stop(): void {
    this.#timer.stop();
  }

  /**
   * Samples every open, seeded reward market at `now` (the timer calls it; tests may too). An
   * instant already sampled (`catchUp` took it before the timer fired) is not sampled again.
   */
  sample(now: number): void {
    if (this.#lastSampleAt !== undefined && now <= this.#lastSampleAt) return;
    this.#samples++;
    this.#lastSampleAt = now;
    for (const m of this.#world.markets) {
      const rules = worldRewardRules(m);
      if (rules === undefined || !m.acceptingOrders || m.closed || !this.#engine.isSeeded(m.conditionId)) continue;
      this.#sampleMarket(m, rules, now);
    }
  }

  #sampleMarket(m: SandboxMarket, rules: RewardRules, now: number): void {
    const book = this.#engine.book(m.tokens[0].tokenId, now);
    const makers = new Map<string, RewardQuote[]>();
    for (const o of this.#engine.openOrders({ conditionId: m.conditionId })) {
      if (o.status !== 'LIVE' || o.openSize <= 0) continue;
      const key = o.address.toLowerCase();
      const list = makers.get(key);
      if (list === undefined) makers.set(key, [quoteOf(o)]);
      else list.push(quoteOf(o));
    }
    const sample = sampleMarket(rules, book, makers);
    let state = this.#markets.get(m.conditionId);
    if (state === undefined) {
      state = { conditionId: m.conditionId, samples: 0, lastMid: undefined, lastTotal: 0, lastSampleAt: undefined, lastShares: new Map() };
      this.#markets.set(m.conditionId, state);
    }
    state.samples++;
    state.lastMid = sample.mid;
    state.lastTotal = sample.total;
    state.lastSampleAt = now;
    const shares = new Map<string, number>();
    state.lastShares = shares;
    for (const maker of sample.scores.keys()) {
      const share = shareOf(sample, maker);
      if (share > 0) shares.set(maker, share);
      let accounts = this.#byAddress.get(maker);
      if (accounts === undefined) {
        accounts = new Map();
        this.#byAddress.set(maker, accounts);
      }
      let acc = accounts.get(m.conditionId);
      if (acc === undefined) {
        acc = { conditionId: m.conditionId, reward: 0, scoringSamples: 0, lastShare: 0 };
        accounts.set(m.conditionId, acc);
      }
      acc.reward += sampleReward(rules, share, this.sampleMs);
      acc.scoringSamples++;
      acc.lastShare = share;
    }
  }

  /**
   * Takes the timer's due samples now when their instants have come and its callback has not run
   * yet (it is a moment late, or the loop was busy): a reader just after a sampling instant gets
   * that instant's sample (`sharesOf`), and the timer's callback does not take it again. Only
   * instants the timer itself would take (it skips none): a read never adds a sample.
   */
  catchUp(now: number): void {
    this.#timer.runDue(now);
  }

  /**
   * A maker's share of each reward market at the latest sample (`GET /rewards/user/percentages`):
   * 0 to 1, for the markets the latest sample took (a market closed since is not) where the maker
   * scored; a market where it scored nothing is absent.
   */
  sharesOf(maker: string): Map<ConditionId, number> {
    const key = maker.toLowerCase();
    const out = new Map<ConditionId, number>();
    if (this.#lastSampleAt === undefined) return out;
    for (const state of this.#markets.values()) {
      if (state.lastSampleAt !== this.#lastSampleAt) continue;
      const share = state.lastShares.get(key);
      if (share !== undefined) out.set(state.conditionId, share);
    }
    return out;
  }

  /** Samples taken so far, and when the latest was. */
  get samples(): number {
    return this.#samples;
  }

  get lastSampleAt(): number | undefined {
    return this.#lastSampleAt;
  }

  /** An address's accruals, by market (empty when it never scored). */
  accruals(address: string): readonly MarketAccrual[] {
    return [...(this.#byAddress.get(address.toLowerCase())?.values() ?? [])];
  }

  /** Every address that ever scored, in first-scored order. */
  addresses(): string[] {
    return [...this.#byAddress.keys()];
  }

  /** The latest sample of each market sampled so far. */
  marketStates(): readonly MarketSampleState[] {
    return [...this.#markets.values()];
  }

  /**
   * Whether one resting order scores now: the market pays rewards, the order is LIVE, at least
   * `minSize` and inside the band of the current adjusted midpoint, and its maker's Q_min in the
   * market is above zero (one-sided quoting outside [0.10, 0.90] does not score).
   */
  scoring(order: OrderState, now: number): boolean {
    const m = this.#world.marketByConditionId(order.conditionId);
    const rules = m === undefined ? undefined : worldRewardRules(m);
    if (m === undefined || rules === undefined || order.status !== 'LIVE' || !m.acceptingOrders) return false;
    const book = this.#engine.book(m.tokens[0].tokenId, now);
    const mine = this.#engine.openOrders({ conditionId: m.conditionId }).filter((o) => o.status === 'LIVE' && o.address.toLowerCase() === order.address.toLowerCase());
    const sample = sampleMarket(rules, book, new Map([['maker', mine.map(quoteOf)]]));
    if (sample.mid === undefined) return false;
    return orderScore(rules, sample.mid, quoteOf(order)) > 0 && makerScore(rules, sample.mid, mine.map(quoteOf)) > 0;
  }
}
