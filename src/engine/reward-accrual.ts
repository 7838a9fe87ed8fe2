import { AlignedTimer } from '../core/aligned-timer.ts';
import type { Clock } from '../core/clock.ts';
import { REWARD_SAMPLE_MS, sampleReward } from '../core/rewards.ts';
import type { ConditionId } from '../core/types.ts';
import type { MarketCache, MarketChange } from '../data/market-cache.ts';
import type { OrderTracker } from '../execution/order-tracker.ts';
import type { RewardsSnapshot, StrategyLogger } from '../strategy/api.ts';
import { RewardModel, type ModelSample } from './reward-model.ts';
import { rewardsSummaryOf, type RewardsNote, type RewardsSummary } from './rewards-note.ts';
import { VenueShareReader, type ShareSource, type VenueShareSource } from './venue-share-reader.ts';

export type { ShareSource, VenueShareSource } from './venue-share-reader.ts';
// the note and summary forms live in rewards-note.ts; named here too for the store and control readers
export { parseRewardsNote, rewardsSummaryOf, usdcText, type MarketRewardsSummary, type RewardsNote, type RewardsSummary } from './rewards-note.ts';

/** `EngineOptions.rewards`: how the engine estimates our liquidity rewards (docs/rewards.md). */
export interface RewardAccrualSettings {
  /** Sampled at every multiple of this on the run's clock, ms. Default 60,000 (the venue's minute). */
  readonly sampleMs?: number;
  /**
   * The books show our own orders (live: the venue's book holds them). A simulated run's books
   * (paper, backtest) never do: our orders are added to them for the midpoint and left out of
   * the competition.
   */
  readonly bookHasOurs: boolean;
  /**
   * Live: each sample's share is the venue's figure read at the sample instant (one read for all
   * markets), the model's only when the venue does not answer in time (docs/rewards.md "Our
   * accrual"). Undefined: the model's always (paper, backtest, `execution.rewardVenueShare: false`).
   */
  readonly venueShares?: VenueShareSource;
}

/** Our accrual in one market. */
interface MarketAccrual {
  readonly conditionId: ConditionId;
  dailyRate: number;
  reward: number;
  samples: number;
  scoringSamples: number;
  shareSum: number;
  lastShare: number;
  /** Samples whose share was the venue's figure (the rest the model's). */
  venueSamples: number;
  /** The model's share summed over every sample, and at the latest: beside the venue's, how far it is. */
  modelShareSum: number;
  lastModelShare: number;
  /** Where the latest sample's share came from. */
  shareSource: ShareSource;
  readonly byStrategy: Map<string, number>;
}

/**
 * The engine's estimate of our liquidity rewards, the same in every mode: at every multiple of
 * `sampleMs` on the run's clock (virtual time in a backtest), each tracked market that pays
 * rewards is sampled with the one model (reward-model.ts; live, the venue's figure where it
 * answers), and the market's reward for the sample is split between our strategies by their own
 * scores. What the store keeps of it and the summary's form are rewards-note.ts.
 */
export class RewardAccrual {
  readonly sampleMs: number;
  readonly #clock: Clock;
  readonly #tracker: OrderTracker;
  /** Our share of each market at a sample instant, by the model. */
  readonly #model: RewardModel;
  readonly #markets = new Map<ConditionId, MarketAccrual>();
  #samples = 0;
  readonly #timer: AlignedTimer;
  /** Live: the venue's figure of our share. */
  readonly #venue: VenueShareReader | undefined;
  /** Samples waiting for the venue's figure settle in order, one after the other. */
  #pending: Promise<void> = Promise.resolve();
  readonly #log: Pick<StrategyLogger, 'warn'> | undefined;
  /** Told after each sample (the metrics sink's gauge, the store's note). */
  onSample: ((total: number) => void) | undefined;

  constructor(options: { clock: Clock; cache: MarketCache; tracker: OrderTracker; settings: RewardAccrualSettings | undefined; log?: Pick<StrategyLogger, 'warn'> }) {
    this.#clock = options.clock;
    this.#tracker = options.tracker;
    this.sampleMs = options.settings?.sampleMs ?? REWARD_SAMPLE_MS;
    this.#model = new RewardModel(options.cache, options.tracker, options.settings?.bookHasOurs ?? true);
    const source = options.settings?.venueShares;
    this.#log = options.log;
    this.#venue = source === undefined ? undefined : new VenueShareReader(source, options.clock, this.sampleMs, options.log);
    this.#timer = new AlignedTimer(options.clock, this.sampleMs, (at) => this.sample(at));
  }

  start(): void {
    this.#timer.start();
  }

  stop(): void {
    this.#timer.stop();
  }

  /** The market cache's changes of one event: a reward market's new book or trade print refines its levels' orders. */
  observe(changes: readonly MarketChange[]): void {
    this.#model.observe(changes);
  }

  /** Samples finished so far, in order: a stop awaits the one still waiting for the venue's figure. */
  settled(): Promise<void> {
    return this.#pending;
  }

