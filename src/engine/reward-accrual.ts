import { AlignedTimer } from '../core/aligned-timer.ts';
import type { Clock } from '../core/clock.ts';
import { bookInYesTerms, estimateShare, makerScore, quoteInYesTerms, REWARD_SAMPLE_MS, sampleReward, type RewardBook, type RewardQuote, type RewardRules } from '../core/rewards.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import type { MarketCache, TokenState } from '../data/market-cache.ts';
import type { OrderRecord, OrderTracker } from '../execution/order-tracker.ts';
import type { RewardsSnapshot } from '../strategy/api.ts';

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
  readonly byMarket: Readonly<Record<string, { readonly reward: string; readonly dailyRate: number; readonly scoringSamples: number; readonly meanShare: number }>>;
  readonly byStrategy: Readonly<Record<string, string>>;
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
      meanShare: m.samples > 0 ? Number((m.shareSum / m.samples).toFixed(6)) : 0,
    };
    for (const [id, r] of Object.entries(m.byStrategy)) byStrategy.set(id, (byStrategy.get(id) ?? 0) + r);
  }
  const strategies: Record<string, string> = {};
  for (const [id, r] of [...byStrategy].sort((a, b) => (a[0] < b[0] ? -1 : 1))) strategies[id] = usdcText(r);
  return { sampleMs: note.sampleMs, samples: note.samples, total: usdcText(total), byMarket, byStrategy: strategies };
}

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
 * run holds and our resting orders, everyone else's displayed depth counted as one maker. The
 * market's reward for the sample is split between our strategies by their own scores.
 */
export class RewardAccrual {
  readonly sampleMs: number;
  readonly #clock: Clock;
  readonly #cache: MarketCache;
  readonly #tracker: OrderTracker;
  readonly #bookHasOurs: boolean;
  readonly #markets = new Map<ConditionId, MarketAccrual>();
  #samples = 0;
  readonly #timer: AlignedTimer;
  /** Told after each sample (the metrics sink's gauge, the store's note). */
  onSample: ((total: number) => void) | undefined;

  constructor(options: { clock: Clock; cache: MarketCache; tracker: OrderTracker; settings: RewardAccrualSettings | undefined }) {
    this.#clock = options.clock;
    this.#cache = options.cache;
    this.#tracker = options.tracker;
    this.sampleMs = options.settings?.sampleMs ?? REWARD_SAMPLE_MS;
    this.#bookHasOurs = options.settings?.bookHasOurs ?? true;
    this.#timer = new AlignedTimer(options.clock, this.sampleMs, () => this.sample());
  }

  start(): void {
    this.#timer.start();
  }

  stop(): void {
    this.#timer.stop();
  }

  /** Samples every tracked reward market now. */
  sample(): void {
    this.#samples++;
    for (const [conditionId, market] of this.#rewardMarkets()) {
      this.#accrual(conditionId).dailyRate = market.rules.dailyRate;
      this.#sampleMarket(conditionId, market);
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

  #sampleMarket(conditionId: ConditionId, market: TrackedMarket): void {
    const book = yesBook(market.tokens);
    const acc = this.#accrual(conditionId);
    acc.samples++;
    if (book === undefined) return;
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
    if (ours.length === 0) {
      acc.lastShare = 0;
      return;
    }
    const est = estimateShare(market.rules, book, ours, this.#bookHasOurs);
    acc.lastShare = est.share;
    if (est.share <= 0 || est.mid === undefined) return;
    const reward = sampleReward(market.rules, est.share, this.sampleMs);
    acc.reward += reward;
    acc.scoringSamples++;
    acc.shareSum += est.share;
    // the sample's reward split between our strategies by their own scores
    const mid = est.mid;
    const scores = [...byStrategy].map(([id, quotes]) => [id, makerScore(market.rules, mid, quotes)] as const);
    let sum = 0;
    for (const [, q] of scores) sum += q;
    for (const [id, q] of scores) if (q > 0 && sum > 0) acc.byStrategy.set(id, (acc.byStrategy.get(id) ?? 0) + (reward * q) / sum);
  }

  #accrual(conditionId: ConditionId): MarketAccrual {
    let acc = this.#markets.get(conditionId);
    if (acc === undefined) {
      acc = { conditionId, dailyRate: 0, reward: 0, samples: 0, scoringSamples: 0, shareSum: 0, lastShare: 0, byStrategy: new Map() };
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
      markets.push({ conditionId: acc.conditionId, reward, samples: acc.samples, scoringSamples: acc.scoringSamples, lastShare: acc.lastShare });
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
      for (const [id, r] of Object.entries(m.byStrategy)) acc.byStrategy.set(id, r);
    }
  }
}

/** The market's book in YES terms from whichever of its tokens has one (the first outcome's first). */
function yesBook(tokens: readonly TokenState[]): RewardBook | undefined {
  const yes = tokens.find((s) => s.token.outcomeIndex === 0 && s.book !== undefined);
  if (yes?.book !== undefined) return yes.book;
  const no = tokens.find((s) => s.book !== undefined);
  return no?.book === undefined ? undefined : bookInYesTerms(no.token.outcomeIndex, no.book);
}
