import { createHash } from 'node:crypto';
import type { Clock } from '../../core/clock.ts';
import { ConfigError } from '../../core/errors.ts';
import { ceilToTick, floorToTick, MICROS_PER_UNIT, type Micros } from '../../core/fixed.ts';
import { FeeRate } from '../../core/money.ts';
import type { TokenId } from '../../core/types.ts';
import { buyEntryRequirement } from '../../sim/admission.ts';
import type { SandboxEngine } from '../trading/sandbox-engine.ts';
import { checksumAddress } from '../world/ids.ts';
import { Prng } from '../world/prng.ts';
import { FLOW_OWNER_PREFIX, type FlowAccount } from './flow-accounts.ts';
import { EpisodeClock, startChance } from './episode-clock.ts';
import { cancelOwnOrders } from './step-back.ts';

/** Knobs of the leader wallets (`SandboxOptions.leaders`, `clobot sandbox --leader-episodes`). */
export interface LeaderWalletOptions {
  /** Leader episodes per hour of sandbox time, over the whole sandbox (a Poisson rate); 0 (default): none start by themselves. */
  readonly ratePerHour?: number;
  /** How long the leader's entry comes before the price moves, ms, [min, max] (default [5 s, 15 s]). */
  readonly leadMs?: readonly [number, number];
  /** How long after the move the leader sells what it bought, ms, [min, max] (default [20 s, 60 s]). */
  readonly holdMs?: readonly [number, number];
  /** How far the market's price moves (probability units), [min, max] (default [0.06, 0.12]). */
  readonly move?: readonly [number, number];
  /** Shares the leader buys (at least the market's minimum size); default 40. */
  readonly sizeShares?: number;
  /** How often episodes are stepped, ms; default 500. */
  readonly stepMs?: number;
}

/** What `POST /admin/leaders` (or a test) asks for: an episode now. */
export interface LeaderRequest {
  /** The market's condition id or slug; default: one drawn among the markets the flow trades. */
  readonly market?: string;
  /** The leader: its index (0, 1, 2) or address; default drawn. */
  readonly wallet?: number | string;
  /** `up`: the leader buys YES and YES then rises; `down`: it buys NO and YES falls. Default drawn. */
  readonly direction?: 'up' | 'down';
  readonly move?: number;
  readonly leadMs?: number;
  readonly holdMs?: number;
  readonly sizeShares?: number;
}

/** An episode as the admin route shows it. */
export interface LeaderEpisodeView {
  readonly wallet: string;
  readonly conditionId: string;
  readonly slug: string;
  /** The token the leader bought. */
  readonly tokenId: string;
  readonly direction: 'up' | 'down';
  /** The YES price before the move, the move, and what the leader paid (its limit), decimal text. */
  readonly move: number;
  readonly limit: string;
  readonly sizeShares: number;
  readonly enteredAt: number;
  readonly movesAt: number;
  readonly exitsAt: number;
  readonly moved: boolean;
}

/** A market leaders may trade. */
export interface LeaderMarket {
  readonly conditionId: string;
  readonly slug: string;
  readonly tokenIds: readonly [TokenId, TokenId];
}

/** Moves a market's price (the synthetic flow's latent walk); false when it cannot. */
export type PriceMover = (conditionId: string, dp: number) => boolean;

interface Episode {
  readonly leader: FlowAccount;
  readonly market: LeaderMarket;
  readonly tokenId: TokenId;
  readonly direction: 'up' | 'down';
  readonly move: number;
  readonly limit: Micros;
  readonly size: Micros;
  readonly enteredAt: number;
  readonly movesAt: number;
  readonly exitsAt: number;
  moved: boolean;
}

/** Leader wallets: how many, and their accounts (owner `flow-leader-<i>`, a hashed address the same for every seed). */
export const LEADERS = 3;

function leader(i: number): FlowAccount {
  return Object.freeze({
    owner: `${FLOW_OWNER_PREFIX}leader-${i}`,
    address: checksumAddress(createHash('sha256').update(`clobot sandbox leader ${i}`).digest('hex').slice(0, 40)),
  });
}

