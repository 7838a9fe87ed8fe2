import { AlignedTimer } from '../core/aligned-timer.ts';
import type { Clock } from '../core/clock.ts';
import { bookInYesTerms, estimateShare, makerScore, quoteInYesTerms, REWARD_SAMPLE_MS, sampleReward, type RewardQuote, type RewardRules } from '../core/rewards.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import { inferredQuotes, LevelComposition } from '../data/level-composition.ts';
import type { MarketCache, MarketChange, TokenState } from '../data/market-cache.ts';
import type { OrderRecord, OrderTracker } from '../execution/order-tracker.ts';
import type { RewardsSnapshot, StrategyLogger } from '../strategy/api.ts';
import { VenueShareReader, type ShareSource, type VenueShareSource } from './venue-share-reader.ts';

export type { ShareSource, VenueShareSource } from './venue-share-reader.ts';

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
 * A resting order of ours: it has a venue id and is LIVE, partly filled, or being cancelled (it
 * rests, and scores at the venue, until the cancel is answered: a replace's old order too, unless
 * the venue already said it cancelled it); or its post is unanswered but the venue said it placed
 * it (the user channel's PLACEMENT and CANCELLATION: the venue's word before the HTTP answer).
 */
const RESTING = new Set(['LIVE', 'PARTIALLY_FILLED', 'CANCEL_PENDING']);
export const restsAtVenue = (record: OrderRecord): boolean =>
  record.status === 'PENDING_SUBMIT' ? record.venuePlacedAt !== undefined : RESTING.has(record.status) && record.venueCancelledAt === undefined;

/** The one or two tokens of a market the run tracks, and its rules. */
interface TrackedMarket {
  readonly rules: RewardRules;
  readonly tokens: TokenState[];
}

/** What `summary()` gives: the run's rewards apart from its trading PnL (USDC, 6 decimals as text). */
export interface RewardsSummary {
  readonly sampleMs: number;
  readonly samples: number;
  /** Our estimated accrual over the run, USDC. */
  readonly total: string;
  readonly byMarket: Readonly<Record<string, MarketRewardsSummary>>;
  readonly byStrategy: Readonly<Record<string, string>>;
}

/** One market's line of the summary. */
export interface MarketRewardsSummary {
  readonly reward: string;
  readonly dailyRate: number;
  readonly scoringSamples: number;
  /** The mean share over the market's samples (the figure each sample paid on). */
  readonly meanShare: number;
  /** Where the latest sample's share came from, and how many samples took the venue's figure. */
  readonly shareSource: ShareSource;
  readonly venueSamples: number;
  /** The model's mean share over the same samples: equal to meanShare when every sample was the model's. */
  readonly meanModelShare: number;
}

/**
 * What the store keeps of our accrual (a cursor, rewritten at each sample): `clobot status` reads
 * it, and a restarted run goes on from it. Rewards are USDC, unrounded.
 */
export interface RewardsNote {
  readonly at: number;
  readonly sampleMs: number;
  readonly samples: number;
  readonly markets: readonly {
    readonly conditionId: string;
    readonly dailyRate: number;
    readonly reward: number;
    readonly samples: number;
    readonly scoringSamples: number;
    readonly shareSum: number;
    /** Additive (absent in notes written before them: every sample then was the model's). */
    readonly venueSamples?: number;
    readonly modelShareSum?: number;
    readonly shareSource?: ShareSource;
    readonly byStrategy: Readonly<Record<string, number>>;
  }[];
}

/** The summary's form of a note: markets and strategies with rewards as 6-decimal text, strategies sorted. */
export function rewardsSummaryOf(note: RewardsNote): RewardsSummary {
  const byMarket: Record<string, RewardsSummary['byMarket'][string]> = {};
  const byStrategy = new Map<string, number>();
  let total = 0;
  for (const m of note.markets) {
    total += m.reward;
    byMarket[m.conditionId] = {
      reward: usdcText(m.reward),
      dailyRate: m.dailyRate,
      scoringSamples: m.scoringSamples,
      meanShare: meanOf(m.shareSum, m.samples),
      shareSource: m.shareSource ?? 'model',
      venueSamples: m.venueSamples ?? 0,
      meanModelShare: meanOf(m.modelShareSum ?? m.shareSum, m.samples),
    };
    for (const [id, r] of Object.entries(m.byStrategy)) byStrategy.set(id, (byStrategy.get(id) ?? 0) + r);
  }
  const strategies: Record<string, string> = {};
  for (const [id, r] of [...byStrategy].sort((a, b) => (a[0] < b[0] ? -1 : 1))) strategies[id] = usdcText(r);
  return { sampleMs: note.sampleMs, samples: note.samples, total: usdcText(total), byMarket, byStrategy: strategies };
}

const meanOf = (sum: number, n: number): number => (n > 0 ? Number((sum / n).toFixed(6)) : 0);

/** A note read back from a store, checked; undefined when absent or not a note. */
export function parseRewardsNote(text: string | undefined): RewardsNote | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as RewardsNote;
    return typeof v === 'object' && v !== null && Array.isArray(v.markets) && typeof v.sampleMs === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** USDC as text with 6 decimals (a micro-USDC), the one rounding of reward figures. */
export function usdcText(value: number): string {
  return value.toFixed(6);
}

