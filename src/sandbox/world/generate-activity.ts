import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { Side } from '../../core/types.ts';
import { address, hex32 } from './ids.ts';
import type { SandboxClosedPosition, SandboxFill, SandboxHolding, SandboxMarket, SandboxToken, SandboxWallet } from './model.ts';
import { Prng } from './prng.ts';
import * as words from './vocabulary.ts';
import { ASSET_HOST } from './generate-catalog.ts';

/**
 * Wallets and their history from a seed: per market a time-ordered run of fills (buys first,
 * sells only out of what a wallet holds), from which open holdings and closed positions
 * follow exactly. Sizes are whole hundredths of a share, prices lie on the market's tick grid.
 */
export interface WalletActivity {
  readonly wallets: readonly SandboxWallet[];
  /** Newest first (ties by transaction hash). */
  readonly fills: readonly SandboxFill[];
  readonly closedPositions: readonly SandboxClosedPosition[];
  readonly holdings: readonly SandboxHolding[];
}

const SIZE_STEP: Micros = 10_000; // 0.01 share

export function generateActivity(seed: number, epochMs: number, markets: readonly SandboxMarket[]): WalletActivity {
  const wallets = makeWallets(seed, Math.min(2000, Math.max(30, Math.round(markets.length * 0.5))));
  const fills: SandboxFill[] = [];
  const closedPositions: SandboxClosedPosition[] = [];
  const holdings: SandboxHolding[] = [];

  for (const market of markets) {
    const rng = Prng.from(seed, 'fills', market.index);
    const count = market.closed ? rng.int(2, 10) : rng.int(0, 10);
    const start = market.createdAt;
    const end = Math.min(market.endDate, epochMs);
    const times = Array.from({ length: count }, () => rng.int(start, Math.max(start, end - 1))).sort((a, b) => a - b);
    const states = new Map<string, PositionState>();
    const key = (w: SandboxWallet, t: SandboxToken): string => `${w.index}:${t.outcomeIndex}`;

    for (const ms of times) {
      const token = market.tokens[rng.chance(0.6) ? 0 : 1];
      const mid = token.outcomeIndex === 0 ? market.initialMid : MICROS_PER_UNIT - market.initialMid;
      const tick = market.tickSize;
      const noisy = mid + Math.round((rng.float() - 0.5) * 0.1 * MICROS_PER_UNIT);
      const price = Math.min(MICROS_PER_UNIT - tick, Math.max(tick, Math.round(noisy / tick) * tick));
      const sellers = [...states.values()].filter((s) => s.token === token && s.size > 0);
      let side: Side;
      let wallet: SandboxWallet;
      let size: Micros;
      if (sellers.length > 0 && rng.chance(0.35)) {
        const seller = rng.pick(sellers);
        side = 'SELL';
        wallet = seller.wallet;
        size = rng.chance(0.5) ? seller.size : Math.max(SIZE_STEP, Math.floor((seller.size * rng.float()) / SIZE_STEP) * SIZE_STEP);
      } else {
        side = 'BUY';
        wallet = rng.pick(wallets);
        const minSteps = Math.max(1, market.minOrderSize / SIZE_STEP);
        size = rng.int(minSteps, 50_000) * SIZE_STEP;
      }
      const fill: SandboxFill = {
        wallet,
        token,
        side,
        price,
        size,
        timestamp: ms,
        taker: rng.chance(0.7),
        transactionHash: hex32(rng),
      };
      fills.push(fill);
      const k = key(wallet, token);
      let state = states.get(k);
      if (!state) {
        state = newState(wallet, token);
        states.set(k, state);
      }
      applyFill(state, fill);
      if (state.size === 0) {
        closedPositions.push(closeState(state, price, false, ms));
        states.delete(k);
      }
    }

    for (const state of states.values()) {
      if (state.size <= 0) continue;
      if (market.closed) {
        const payout = market.winnerIndex === state.token.outcomeIndex ? MICROS_PER_UNIT : 0;
        const proceeds = Math.round((state.size * payout) / MICROS_PER_UNIT);
        state.realized += proceeds - state.cost;
        state.cost = 0;
        closedPositions.push(closeState(state, payout, true, market.endDate));
      } else {
        holdings.push({
          wallet: state.wallet,
          token: state.token,
          size: state.size,
          avgPrice: Math.round((state.cost * MICROS_PER_UNIT) / state.size),
        });
      }
    }
  }
  fills.sort((a, b) => b.timestamp - a.timestamp || (a.transactionHash < b.transactionHash ? -1 : 1));
  return { wallets, fills, closedPositions, holdings };
}

interface PositionState {
  readonly wallet: SandboxWallet;
  readonly token: SandboxToken;
  size: Micros;
  /** USDC micros of cost basis still held. */
  cost: Micros;
  totalBought: Micros;
  totalBoughtCost: Micros;
  realized: Micros;
}

function newState(wallet: SandboxWallet, token: SandboxToken): PositionState {
  return { wallet, token, size: 0, cost: 0, totalBought: 0, totalBoughtCost: 0, realized: 0 };
}

function applyFill(state: PositionState, fill: SandboxFill): void {
  const notional = Math.round((fill.size * fill.price) / MICROS_PER_UNIT);
  if (fill.side === 'BUY') {
    state.size += fill.size;
    state.cost += notional;
    state.totalBought += fill.size;
    state.totalBoughtCost += notional;
    return;
  }
  const basis = fill.size === state.size ? state.cost : Math.round((state.cost * fill.size) / state.size);
  state.realized += notional - basis;
  state.cost -= basis;
  state.size -= fill.size;
}

function closeState(state: PositionState, curPrice: Micros, redeemable: boolean, timestamp: number): SandboxClosedPosition {
  return {
    wallet: state.wallet,
    token: state.token,
    totalBought: state.totalBought,
    avgPrice: state.totalBought === 0 ? 0 : Math.round((state.totalBoughtCost * MICROS_PER_UNIT) / state.totalBought),
    realizedPnl: state.realized,
    curPrice,
    redeemable,
    timestamp,
  };
}

function makeWallets(seed: number, count: number): SandboxWallet[] {
  const rng = Prng.from(seed, 'wallets');
  return Array.from({ length: count }, (_, index) => {
    const named = rng.chance(0.7);
    const name = named ? `${rng.pick(words.FIRST_NAMES).toLowerCase()}${rng.pick(words.PSEUDONYM_NOUNS).toLowerCase()}${rng.int(1, 99)}` : '';
    const addr = address(rng);
    return {
      index,
      address: addr,
      baseAddress: address(rng),
      name,
      pseudonym: `${rng.pick(words.PSEUDONYM_ADJECTIVES)}-${rng.pick(words.PSEUDONYM_NOUNS)}`,
      bio: rng.pick(words.BIOS),
      profileImage: rng.chance(0.5) ? `${ASSET_HOST}/profiles/${addr.toLowerCase()}.png` : '',
      displayUsernamePublic: rng.chance(0.75),
      isMod: index < 2,
    };
  });
}