export const LEADER_ACCOUNTS: readonly FlowAccount[] = Object.freeze(Array.from({ length: LEADERS }, (_, i) => leader(i)));

const DEFAULTS = { ratePerHour: 0, leadMs: [5_000, 15_000] as const, holdMs: [20_000, 60_000] as const, move: [0.06, 0.12] as const, sizeShares: 40, stepMs: 500 };

/**
 * Leader wallets: a few synthetic traders who know first. In an episode a leader buys a
 * market's outcome (YES when the price is about to rise, NO when it is about to fall) with a
 * marketable FAK order a tick through the best ask, `leadMs` later the market's price moves by
 * `move` (news: the synthetic flow's latent price jumps, its maker re-centres, its takers follow),
 * and `holdMs` after the move the leader sells what it holds with a FAK a tick through the best
 * bid. Its fills are ordinary trades of the sandbox: they show on `/activity`, `/trades?user=`,
 * `/holders` and the market channel like any trader's, which is what a copy trader follows.
 *
 * Deterministic: one seeded stream (`leaders`) draws the episodes, stepped every `stepMs` of the
 * sandbox clock. The price moves through the synthetic flow, so with `--no-flow` an episode is
 * refused (its entry is not sent).
 */
export class LeaderWallets {
  readonly #engine: SandboxEngine;
  readonly #clock: Clock;
  readonly #markets: readonly LeaderMarket[];
  readonly #mover: PriceMover | undefined;
  readonly #rng: Prng;
  readonly #opts: typeof DEFAULTS;
  readonly #active = new Map<string, Episode>();
  readonly #counts = { started: 0, moved: 0, exited: 0, skipped: 0 };
  #seq = 0;
  readonly #stepper: EpisodeClock;

  constructor(engine: SandboxEngine, markets: readonly LeaderMarket[], mover: PriceMover | undefined, seed: number, clock: Clock, options: LeaderWalletOptions = {}) {
    this.#opts = checkOptions(options);
    this.#stepper = new EpisodeClock(clock, this.#opts.stepMs, (now, dtSec) => this.#step(now, dtSec));
    this.#engine = engine;
    this.#clock = clock;
    this.#markets = markets;
    this.#mover = mover;
    this.#rng = Prng.from(seed, 'leaders');
  }

  /** Starts stepping on the clock (episodes start by themselves only with a rate above 0). */
  start(): void {
    this.#stepper.start();
  }

  stop(): void {
    this.#stepper.stop();
  }