  /**
   * Samples every tracked reward market at `at` (the timer's instant; now by default): the
   * model's share at once, from the books and our orders as they stand; with a venue source,
   * the sample settles on the venue's figure read just after (docs/rewards.md "Our accrual").
   */
  sample(at: number = this.#clock.now()): void {
    this.#samples++;
    const taken: ModelSample[] = [];
    for (const [conditionId, market] of this.#model.rewardMarkets()) {
      this.#accrual(conditionId).dailyRate = market.rules.dailyRate;
      taken.push(this.#model.sample(conditionId, market));
    }
    const reader = this.#venue;
    if (reader === undefined) {
      this.#settle(taken, undefined);
      return;
    }
    const venue = taken.length === 0 || !reader.asking ? Promise.resolve(undefined) : reader.read(at);
    // a throw while booking (the store's note after the run was torn down) never rejects the chain
    this.#pending = this.#pending
      .then(() => venue)
      .then((shares) => this.#settle(taken, shares))
      .catch((err: unknown) => this.#log?.warn('reward sample: booking failed', { error: err instanceof Error ? err.message : String(err) }));
  }

  /** Books each market's sample with the venue's share where it answered (absent: 0), else the model's. */
  #settle(taken: readonly ModelSample[], venue: ReadonlyMap<string, number> | undefined): void {
    for (const m of taken) {
      const acc = this.#accrual(m.conditionId);
      acc.samples++;
      acc.modelShareSum += m.share;
      acc.lastModelShare = m.share;
      const share = venue === undefined ? m.share : (venue.get(acc.conditionId.toLowerCase()) ?? 0);
      acc.shareSource = venue === undefined ? 'model' : 'venue';
      if (venue !== undefined) acc.venueSamples++;
      acc.lastShare = share;
      if (share <= 0) continue;
      const reward = sampleReward(m.rules, share, this.sampleMs);
      acc.reward += reward;
      acc.scoringSamples++;
      acc.shareSum += share;
      // the sample's reward split between our strategies by their own scores (evenly between those
      // with orders in the market when the model scores none of ours but the venue pays)
      let sum = 0;
      for (const [, q] of m.scores) sum += q;
      const split = sum > 0 ? m.scores : strategiesIn(this.#tracker, acc.conditionId).map((id) => [id, 1] as const);
      if (sum <= 0) sum = split.length;
      for (const [id, q] of split) if (q > 0) acc.byStrategy.set(id, (acc.byStrategy.get(id) ?? 0) + (reward * q) / sum);
    }
    this.onSample?.(this.total());
  }

  #accrual(conditionId: ConditionId): MarketAccrual {
    let acc = this.#markets.get(conditionId);
    if (acc === undefined) {
      acc = { conditionId, dailyRate: 0, reward: 0, samples: 0, scoringSamples: 0, shareSum: 0, lastShare: 0, venueSamples: 0, modelShareSum: 0, lastModelShare: 0, shareSource: 'model', byStrategy: new Map() };
      this.#markets.set(conditionId, acc);
    }
    return acc;
  }

  /** The run's estimated accrual so far, USDC. */
  total(): number {
    let t = 0;
    for (const acc of this.#markets.values()) t += acc.reward;
    return t;
  }

  /** One strategy's running estimate (its `ctx.rewards()`), or the run's without an id. */
  snapshot(strategyId?: string): RewardsSnapshot {
    let total = 0;
    const markets: RewardsSnapshot['markets'][number][] = [];
    for (const acc of this.#markets.values()) {
      const reward = strategyId === undefined ? acc.reward : (acc.byStrategy.get(strategyId) ?? 0);
      total += reward;
      markets.push({
        conditionId: acc.conditionId,
        reward,
        samples: acc.samples,
        scoringSamples: acc.scoringSamples,
        lastShare: acc.lastShare,
        shareSource: acc.shareSource,
        venueSamples: acc.venueSamples,
        lastModelShare: acc.lastModelShare,
      });
    }
    return { sampleMs: this.sampleMs, samples: this.#samples, total, markets };
  }

  /** The summary's `rewards`; undefined when the run tracks no market that pays rewards. */
  summary(): RewardsSummary | undefined {
    if (this.#markets.size === 0 && this.#model.rewardMarkets().size === 0) return undefined;
    return rewardsSummaryOf(this.note(this.#clock.now()));
  }

  /** What the store keeps (markets in first-sampled order). */
  note(at: number): RewardsNote {
    return {
      at,
      sampleMs: this.sampleMs,
      samples: this.#samples,
      markets: [...this.#markets.values()].map((m) => ({
        conditionId: m.conditionId,
        dailyRate: m.dailyRate,
        reward: m.reward,
        samples: m.samples,
        scoringSamples: m.scoringSamples,
        shareSum: m.shareSum,
        venueSamples: m.venueSamples,
        modelShareSum: m.modelShareSum,
        shareSource: m.shareSource,
        byStrategy: Object.fromEntries(m.byStrategy),
      })),
    };
  }

  /** A restarted run goes on from its previous lives' accrual (the store's note). */
  restore(note: RewardsNote): void {
    this.#samples = note.samples;
    for (const m of note.markets) {
      const acc = this.#accrual(m.conditionId);
      acc.dailyRate = m.dailyRate;
      acc.reward = m.reward;
      acc.samples = m.samples;
      acc.scoringSamples = m.scoringSamples;
      acc.shareSum = m.shareSum;
      acc.venueSamples = m.venueSamples ?? 0;
      acc.modelShareSum = m.modelShareSum ?? m.shareSum;
      acc.shareSource = m.shareSource ?? 'model';
      for (const [id, r] of Object.entries(m.byStrategy)) acc.byStrategy.set(id, r);
    }
  }
}

/** The strategies with an open order in the market, in first-seen order. */
function strategiesIn(tracker: OrderTracker, conditionId: ConditionId): string[] {
  const ids = new Set<string>();
  for (const record of tracker.open({ conditionId })) ids.add(record.request.strategyId);
  return [...ids];
}
