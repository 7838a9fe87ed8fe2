import { ConfigError, DecodeError } from '../core/errors.ts';
import { parseMicros, type Micros } from '../core/fixed.ts';
import type { EventInfo, TokenId } from '../core/types.ts';
import type { BacktestConfig } from '../config/run-config.ts';
import type { MarketSelection } from '../data/market-selection.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import { BINARY_OUTCOMES, eventsByMarket, outcomeTokens, trackedTokensOf } from '../data/market-tokens.ts';
import type { RecordedMarket, RecordingHeader } from '../data/recording/format.ts';
import type { SimToken } from '../sim/edge/simulated-execution.ts';
import { FeeRate } from '../core/money.ts';

/**
 * The markets of a recording, picked by a config's market selection. A recording holds no tags
 * nor open/closed flags, so a `filter` only limits the count: the first `maxCount` recorded
 * markets (in the header's order) not already chosen by id or slug. A selector that names a
 * market the recording does not hold is an error: the backtest would silently trade nothing.
 */
export function selectRecordedMarkets(header: RecordingHeader, selection: MarketSelection, where: string): { markets: RecordedMarket[]; warnings: string[] } {
  const chosen = new Map<string, RecordedMarket>();
  const warnings: string[] = [];
  const byToken = new Map<string, RecordedMarket>();
  for (const m of header.markets) for (const t of m.tokens) byToken.set(t.tokenId, m);
  const missing: string[] = [];
  for (const id of selection.conditionIds) {
    const m = header.markets.find((x) => x.conditionId.toLowerCase() === id.toLowerCase());
    if (m) chosen.set(m.conditionId, m);
    else missing.push(`condition id ${id}`);
  }
  for (const slug of selection.slugs) {
    const m = header.markets.find((x) => x.slug === slug);
    if (m) chosen.set(m.conditionId, m);
    else missing.push(`slug ${slug}`);
  }
  for (const slug of selection.events ?? []) {
    const event = header.events?.find((e) => e.slug === slug);
    const listed = event === undefined ? [] : header.markets.filter((m) => event.marketConditionIds.some((c) => c.toLowerCase() === m.conditionId.toLowerCase()));
    if (listed.length > 0) for (const m of listed) chosen.set(m.conditionId, m);
    else missing.push(`event ${slug}`);
  }
  for (const tokenId of selection.tokenIds) {
    const m = byToken.get(tokenId);
    if (m) chosen.set(m.conditionId, m);
    else missing.push(`token id ${tokenId}`);
  }
  if (missing.length > 0) throw new ConfigError(`${where}: the recording holds no market for ${missing.join(', ')}`);
  const filter = selection.filter;
  if (filter) {
    if (filter.tags.length > 0) warnings.push(`${where}.filter.tags: a recording has no tags; the filter takes the first ${filter.maxCount} recorded markets`);
    let taken = 0;
    for (const m of header.markets) {
      if (taken >= filter.maxCount) break;
      if (chosen.has(m.conditionId)) continue;
      if (filter.rewards === true && m.rewards === undefined) continue;
      chosen.set(m.conditionId, m);
      taken++;
    }
  }
  if (chosen.size === 0) throw new ConfigError(`${where}: the market selection matched no recorded market`);
  // the header's order, whatever order the selectors named them in
  const markets = header.markets.filter((m) => chosen.has(m.conditionId));
  for (const m of markets) {
    if (m.tokens.length <= BINARY_OUTCOMES) continue;
    const left = m.tokens.slice(BINARY_OUTCOMES).map((t) => t.outcome).join(', ');
    warnings.push(`${where}: market ${m.conditionId} lists ${m.tokens.length} tokens; the engine trades binary markets and takes the first two (not ${left})`);
  }
  return { markets, warnings };
}

/** What a market that joined the recording changes: the tokens to track, and each strategy's new tokens. */
export interface RecordedMarketJoin {
  readonly market: RecordedMarket;
  readonly tokens: TrackedToken[];
  readonly byStrategy: Map<string, { readonly added: readonly TokenId[]; readonly removed: readonly TokenId[] }>;
}

/**
 * The backtest's side of new markets at runtime: a market that joins a recording (its `market`
 * event) is taken by every strategy whose selection has a `filter` holding fewer than `maxCount`
 * markets (a market seen closed no longer counts: the live refresher drops it and refills), as a
 * filter-selected live run takes a new market the venue lists. A selection without a filter
 * never changes. A market no strategy takes is not traded (a live run would not have added it).
 */
export class RecordedMarketFollower {
  readonly #strategies: { readonly id: string; readonly selection: MarketSelection; readonly maxCount: number; readonly held: Set<string> }[] = [];
  readonly #closed = new Set<string>();
  readonly #events: readonly EventInfo[];