  stats(): {
    readonly wallets: readonly string[];
    readonly active: LeaderEpisodeView[];
    readonly started: number;
    readonly moved: number;
    readonly exited: number;
    readonly skipped: number;
    readonly ratePerHour: number;
  } {
    return { wallets: LEADER_ACCOUNTS.map((a) => a.address), active: [...this.#active.values()].map(view), ...this.#counts, ratePerHour: this.#opts.ratePerHour };
  }

  /** Starts an episode now: the leader's entry is sent at once. Returns it, or a sentence saying why none started. */
  begin(request: LeaderRequest = {}): LeaderEpisodeView | string {
    const refused = (why: string): string => {
      this.#counts.skipped++;
      return why;
    };
    if (this.#mover === undefined) return refused('leader episodes move prices through the synthetic flow, which is off');
    const rng = this.#rng;
    const direction = request.direction ?? (rng.chance(0.5) ? 'up' : 'down');
    const [m0, m1] = this.#opts.move;
    const move = request.move ?? m0 + rng.float() * (m1 - m0);
    // a drawn market leaves the move room: its YES mid stays within [5 %, 95 %] after it
    const free = this.#markets.filter((m) => {
      if (this.#active.has(m.conditionId)) return false;
      const mid = this.#mid(m.tokenIds[0]);
      if (mid === undefined) return false;
      const after = mid / MICROS_PER_UNIT + (direction === 'up' ? move : -move);
      return after >= 0.05 && after <= 0.95;
    });
    const market = request.market === undefined ? free[rng.int(0, Math.max(0, free.length - 1))] : this.#markets.find((m) => m.conditionId === request.market || m.slug === request.market);
    if (market === undefined) return refused(request.market === undefined ? `no market free for a leader episode with room to move ${direction} by ${move.toFixed(3)}` : `no market '${request.market}' the flow trades`);
    if (this.#active.has(market.conditionId)) return refused(`market '${market.slug}' is in a leader episode already`);
    const who = request.wallet;
    const leaderAccount =
      who === undefined
        ? LEADER_ACCOUNTS[rng.int(0, LEADERS - 1)]
        : typeof who === 'number'
          ? LEADER_ACCOUNTS[who]
          : LEADER_ACCOUNTS.find((a) => a.address.toLowerCase() === who.toLowerCase());
    if (leaderAccount === undefined) return refused(`no leader wallet ${String(who)} (0 to ${LEADERS - 1}, or one of ${LEADER_ACCOUNTS.map((a) => a.address).join(', ')})`);
    const leadMs = request.leadMs ?? rng.int(this.#opts.leadMs[0], this.#opts.leadMs[1]);
    const holdMs = request.holdMs ?? rng.int(this.#opts.holdMs[0], this.#opts.holdMs[1]);
    const shares = request.sizeShares ?? this.#opts.sizeShares;

    const engine = this.#engine;
    const cfg = engine.market(market.conditionId);
    if (cfg === undefined || !cfg.acceptingOrders) return refused(`market '${market.slug}' is not trading`);
    const tokenId = direction === 'up' ? market.tokenIds[0] : market.tokenIds[1];
    const ask = engine.quote(tokenId).bestAsk;
    if (ask === undefined) return refused(`market '${market.slug}': no ask to buy from`);
    const tick = cfg.tickSize;
    const limit = Math.min(ceilToTick(ask, tick) + tick, MICROS_PER_UNIT - tick);
    const size = Math.max(Math.round(shares * 100) * (MICROS_PER_UNIT / 100), cfg.minOrderSize);
    const now = this.#clock.now();
    const { owner, address } = leaderAccount;
    const need = buyEntryRequirement(limit, size, FeeRate.of(cfg.takerBaseFeeBps));
    const account = engine.ledger.account(address);
    if (account.collateral < need) engine.ledger.deposit(address, need - account.collateral + 1_000 * MICROS_PER_UNIT);
    const r = engine.submit({ id: `${owner}-${++this.#seq}`, owner, address, tokenId, side: 'BUY', price: limit, size, type: 'FAK', createdAt: now }, now);
    if (r.status === 'REJECTED' || r.trades.length === 0) return refused(`market '${market.slug}': the leader's entry did not fill${r.status === 'REJECTED' ? ` (${r.errorMsg})` : ''}`);
    const episode: Episode = { leader: leaderAccount, market, tokenId, direction, move, limit, size, enteredAt: now, movesAt: now + leadMs, exitsAt: now + leadMs + holdMs, moved: false };
    this.#active.set(market.conditionId, episode);
    this.#counts.started++;
    return view(episode);
  }

  #step(now: number, dtSec: number): void {
    for (const episode of [...this.#active.values()]) {
      if (!episode.moved && now >= episode.movesAt) this.#move(episode, now);
      if (episode.moved && now >= episode.exitsAt) this.#exit(episode, now);
    }
    const rate = this.#opts.ratePerHour;
    if (!(rate > 0) || dtSec === 0) return;
    // one draw a step whatever happens, so the episodes follow from the seed and the clock alone
    if (this.#rng.chance(startChance(rate, dtSec))) this.begin();
  }

  /**
   * The news: the market's price moves the leader's way (tried again at the next step if the flow
   * cannot yet), and the sandbox's own depth on the far side of the new price steps back, so the
   * flow's maker can quote there.
   */
  #move(episode: Episode, now: number): void {
    const up = episode.direction === 'up';
    const { conditionId, tokenIds } = episode.market;
    const mid = this.#mid(tokenIds[0]);
    if (this.#mover?.(conditionId, up ? episode.move : -episode.move) !== true) return;
    episode.moved = true;
    this.#counts.moved++;
    if (mid === undefined) return;
    const target = Math.round(mid + (up ? 1 : -1) * episode.move * MICROS_PER_UNIT);
    // the sandbox's own depth on the far side of the new price steps back (the YES asks below it, or the bids above)
    cancelOwnOrders(this.#engine, conditionId, tokenIds[0], (isBid, yesPrice) => (up ? !isBid && yesPrice <= target : isBid && yesPrice >= target), now);
  }

  /** A token's mid (one side's best price when the other is empty), micros. */
  #mid(tokenId: TokenId): number | undefined {
    const q = this.#engine.quote(tokenId);
    return q.bestBid !== undefined && q.bestAsk !== undefined ? (q.bestBid + q.bestAsk) / 2 : (q.bestBid ?? q.bestAsk);
  }

  /** The leader sells what it holds of the token, a tick through the best bid. */
  #exit(episode: Episode, now: number): void {
    this.#active.delete(episode.market.conditionId);
    this.#counts.exited++;
    const engine = this.#engine;
    const cfg = engine.market(episode.market.conditionId);
    const { owner, address } = episode.leader;
    const held = engine.ledger.account(address).holding(episode.tokenId).free;
    const bid = engine.quote(episode.tokenId).bestBid;
    if (cfg === undefined || !cfg.acceptingOrders || held <= 0 || bid === undefined) return;
    const price = Math.max(floorToTick(bid, cfg.tickSize) - cfg.tickSize, cfg.tickSize);
    engine.submit({ id: `${owner}-${++this.#seq}`, owner, address, tokenId: episode.tokenId, side: 'SELL', price, size: held, type: 'FAK', createdAt: now }, now);
  }
}

function view(e: Episode): LeaderEpisodeView {
  return {
    wallet: e.leader.address,
    conditionId: e.market.conditionId,
    slug: e.market.slug,
    tokenId: e.tokenId,
    direction: e.direction,
    move: Math.round(e.move * 1e4) / 1e4,
    limit: String(e.limit / MICROS_PER_UNIT),
    sizeShares: e.size / MICROS_PER_UNIT,
    enteredAt: e.enteredAt,
    movesAt: e.movesAt,
    exitsAt: e.exitsAt,
    moved: e.moved,
  };
}

function checkOptions(o: LeaderWalletOptions): typeof DEFAULTS {
  const out = { ...DEFAULTS, ...o } as typeof DEFAULTS;
  const bad = (key: string, rule: string, value: unknown): never => {
    throw new ConfigError(`sandbox.leaders.${key}: must be ${rule}, was ${JSON.stringify(value)}`);
  };
  if (!(Number.isFinite(out.ratePerHour) && out.ratePerHour >= 0)) bad('ratePerHour', 'a number >= 0', out.ratePerHour);
  const range = (key: 'leadMs' | 'holdMs') => {
    const [a, b] = out[key];
    if (!(Number.isSafeInteger(a) && Number.isSafeInteger(b) && a >= 0 && b >= a)) bad(key, 'two whole numbers 0 <= min <= max', out[key]);
  };
  range('leadMs');
  range('holdMs');
  const [m0, m1] = out.move;
  if (!(m0 > 0 && m1 >= m0 && m1 < 0.5)) bad('move', 'two numbers 0 < min <= max < 0.5', out.move);
  if (!(out.sizeShares > 0 && Number.isSafeInteger(out.sizeShares * 100))) bad('sizeShares', 'a positive number of shares in steps of 0.01', out.sizeShares);
  if (!(out.stepMs > 0)) bad('stepMs', 'a number > 0', out.stepMs);
  return out;
}
