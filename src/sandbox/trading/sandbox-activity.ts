import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { TokenId } from '../../core/types.ts';
import type { Trade } from '../../sim/types.ts';
import type { SandboxClosedPosition, SandboxFill, SandboxHolding, SandboxToken, SandboxWallet } from '../world/model.ts';
import type { World } from '../world/world.ts';
import { transactionHashOf } from './transaction-hash.ts';
import { LIQUIDITY_ADDRESS, type SandboxEngine } from './sandbox-engine.ts';

/**
 * The sandbox's own trading in wallet-analytics form, merged with the generated world by the
 * analytics routes: every engine trade becomes one fill for the taker and one per maker (each at
 * its own token, side and price), holdings come from the engine's ledger, and a position that
 * was bought and is back to zero is a closed position (realized PnL = sell proceeds - buy cost,
 * fees left out). Wallets that are not in the world get a profile with empty names. The seeded
 * liquidity's wallet trades like anyone else but is left out of the holders lists (its
 * inventory is minted, not bought).
 */
interface PositionStats {
  bought: Micros;
  /** Collateral paid for `bought`, micros. */
  cost: Micros;
  sold: Micros;
  proceeds: Micros;
  lastSellPrice: Micros | undefined;
  lastTs: number;
}

export interface SandboxActivityOptions {
  /**
   * Fills kept in the list of all fills: at least this many of the newest (at most twice as
   * many), so a sandbox with synthetic flow does not grow for ever. Position statistics stay
   * complete. Default: all.
   */
  readonly history?: number;
  /** The same bound for the own list of each `transientWallet`. Default: all. */
  readonly walletHistory?: number;
  /** Wallets (addresses) whose own list is bounded by `walletHistory`: the synthetic flow's. Others keep every fill. */
  readonly transientWallet?: (address: string) => boolean;
}

export class SandboxActivity {
  readonly #world: World;
  readonly #engine: SandboxEngine;
  readonly #history: number;
  readonly #walletHistory: number;
  readonly #transient: (address: string) => boolean;
  /** Oldest first. */
  readonly #fills: SandboxFill[] = [];
  readonly #byWallet = new Map<string, SandboxFill[]>();
  readonly #stats = new Map<string, Map<TokenId, PositionStats>>();
  readonly #wallets = new Map<string, SandboxWallet>();

  constructor(world: World, engine: SandboxEngine, options: SandboxActivityOptions = {}) {
    this.#world = world;
    this.#engine = engine;
    this.#history = options.history ?? Infinity;
    this.#walletHistory = options.walletHistory ?? Infinity;
    this.#transient = options.transientWallet ?? (() => false);
    engine.onEvent((event) => {
      if (event.type === 'TradeExecuted') this.#record(event.trade);
    });
  }

  /** Every sandbox fill, oldest first (the live list: read it, do not keep it). */
  fills(): readonly SandboxFill[] {
    return this.#fills;
  }

  /** The fills of one address (any case), oldest first. */
  fillsOf(address: string): readonly SandboxFill[] {
    return this.#byWallet.get(address.toLowerCase()) ?? [];
  }

  /** True when the address has traded in the sandbox. */
  hasTraded(address: string): boolean {
    return this.#byWallet.has(address.toLowerCase());
  }

  /** The wallet profile of an address that traded here. */
  wallet(address: string): SandboxWallet | undefined {
    return this.#wallets.get(address.toLowerCase());
  }

  /** Sandbox holders of a token (ledger balance > 0), largest first. */
  holdersOf(token: SandboxToken): SandboxHolding[] {
    const out: SandboxHolding[] = [];
    for (const address of this.#engine.ledger.addresses()) {
      if (address === LIQUIDITY_ADDRESS) continue;
      const size = this.#engine.ledger.position(address, token.tokenId);
      if (size <= 0) continue;
      const stats = this.#stats.get(address.toLowerCase())?.get(token.tokenId);
      const avgPrice = stats && stats.bought > 0 ? Math.round((stats.cost * MICROS_PER_UNIT) / stats.bought) : 0;
      out.push({ wallet: this.#walletOf(address), token, size, avgPrice });
    }
    return out.sort((a, b) => b.size - a.size);
  }

  /** Positions of an address that were bought here and are back to zero. */
  closedPositionsOf(address: string): SandboxClosedPosition[] {
    const key = address.toLowerCase();
    const stats = this.#stats.get(key);
    const wallet = this.#wallets.get(key);
    if (stats === undefined || wallet === undefined) return [];
    const out: SandboxClosedPosition[] = [];
    for (const [tokenId, s] of stats) {
      const token = this.#world.token(tokenId);
      if (token === undefined || s.bought === 0 || this.#engine.ledger.position(wallet.address, tokenId) !== 0) continue;
      out.push({
        wallet,
        token,
        totalBought: s.bought,
        avgPrice: Math.round((s.cost * MICROS_PER_UNIT) / s.bought),
        realizedPnl: s.proceeds - s.cost,
        curPrice: s.lastSellPrice ?? 0,
        redeemable: false,
        timestamp: s.lastTs,
      });
    }
    return out;
  }

  #record(trade: Trade): void {
    const txHash = transactionHashOf(trade);
    this.#add(trade.address, trade.tokenId, trade.side, trade.price, trade.size, trade.matchTime, true, txHash);
    for (const m of trade.makerOrders) this.#add(m.address, m.tokenId, m.side, m.price, m.matchedAmount, trade.matchTime, false, txHash);
  }

  #add(address: string, tokenId: TokenId, side: 'BUY' | 'SELL', price: Micros, size: Micros, ts: number, taker: boolean, txHash: string): void {
    const token = this.#world.token(tokenId);
    if (token === undefined) return;
    const fill: SandboxFill = { wallet: this.#walletOf(address), token, side, price, size, timestamp: ts, taker, transactionHash: txHash };
    keepNewest(this.#fills, fill, this.#history);
    const key = address.toLowerCase();
    let list = this.#byWallet.get(key);
    if (list === undefined) {
      list = [];
      this.#byWallet.set(key, list);
    }
    keepNewest(list, fill, this.#transient(address) ? this.#walletHistory : Infinity);
    let perToken = this.#stats.get(key);
    if (perToken === undefined) {
      perToken = new Map();
      this.#stats.set(key, perToken);
    }
    let s = perToken.get(tokenId);
    if (s === undefined) {
      s = { bought: 0, cost: 0, sold: 0, proceeds: 0, lastSellPrice: undefined, lastTs: ts };
      perToken.set(tokenId, s);
    }
    const value = Math.round((price * size) / MICROS_PER_UNIT);
    if (side === 'BUY') {
      s.bought += size;
      s.cost += value;
    } else {
      s.sold += size;
      s.proceeds += value;
      s.lastSellPrice = price;
    }
    s.lastTs = ts;
  }

  #walletOf(address: string): SandboxWallet {
    const key = address.toLowerCase();
    let w = this.#wallets.get(key) ?? this.#world.wallet(address);
    if (w === undefined) {
      w = Object.freeze({
        index: -1,
        address,
        baseAddress: address,
        name: '',
        pseudonym: '',
        bio: '',
        profileImage: '',
        displayUsernamePublic: false,
        isMod: false,
      });
    }
    this.#wallets.set(key, w);
    return w;
  }
}

/** Appends, and drops the oldest once the list holds twice `keep` (amortized O(1) per append). */
function keepNewest<T>(list: T[], item: T, keep: number): void {
  list.push(item);
  if (list.length >= 2 * keep) list.splice(0, list.length - keep);
}
