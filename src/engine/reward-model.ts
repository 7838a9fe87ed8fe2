import { bookInYesTerms, estimateShare, makerScore, quoteInYesTerms, type RewardQuote, type RewardRules } from '../core/rewards.ts';
import type { ConditionId, TokenId } from '../core/types.ts';
import { inferredQuotes, LevelComposition } from '../data/level-composition.ts';
import type { MarketCache, MarketChange, TokenState } from '../data/market-cache.ts';
import type { OrderRecord, OrderTracker } from '../execution/order-tracker.ts';

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
export interface TrackedMarket {
  readonly rules: RewardRules;
  readonly tokens: TokenState[];
}

/** One market's sample as the model takes it at the instant; settled when the venue's figure is in. */
export interface ModelSample {
  readonly conditionId: ConditionId;
  readonly rules: RewardRules;
  /** The model's share (0 without a book, without orders of ours, or without a midpoint). */
  readonly share: number;
  /** Each strategy's own score (Q_min of its orders) for the split. */
  readonly scores: readonly (readonly [string, number])[];
}

/**
 * The model's view of our share of a market's rewards at one instant (src/core/rewards.ts
 * `estimateShare`): the book the run holds, our resting orders, and everyone else's orders
 * inferred level by level from the books (src/data/level-composition.ts), counted as one maker;
 * and each strategy's own score, for the split of the market's reward.
 */
export class RewardModel {
  readonly #cache: MarketCache;
  readonly #tracker: OrderTracker;
  readonly #bookHasOurs: boolean;
  /** The other makers' orders, inferred level by level from the books of reward markets (the model's competition). */
  readonly #composition = new LevelComposition();

  /** `bookHasOurs`: the books show our own orders (live); a simulated run's never do. */
  constructor(cache: MarketCache, tracker: OrderTracker, bookHasOurs: boolean) {
    this.#cache = cache;
    this.#tracker = tracker;
    this.#bookHasOurs = bookHasOurs;
  }

  /** The market cache's changes of one event: a reward market's new book or trade print refines its levels' orders. */
  observe(changes: readonly MarketChange[]): void {
    for (const c of changes) {
      if (c.state.rules.rewards === undefined) continue;
      if (c.kind === 'book' && c.state.book !== undefined) this.#composition.onBook(c.state.book);
      else if (c.kind === 'trade' && c.state.lastTrade !== undefined) this.#composition.onTrade(c.state.token.tokenId, c.state.lastTrade.price);
    }
  }

  /** The tracked markets that pay rewards and take orders, each with its one or two tokens. */
  rewardMarkets(): Map<ConditionId, TrackedMarket> {
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
  sample(conditionId: ConditionId, market: TrackedMarket): ModelSample {
    const source = bookSource(market.tokens);
    const out: ModelSample = { conditionId, rules: market.rules, share: 0, scores: [] };
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
}

/** The token whose book the market is sampled on: the first outcome's, else its complement's. */
function bookSource(tokens: readonly TokenState[]): TokenState | undefined {
  return tokens.find((s) => s.token.outcomeIndex === 0 && s.book !== undefined) ?? tokens.find((s) => s.book !== undefined);
}