/**
 * The engine's estimate of our liquidity rewards, the same in every mode: at every multiple of
 * `sampleMs` on the run's clock (virtual time in a backtest), each tracked market that pays
 * rewards is sampled with the one model (src/core/rewards.ts `estimateShare`) from the book the
 * run holds, our resting orders, and everyone else's orders inferred level by level from the books
 * (src/data/level-composition.ts), counted as one maker. The
 * market's reward for the sample is split between our strategies by their own scores.
 */
export class RewardAccrual {
  readonly sampleMs: number;
  readonly #clock: Clock;
  readonly #cache: MarketCache;
  readonly #tracker: OrderTracker;
  readonly #bookHasOurs: boolean;
  readonly #markets = new Map<ConditionId, MarketAccrual>();
  /** The other makers' orders, inferred level by level from the books of reward markets (the model's competition). */
  readonly #composition = new LevelComposition();
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
    this.#cache = options.cache;
    this.#tracker = options.tracker;
    this.sampleMs = options.settings?.sampleMs ?? REWARD_SAMPLE_MS;
    this.#bookHasOurs = options.settings?.bookHasOurs ?? true;
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
    for (const c of changes) {
      if (c.state.rules.rewards === undefined) continue;
      if (c.kind === 'book' && c.state.book !== undefined) this.#composition.onBook(c.state.book);
      else if (c.kind === 'trade' && c.state.lastTrade !== undefined) this.#composition.onTrade(c.state.token.tokenId, c.state.lastTrade.price);
    }
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
    for (const [conditionId, market] of this.#rewardMarkets()) {
      this.#accrual(conditionId).dailyRate = market.rules.dailyRate;
      taken.push(this.#sampleMarket(conditionId, market));
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
      const acc = m.acc;
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

  #rewardMarkets(): Map<ConditionId, TrackedMarket> {
    const out = new Map<ConditionId, TrackedMarket>();
    for (const state of this.#cache.states()) {
      const rules = state.rules.rewards;
      if (rules === undefined || !state.rules.acceptingOrders) continue;
      const m = out.get(state.token.conditionId);
      if (m === undefined) out.set(state.token.conditionId, { rules, tokens: [state] });
      else m.tokens.push(state);
    }
    return out;
  }

  /** The model's share of one market now, and our strategies' scores for the split. */
  #sampleMarket(conditionId: ConditionId, market: TrackedMarket): ModelSample {
    const source = bookSource(market.tokens);
    const acc = this.#accrual(conditionId);
    const out: ModelSample = { acc, rules: market.rules, share: 0, scores: [] };
    if (source?.book === undefined) return out;
    const book = bookInYesTerms(source.token.outcomeIndex, source.book);
    const byStrategy = new Map<string, RewardQuote[]>();
    const ours: RewardQuote[] = [];
    const outcome = new Map<TokenId, 0 | 1>(market.tokens.map((s) => [s.token.tokenId, s.token.outcomeIndex]));
    for (const s of market.tokens) if (s.token.complementTokenId !== undefined && !outcome.has(s.token.complementTokenId)) outcome.set(s.token.complementTokenId, s.token.outcomeIndex === 0 ? 1 : 0);
    for (const record of this.#tracker.open({ conditionId })) {
      if (!restsAtVenue(record) || record.orderId === undefined) continue;
      const index = outcome.get(record.request.tokenId);
      const size = this.#tracker.remaining(record);
      if (index === undefined || size <= 0) continue;
      const q = quoteInYesTerms(index, record.request.side, record.request.price, size);
      ours.push(q);
      const list = byStrategy.get(record.request.strategyId);
      if (list === undefined) byStrategy.set(record.request.strategyId, [q]);
      else list.push(q);
    }
    if (ours.length === 0) return out;
    const competition = inferredQuotes(this.#composition, source.book, source.token.outcomeIndex);
    const est = estimateShare(market.rules, book, ours, this.#bookHasOurs, competition);
    if (est.mid === undefined) return out;
    const mid = est.mid;
    return { ...out, share: Math.max(0, est.share), scores: [...byStrategy].map(([id, quotes]) => [id, makerScore(market.rules, mid, quotes)] as const) };
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
    if (this.#markets.size === 0 && this.#rewardMarkets().size === 0) return undefined;
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

/** One market's sample as the model takes it at the instant; settled when the venue's figure is in. */
interface ModelSample {
  readonly acc: MarketAccrual;
  readonly rules: RewardRules;
  /** The model's share (0 without a book, without orders of ours, or without a midpoint). */
  readonly share: number;
  /** Each strategy's own score (Q_min of its orders) for the split. */
  readonly scores: readonly (readonly [string, number])[];
}

/** The strategies with an open order in the market, in first-seen order. */
function strategiesIn(tracker: OrderTracker, conditionId: ConditionId): string[] {
  const ids = new Set<string>();
  for (const record of tracker.open({ conditionId })) ids.add(record.request.strategyId);
  return [...ids];
}

/** The token whose book the market is sampled on: the first outcome's, else its complement's. */
function bookSource(tokens: readonly TokenState[]): TokenState | undefined {
  return tokens.find((s) => s.token.outcomeIndex === 0 && s.book !== undefined) ?? tokens.find((s) => s.book !== undefined);
}