  /** Each strategy with its selection and the recorded markets it picked at the start; the header's events. */
  constructor(strategies: readonly { readonly id: string; readonly selection: MarketSelection; readonly markets: readonly RecordedMarket[] }[], events: readonly EventInfo[] = []) {
    this.#events = events;
    for (const s of strategies) {
      const filter = s.selection.filter;
      if (filter === undefined) continue;
      const named = (m: RecordedMarket): boolean =>
        s.selection.conditionIds.some((c) => c.toLowerCase() === m.conditionId.toLowerCase()) ||
        s.selection.slugs.includes(m.slug) ||
        m.tokens.some((t) => s.selection.tokenIds.includes(t.tokenId));
      this.#strategies.push({ id: s.id, selection: s.selection, maxCount: filter.maxCount, held: new Set(s.markets.filter((m) => !named(m)).map((m) => m.conditionId)) });
    }
  }

  /** A market closed: it leaves its filters' counts. */
  closed(conditionId: string): void {
    this.#closed.add(conditionId);
  }

  /** The change a joining market makes; undefined when no strategy takes it. */
  join(market: RecordedMarket): RecordedMarketJoin | undefined {
    const byStrategy = new Map<string, { added: TokenId[]; removed: TokenId[] }>();
    for (const s of this.#strategies) {
      let open = 0;
      for (const c of s.held) if (!this.#closed.has(c)) open++;
      if (open >= s.maxCount || s.held.has(market.conditionId)) continue;
      if (s.selection.filter?.rewards === true && market.rewards === undefined) continue;
      s.held.add(market.conditionId);
      byStrategy.set(s.id, { added: selectedTokenIds([market], s.selection), removed: [] });
    }
    if (byStrategy.size === 0) return undefined;
    return { market, tokens: trackedTokens([market], this.#events), byStrategy };
  }
}

/** The tokens a strategy trades in the chosen markets: both outcomes, or only the named tokens. */
export function selectedTokenIds(markets: readonly RecordedMarket[], selection: MarketSelection): TokenId[] {
  const explicit = new Set(selection.tokenIds);
  const out: TokenId[] = [];
  for (const m of markets) {
    const byToken = m.tokens.some((t) => explicit.has(t.tokenId));
    const byMarket = selection.conditionIds.some((c) => c.toLowerCase() === m.conditionId.toLowerCase()) || selection.slugs.includes(m.slug);
    for (const t of outcomeTokens(m.tokens)) {
      if (byToken && !byMarket && !explicit.has(t.tokenId)) continue;
      out.push(t.tokenId);
    }
  }
  return out;
}

function micros(text: string, field: string): Micros {
  const m = parseMicros(text);
  if (!Number.isSafeInteger(m)) throw new DecodeError(field, 'a decimal string', text);
  return m;
}

/**
 * The engine's view of the recorded markets' tokens (`trackedTokensOf`: the first two of each
 * market), each with its matching delay and the event of the header's `events` listing it.
 */
export function trackedTokens(markets: readonly RecordedMarket[], events: readonly EventInfo[] = []): TrackedToken[] {
  const eventOf = eventsByMarket(events);
  return markets.flatMap((m) =>
    trackedTokensOf(
      m,
      {
        conditionId: m.conditionId,
        tickSize: micros(m.tickSize, `markets[${m.conditionId}].tickSize`),
        minOrderSize: micros(m.minOrderSize, `markets[${m.conditionId}].minOrderSize`),
        negRisk: m.negRisk,
        makerBaseFeeBps: m.makerBaseFeeBps,
        takerBaseFeeBps: m.takerBaseFeeBps,
        acceptingOrders: true,
        rewards: m.rewards === undefined ? undefined : { dailyRate: m.rewards.dailyRate, minSize: micros(m.rewards.minSize, `markets[${m.conditionId}].rewards.minSize`), maxSpreadCents: m.rewards.maxSpreadCents },
        ...(m.secondsDelay !== undefined && m.secondsDelay > 0 ? { secondsDelay: m.secondsDelay } : {}),
        ...(m.gameStartTime !== undefined ? { gameStartTime: m.gameStartTime } : {}),
        ...(m.endDate !== undefined ? { endDate: m.endDate } : {}),
      },
      undefined,
      eventOf.get(m.conditionId.toLowerCase()),
    ),
  );
}

/** The simulated venue's view of the same tokens, with the fee rates the config chose. */
export function backtestTokens(tokens: readonly TrackedToken[], config: Pick<BacktestConfig, 'feeSource' | 'fees'>): SimToken[] {
  const configFees = { maker: new FeeRate(config.fees.makerBps), taker: new FeeRate(config.fees.takerBps) };
  return tokens.map((t) => ({
    tokenId: t.tokenId,
    conditionId: t.conditionId,
    tickSize: t.rules.tickSize,
    minOrderSize: t.rules.minOrderSize,
    fees: config.feeSource === 'config' ? configFees : { maker: new FeeRate(t.rules.makerBaseFeeBps), taker: new FeeRate(t.rules.takerBaseFeeBps) },
    acceptingOrders: true,
    ...(t.rules.secondsDelay !== undefined && t.rules.secondsDelay > 0 ? { takerDelayMs: Math.round(t.rules.secondsDelay * 1000) } : {}),
  }));
}
