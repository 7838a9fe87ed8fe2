import { ConfigError } from '../../core/errors.ts';
import { MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import { BINARY_TICKS, clampToGrid, FEES, MIN_SIZES, pickTags, planBinary, REWARDED_MARKET_SHARE, SOURCE_HOST, TOPICS, ASSET_HOST } from './generate-catalog.ts';
import { DAY_MS, hex32, slugify, tokenId } from './ids.ts';
import type { SandboxEvent, SandboxMarket, SandboxTag, SandboxToken } from './model.ts';
import { Prng } from './prng.ts';
import type { World } from './world.ts';

/** `SandboxOptions.newMarkets`: markets the venue lists while the sandbox runs. */
export interface NewMarketOptions {
  /** A new market every this many ms of the sandbox clock; 0 (the default): only by the admin route. */
  readonly everyMs?: number;
  /** At most this many markets created by the timer. Default 100. */
  readonly max?: number;
}

export const DEFAULT_NEW_MARKETS_MAX = 100;

/** What the admin route may fix of a new market; the rest is drawn from the seed. */
export interface NewMarketSpec {
  readonly question?: string;
  /** Tag slugs or labels the world knows; default: drawn from the market's topic. */
  readonly tags?: readonly string[];
}

/** Checks the options; throws a ConfigError naming the key. */
export function checkNewMarketOptions(o: NewMarketOptions): void {
  if (o.everyMs !== undefined && (!Number.isInteger(o.everyMs) || o.everyMs < 0 || o.everyMs > 86_400_000)) {
    throw new ConfigError(`sandbox.newMarkets.everyMs: must be an integer in 0..86400000, was ${o.everyMs}`);
  }
  if (o.max !== undefined && (!Number.isInteger(o.max) || o.max < 0 || o.max > 100_000)) {
    throw new ConfigError(`sandbox.newMarkets.max: must be an integer in 0..100000, was ${o.max}`);
  }
}

/**
 * Markets created while the sandbox runs, as a venue lists new markets: each one a binary market
 * in an event of its own, open and accepting orders, with seeded liquidity on its book, appended
 * to the market list (`GET /markets` shows it on its last page) and listed by the matching engine
 * (orders, books, the WS channel). The n-th created market is drawn from the seed and n alone,
 * so a seed gives the same new markets in the same order; its dates follow the clock.
 */
export class MarketCreation {
  readonly #world: World;
  readonly #engine: MatchingEngine;
  #created = 0;

  constructor(world: World, engine: MatchingEngine) {
    this.#world = world;
    this.#engine = engine;
  }

  /** Markets created so far. */
  get created(): number {
    return this.#created;
  }

  /** Creates, lists and returns the next market. */
  create(now: number, spec: NewMarketSpec = {}): SandboxMarket {
    const world = this.#world;
    const n = this.#created;
    const rng = Prng.from(world.seed, 'new-market', n);
    const topic = rng.pick(TOPICS);
    const endDate = now + rng.int(30, 365) * DAY_MS;
    const plan = planBinary(rng, topic, endDate);
    const question = spec.question ?? plan.markets[0]!.question;
    const tags = spec.tags === undefined ? pickTags(rng, topic, new Map(world.tags.map((t) => [t.label, t]))) : spec.tags.map((t) => tagOf(world, t));
    const index = world.markets.length;
    const eventIndex = world.events.length;
    const eventId = String(20_000 + eventIndex);
    const numericId = 500_000 + index;
    const slug = uniqueIn((s) => world.marketBySlug(s) !== undefined || world.eventBySlug(s) !== undefined, slugify(question), String(numericId));
    const event: SandboxEvent = {
      index: eventIndex,
      id: eventId,
      ticker: slug,
      slug,
      title: question,
      description: plan.description,
      resolutionSource: `${SOURCE_HOST}/${topic}`,
      image: `${ASSET_HOST}/events/${slug}.png`,
      icon: `${ASSET_HOST}/events/${slug}-icon.png`,
      topic,
      startDate: now,
      creationDate: now,
      endDate,
      createdAt: now,
      updatedAt: now,
      active: true,
      closed: false,
      archived: false,
      negRisk: false,
      negRiskMarketId: '',
      negRiskAugmented: false,
      tags,
      series: undefined,
      creator: rng.pick(world.creators),
      markets: [],
    };
    const tick: Micros = rng.weighted(BINARY_TICKS);
    const mid = clampToGrid(rng.int(Math.max(30_000, 3 * tick), Math.min(970_000, MICROS_PER_UNIT - 3 * tick)), tick);
    const [makerBaseFee, takerBaseFee] = rng.weighted(FEES);
    const tokens: SandboxToken[] = [];
    const outcomes = plan.markets[0]!.outcomes;
    const market: SandboxMarket = {
      index,
      id: String(numericId),
      numericId,
      conditionId: hex32(rng),
      questionId: hex32(rng),
      slug,
      question,
      description: plan.description,
      resolutionSource: event.resolutionSource,
      image: `${ASSET_HOST}/markets/${slug}.png`,
      icon: `${ASSET_HOST}/markets/${slug}-icon.png`,
      event,
      tokens: tokens as unknown as readonly [SandboxToken, SandboxToken],
      outcomes,
      tickSize: tick,
      minOrderSize: rng.weighted(MIN_SIZES) * MICROS_PER_UNIT,
      makerBaseFee,
      takerBaseFee,
      negRisk: false,
      negRiskMarketId: '',
      negRiskRequestId: '',
      secondsDelay: 0,
      startDate: now,
      endDate,
      createdAt: now,
      updatedAt: now,
      active: true,
      closed: false,
      archived: false,
      acceptingOrders: true,
      enableOrderBook: true,
      winnerIndex: undefined,
      rewards: rng.chance(REWARDED_MARKET_SHARE) ? { dailyRate: rng.pick([5, 10, 25]), minSize: rng.pick([20, 50, 100]), maxSpread: rng.pick([1.5, 3, 3.5]) } : undefined,
      initialMid: mid,
    };
    const yes: SandboxToken = { tokenId: tokenId(rng), outcome: outcomes[0], outcomeIndex: 0, market, complement: () => no };
    const no: SandboxToken = { tokenId: tokenId(rng), outcome: outcomes[1], outcomeIndex: 1, market, complement: () => yes };
    tokens.push(yes, no);
    event.markets.push(market);
    world.listMarket(market);
    this.#engine.addMarket({
      conditionId: market.conditionId,
      tokenIds: [yes.tokenId, no.tokenId],
      tickSize: market.tickSize,
      minOrderSize: market.minOrderSize,
      negRisk: false,
      makerBaseFeeBps: makerBaseFee,
      takerBaseFeeBps: takerBaseFee,
      acceptingOrders: true,
    });
    this.#created++;
    return market;
  }
}

/** A world tag by slug or label (case-insensitive); a ConfigError names one it does not know. */
function tagOf(world: World, text: string): SandboxTag {
  const t = text.toLowerCase();
  const tag = world.tags.find((x) => x.slug === t || x.label.toLowerCase() === t);
  if (tag === undefined) throw new ConfigError(`tags: unknown tag '${text}' (the world's tags: ${world.tags.map((x) => x.slug).join(', ')})`);
  return tag;
}

function uniqueIn(taken: (slug: string) => boolean, base: string, id: string): string {
  return base === '' || taken(base) ? `${base}-${id}` : base;
}
