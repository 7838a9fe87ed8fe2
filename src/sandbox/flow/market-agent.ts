import { ceilToTick, floorToTick, MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import type { ConditionId, OrderType, Side, TokenId } from '../../core/types.ts';
import { FeeRate } from '../../core/money.ts';
import { buyEntryRequirement } from '../../sim/admission.ts';
import type { MatchingEngine } from '../../sim/matching/matching-engine.ts';
import type { SimMarketConfig } from '../../sim/types.ts';
import type { TradingMode } from '../faults.ts';
import { Prng } from '../world/prng.ts';
import { FLOW_MAKER_ACCOUNTS, FLOW_MAKERS, FLOW_TAKER_ACCOUNTS, FLOW_TAKERS, type FlowAccount } from './flow-accounts.ts';
import type { FlowParams } from './flow-params.ts';
import { LatentWalk } from './latent-walk.ts';

/** A market the flow trades: what the agents need beyond the engine's own config. */
export interface FlowMarket {
  readonly conditionId: ConditionId;
  /** [YES, NO]. */
  readonly tokenIds: readonly [TokenId, TokenId];
  /** Stable index (the world's), naming the market's random stream. */
  readonly index: number;
  /** Where the latent probability starts (YES price, micros). */
  readonly initialMid: Micros;
}

/** Running counts of what the flow did. */
export interface FlowCounters {
  /** Budget spent: one per visit, order sent, cancel call and trade printed. */
  actions: number;
  visits: number;
  makerOrders: number;
  takerOrders: number;
  /** Orders canceled, and the calls that canceled them. */
  cancels: number;
  cancelCalls: number;
  trades: number;
  deposits: number;
  /** Rejected submissions by the engine's error string. */
  rejected: Record<string, number>;
}

/** What every agent shares: the engine, the knobs, the counters, order ids. */
export interface AgentEnv {
  readonly engine: MatchingEngine;
  readonly params: FlowParams;
  readonly intensity: number;
  readonly seed: number;
  readonly counters: FlowCounters;
  nextOrderId(): string;
}

/** The sandbox's trading mode (src/sandbox/faults.ts), as the flow reads it. */
export type FlowTradingMode = TradingMode;

/** Maker levels are spaced at least this far apart (0.005), on the tick grid. */
const MIN_QUOTE_STEP: Micros = 5_000;
/** Collateral added to an agent account whenever it runs short (5,000 units). */
const TOP_UP: Micros = 5_000 * MICROS_PER_UNIT;
/** The latent probability stays within [3%, 97%] (and two ticks of the edges). */
const EDGE_P = 0.03;
/** How often (per second) a maker redraws its spread. */
const RESPREAD_PER_SECOND = 1 / 120;
/** A visit after a long gap moves the walk at most this far (seconds). */
const MAX_GAP_SEC = 600;

/**
 * One market's agents. A maker (one of the shared maker accounts) keeps `levelsPerSide` post-only
 * levels a side around the latent probability: the ladder is centred on a grid of `quoteStep`
 * and re-centred only when the latent leaves it (hysteresis), so a quiet market keeps its queue.
 * Levels that filled are re-placed with fresh sizes. Each level is randomly placed in the YES
 * or NO token (a YES bid is BUY YES or SELL NO), so every settlement path is exercised. Takers
 * arrive as a Poisson process and cross the spread with FAK or FOK orders: towards the latent
 * price when the book is stale, in a random direction otherwise. Accounts are funded on demand
 * (deposits, and `split` for inventory), so balances are never short and never negative.
 */
export class MarketAgent {
  readonly market: FlowMarket;
  readonly #rng: Prng;
  readonly #maker: FlowAccount;
  #walk: LatentWalk | undefined;
  #tick: Micros = 0;
  #lastVisitMs: number | undefined;
  #center: Micros | undefined;
  #width = 1;
  /** Resting maker orders by YES-frame level key (`b<price>` / `a<price>`). */
  readonly #orders = new Map<string, string>();

  constructor(market: FlowMarket, seed: number) {
    this.market = market;
    this.#rng = Prng.from(seed, 'flow', market.index);
    this.#maker = FLOW_MAKER_ACCOUNTS[market.index % FLOW_MAKERS] as FlowAccount;
    this.#width = this.#rng.int(1, 3);
  }

  /** The latent probability now (undefined before the first visit). */
  get latent(): number | undefined {
    return this.#walk?.p;
  }

  /** News moves the latent probability by `dp` now (the maker's ladder follows at its next visit); false before the first visit. */
  nudge(dp: number): boolean {
    if (this.#walk === undefined) return false;
    this.#walk.nudge(dp);
    return true;
  }

  /**
   * Moves the walk to `now`, lets takers trade against the book, then refreshes the maker's
   * quotes. Returns the actions it cost (1 + orders sent + cancel calls + trades printed).
   */
  visit(env: AgentEnv, now: number, mode: FlowTradingMode): number {
    const c = env.counters;
    const before = c.makerOrders + c.takerOrders + c.cancelCalls + c.trades;
    const cfg = env.engine.market(this.market.conditionId);
    if (cfg === undefined || !cfg.acceptingOrders || MICROS_PER_UNIT % cfg.tickSize !== 0) {
      c.actions++;
      return 1;
    }
    c.visits++;
    const rng = this.#rng;
    const dtSec = this.#lastVisitMs === undefined ? 0 : Math.min(MAX_GAP_SEC, Math.max(0, now - this.#lastVisitMs) / 1000);
    this.#lastVisitMs = now;
    this.#adoptTick(cfg.tickSize);
    const walk = this.#walk as LatentWalk;
    walk.advance(dtSec, rng, env.params);

    if (mode === 'normal' && dtSec > 0) {
      const takers = poisson(rng, env.params.takersPerSecond * env.intensity * dtSec, env.params.maxTakersPerVisit);
      for (let i = 0; i < takers; i++) this.#taker(env, cfg, now);
    }
    if (dtSec > 0 && rng.chance(1 - Math.exp(-RESPREAD_PER_SECOND * dtSec))) this.#width = rng.int(1, 3);
    this.#requote(env, cfg, now, mode);
    const cost = 1 + c.makerOrders + c.takerOrders + c.cancelCalls + c.trades - before;
    c.actions += cost;
    return cost;
  }

  #adoptTick(tick: Micros): void {
    if (tick === this.#tick && this.#walk !== undefined) return;
    const edge = Math.max(EDGE_P, (2 * tick) / MICROS_PER_UNIT);
    if (this.#walk === undefined) this.#walk = new LatentWalk(this.market.initialMid / MICROS_PER_UNIT, edge, 1 - edge);
    else this.#walk.setBounds(edge, 1 - edge);
    this.#tick = tick;
    this.#center = undefined;
  }

  // ------------------------------------------------------------------------------ maker

  #requote(env: AgentEnv, cfg: SimMarketConfig, now: number, mode: FlowTradingMode): void {
    const { engine } = env;
    const tick = cfg.tickSize;
    const step = quoteStep(tick);
    const p = Math.round((this.#walk as LatentWalk).p * MICROS_PER_UNIT);
    let center = this.#center;
    if (center === undefined || p < center - step / 4 || p >= center + step + step / 4) {
      center = Math.floor(p / step) * step;
      this.#center = center;
    }

    const bid0 = center - Math.floor((this.#width - 1) / 2) * step;
    const ask0 = bid0 + this.#width * step;
    const desired = new Map<string, { isBid: boolean; price: Micros }>();
    for (let j = 0; j < env.params.levelsPerSide; j++) {
      const b = bid0 - j * step;
      if (b >= tick && b <= MICROS_PER_UNIT - tick) desired.set('b' + b, { isBid: true, price: b });
      const a = ask0 + j * step;
      if (a >= tick && a <= MICROS_PER_UNIT - tick) desired.set('a' + a, { isBid: false, price: a });
    }

    const stale: string[] = [];
    for (const [key, id] of this.#orders) {
      const state = engine.order(id);
      if (state === undefined || state.status !== 'LIVE') this.#orders.delete(key);
      else if (!desired.has(key)) {
        stale.push(id);
        this.#orders.delete(key);
      }
    }
    if (stale.length > 0) {
      env.counters.cancelCalls++;
      env.counters.cancels += engine.cancelOrders(stale, this.#maker.owner, now).canceled.length;
    }
    if (mode === 'cancel-only') return;

    // Post-only levels that would cross someone else's resting order are skipped, not sent.
    const quote = engine.quote(this.market.tokenIds[0]);
    for (const [key, level] of desired) {
      if (this.#orders.has(key)) continue;
      if (level.isBid ? quote.bestAsk !== undefined && level.price >= quote.bestAsk : quote.bestBid !== undefined && level.price <= quote.bestBid) continue;
      const id = this.#placeMaker(env, cfg, level.isBid, level.price, now);
      if (id !== undefined) this.#orders.set(key, id);
    }
    this.#mergeSpare(env, cfg);
  }

  /** Places one maker level (YES frame); returns the order id when it rests. */
  #placeMaker(env: AgentEnv, cfg: SimMarketConfig, isBid: boolean, yesPrice: Micros, now: number): string | undefined {
    const rng = this.#rng;
    const [yes, no] = this.market.tokenIds;
    const unit = sizeUnit(cfg.minOrderSize, env.engine.sizeLot);
    const size = unit * rng.int(2, 10) + env.engine.sizeLot * rng.int(0, 200);
    const inYes = rng.chance(0.5);
    const tokenId = inYes ? yes : no;
    const side: Side = isBid === inYes ? 'BUY' : 'SELL';
    const price = inYes ? yesPrice : MICROS_PER_UNIT - yesPrice;
    const { owner, address } = this.#maker;
    this.#fund(env, cfg, address, tokenId, side, price, size, cfg.makerBaseFeeBps, unit * 20);
    const id = env.nextOrderId();
    env.counters.makerOrders++;
    const r = env.engine.submit(
      { id, owner, address, tokenId, side, price, size, type: 'GTC', postOnly: true, createdAt: now },
      now,
    );
    if (r.status === 'REJECTED') {
      countReject(env, r.errorMsg);
      return undefined;
    }
    return id;
  }

  /** Keeps the maker's spare YES+NO pairs bounded by merging the surplus back to collateral. */
  #mergeSpare(env: AgentEnv, cfg: SimMarketConfig): void {
    const keep = sizeUnit(cfg.minOrderSize, env.engine.sizeLot) * 20;
    const { address } = this.#maker;
    const account = env.engine.ledger.account(address);
    const [yes, no] = this.market.tokenIds;
    const pairs = Math.min(account.holding(yes).free, account.holding(no).free);
    if (pairs > 4 * keep) env.engine.merge(address, this.market.conditionId, pairs - keep);
  }

  // ------------------------------------------------------------------------------ taker

  #taker(env: AgentEnv, cfg: SimMarketConfig, now: number): void {
    const { engine, params } = env;
    const rng = this.#rng;
    const [yes, no] = this.market.tokenIds;
    const tick = cfg.tickSize;
    const quote = engine.quote(yes);
    const p = Math.round((this.#walk as LatentWalk).p * MICROS_PER_UNIT);
    let up: boolean;
    if (quote.bestAsk !== undefined && p > quote.bestAsk) up = true;
    else if (quote.bestBid !== undefined && p < quote.bestBid) up = false;
    else up = rng.chance(0.5);
    const slip = rng.int(0, 2) * tick;
    const { owner, address } = FLOW_TAKER_ACCOUNTS[rng.int(0, FLOW_TAKERS - 1)] as FlowAccount;
    const unit = sizeUnit(cfg.minOrderSize, engine.sizeLot);
    const size = unit * rng.int(1, 5) + engine.sizeLot * rng.int(0, 100);
    const type: OrderType = rng.chance(params.fokShare) ? 'FOK' : 'FAK';
    const account = engine.ledger.account(address);

    let tokenId: TokenId;
    let side: Side;
    let price: Micros;
    if (up) {
      if (quote.bestAsk === undefined) return;
      const limit = Math.min(ceilToTick(quote.bestAsk, tick) + slip, MICROS_PER_UNIT - tick);
      // Buying YES is selling NO: use NO the taker holds, else pay collateral.
      if (account.holding(no).free >= size) [tokenId, side, price] = [no, 'SELL', MICROS_PER_UNIT - limit];
      else [tokenId, side, price] = [yes, 'BUY', limit];
    } else {
      if (quote.bestBid === undefined) return;
      const limit = Math.max(floorToTick(quote.bestBid, tick) - slip, tick);
      if (account.holding(yes).free >= size) [tokenId, side, price] = [yes, 'SELL', limit];
      else [tokenId, side, price] = [no, 'BUY', MICROS_PER_UNIT - limit];
    }
    this.#fund(env, cfg, address, tokenId, side, price, size, cfg.takerBaseFeeBps, size);
    env.counters.takerOrders++;
    const r = engine.submit({ id: env.nextOrderId(), owner, address, tokenId, side, price, size, type, createdAt: now }, now);
    if (r.status === 'REJECTED') countReject(env, r.errorMsg);
    else env.counters.trades += r.trades.length;
    // A taker has no use for complete pairs: turn them back into collateral.
    const pairs = Math.min(account.holding(yes).free, account.holding(no).free);
    if (pairs > 0) engine.merge(address, this.market.conditionId, pairs);
  }

  // ------------------------------------------------------------------------------ funding

  /** Makes sure `address` can send the order: collateral for a BUY, tokens (minted by split) for a SELL. */
  #fund(
    env: AgentEnv,
    cfg: SimMarketConfig,
    address: string,
    tokenId: TokenId,
    side: Side,
    price: Micros,
    size: Micros,
    feeBps: number,
    splitChunk: Micros,
  ): void {
    const { engine } = env;
    const account = engine.ledger.account(address);
    if (side === 'BUY') {
      topUp(env, address, buyEntryRequirement(price, size, FeeRate.of(feeBps)));
      return;
    }
    const free = account.holding(tokenId).free;
    if (free >= size) return;
    const amount = Math.max(size - free, splitChunk);
    topUp(env, address, amount);
    engine.split(address, cfg.conditionId, amount);
  }
}

function topUp(env: AgentEnv, address: string, need: Micros): void {
  const account = env.engine.ledger.account(address);
  if (account.collateral >= need) return;
  env.engine.ledger.deposit(address, Math.max(need - account.collateral, TOP_UP));
  env.counters.deposits++;
}

function countReject(env: AgentEnv, errorMsg: string): void {
  env.counters.rejected[errorMsg] = (env.counters.rejected[errorMsg] ?? 0) + 1;
}

/** Spacing of maker levels: the tick, or a multiple of it of at least 0.005. */
export function quoteStep(tick: Micros): Micros {
  return tick >= MIN_QUOTE_STEP ? tick : Math.ceil(MIN_QUOTE_STEP / tick) * tick;
}

/** The smallest order size an agent uses: the market's minimum, at least one share, on the lot. */
function sizeUnit(minOrderSize: Micros, lot: Micros): Micros {
  return Math.ceil(Math.max(minOrderSize, MICROS_PER_UNIT) / lot) * lot;
}

/** A Poisson draw with mean `mean`, at most `cap` (Knuth's product method; means here are small). */
function poisson(rng: Prng, mean: number, cap: number): number {
  if (!(mean > 0)) return 0;
  const limit = Math.exp(-Math.min(mean, 30));
  let k = 0;
  let product = rng.float();
  while (product > limit && k < cap) {
    k++;
    product *= rng.float();
  }
  return k;
}
