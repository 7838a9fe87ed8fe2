import type { SchedulerLike } from 'rxjs';
import type { Micros } from '../core/fixed.ts';
import type { QuoteIntent } from '../core/intents.ts';
import type { Side, TokenId } from '../core/types.ts';
import type { OrderRecord, OrderTracker } from '../execution/order-tracker.ts';
import { crossesOwn } from '../risk/checks/self-cross.ts';
import type { UnbookedSells } from './unbooked-sells.ts';

/** A level the quote diff wants placed. */
export interface WantedPlace {
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
}

export interface QuoteHoldParts {
  readonly tracker: OrderTracker;
  /** Shares our closed SELLs may have sold at the venue beyond their booked fills (unbooked-sells.ts). */
  readonly unbooked?: UnbookedSells;
  /** Shares of a token the account holds (what the venue locks a SELL against). */
  readonly held: (tokenId: TokenId) => Micros;
  /** The account's collateral (what the venue locks a BUY against). */
  readonly cash: () => Micros;
  readonly scheduler: SchedulerLike;
  /** Hands a held quote back to the router (it diffs again, and may hold again). */
  readonly retry: (strategyId: string, intent: QuoteIntent) => void;
  /** Whether held quotes may still go out (the engine runs, the strategy runs). */
  readonly live: (strategyId: string) => boolean;
}

/**
 * Quotes that never fight themselves. A quote change cancels old orders and places new ones in
 * the same turn, but the venue still holds an order until its cancel is answered: a new SELL
 * would find the shares locked by the old one ("not enough balance"), a new BUY at or above the
 * old ask would cross it (SELF_CROSS), and the same for cash and the complement token. So a level
 * the diff wants is held back while it conflicts with one of our orders being cancelled (any
 * strategy's: the venue does not know strategies), and the strategy's newest quote on that token
 * is diffed again as soon as a cancel on its market is answered. A newer quote, a cancel or a
 * cancel-all of the strategy on that token replaces or drops the held one.
 *
 * A SELL is held the same way while it needs shares the venue may already have sold for us, the
 * fill not booked yet (an old SELL matched before its cancel: unbooked-sells.ts): those whose
 * matched size is not known are looked up, and the quote is diffed again when a lookup answers or
 * the fill is booked. So a SELL never goes out on shares the venue no longer holds for us.
 */
export class QuoteHolds {
  readonly #p: QuoteHoldParts;
  /** The newest held quote per strategy and token. */
  readonly #held = new Map<string, { strategyId: string; conditionId: string; intent: QuoteIntent }>();
  /** How many held quotes each market (condition id) has. */
  readonly #byCondition = new Map<string, number>();
  #scheduled = false;
  /** Levels held back, in all (a diff that holds twice counts twice). */
  heldLevels = 0;

  constructor(parts: QuoteHoldParts) {
    this.#p = parts;
    parts.tracker.onStatus((record) => this.#changed(record));
  }

  /** Held quotes waiting for a cancel's answer. */
  get size(): number {
    return this.#held.size;
  }

  /**
   * The levels of `wanted` that can go out now; the others are held, and then `intent` is kept
   * to be diffed again once the cancels it waits for are answered. Call after the diff's cancels
   * were requested (they are then pending).
   */
  split(strategyId: string, intent: QuoteIntent, conditionId: string, complementId: TokenId | undefined, wanted: readonly WantedPlace[]): WantedPlace[] {
    const key = keyOf(strategyId, intent.tokenId);
    this.#drop(key);
    if (wanted.length === 0) return [];
    const tokenId = intent.tokenId;
    const pending = this.#pending(tokenId, conditionId);
    const unbooked = this.#p.unbooked;
    const doubted = unbooked?.has(tokenId) === true;
    if (pending.length === 0 && !doubted) return [...wanted];
    // shares of the token the venue may have sold beyond our booked fills, and the orders not looked up yet
    let doubt: { shares: number; unknown: OrderRecord[] } | undefined;
    const go: WantedPlace[] = [];
    let sharesFree: number | undefined;
    let cashFree: number | undefined;
    let holding = false;
    for (const place of wanted) {
      const req = { tokenId, conditionId, side: place.side, price: place.price };
      let wait = pending.some((o) => crossesOwn(req, o, complementId) !== undefined);
      if (!wait && place.side === 'SELL' && (doubted || pending.some((o) => o.tokenId === tokenId && o.side === 'SELL'))) {
        if (sharesFree === undefined) {
          doubt = doubted ? unbooked.doubt(tokenId) : undefined;
          sharesFree = this.#p.held(tokenId) - this.#lockedShares(tokenId) - (doubt?.shares ?? 0);
        }
        if (place.size > sharesFree) {
          wait = true;
          // what the venue matched of them says how many shares are really gone
          if (doubt !== undefined && doubt.unknown.length > 0) unbooked?.lookUp(doubt.unknown);
        } else sharesFree -= place.size;
      } else if (!wait && place.side === 'BUY' && pending.some((o) => o.side === 'BUY')) {
        cashFree ??= this.#p.cash() - this.#lockedCash();
        const cost = (place.price * place.size) / 1e6;
        if (cost > cashFree) wait = true;
        else cashFree -= cost;
      }
      if (wait) holding = true;
      else go.push(place);
    }
    if (holding) {
      this.heldLevels += wanted.length - go.length;
      this.#held.set(key, { strategyId, conditionId, intent });
      this.#byCondition.set(conditionId, (this.#byCondition.get(conditionId) ?? 0) + 1);
    }
    return go;
  }

  /** The strategy cancelled its orders (on a token, a market, or all): its held quotes there go. */
  dropStrategy(strategyId: string, where: { readonly tokenId?: TokenId; readonly conditionId?: string } = {}): void {
    if (where.tokenId !== undefined) {
      this.#drop(keyOf(strategyId, where.tokenId));
      return;
    }
    for (const [key, h] of this.#held) {
      if (h.strategyId === strategyId && (where.conditionId === undefined || h.conditionId === where.conditionId)) this.#drop(key);
    }
  }

  #drop(key: string): void {
    const h = this.#held.get(key);
    if (!h) return;
    this.#held.delete(key);
    const n = (this.#byCondition.get(h.conditionId) ?? 1) - 1;
    if (n > 0) this.#byCondition.set(h.conditionId, n);
    else this.#byCondition.delete(h.conditionId);
  }

  /** Our open orders on the token's market that are being cancelled and may still rest at the venue. */
  #pending(tokenId: TokenId, conditionId: string): { clientOrderId: string; strategyId: string; tokenId: TokenId; conditionId: string; side: Side; price: Micros; remaining: Micros }[] {
    const out = [];
    for (const r of this.#p.tracker.open()) {
      const o = r.request;
      if (o.tokenId !== tokenId && (conditionId === '' || o.conditionId !== conditionId)) continue;
      if (r.status !== 'CANCEL_PENDING' && !r.cancelWhenLive) continue;
      const remaining = o.size - r.filled;
      if (remaining <= 0) continue;
      out.push({ clientOrderId: o.clientOrderId, strategyId: o.strategyId, tokenId: o.tokenId, conditionId: o.conditionId, side: o.side, price: o.price, remaining });
    }
    return out;
  }

  /**
   * Shares of the token our open SELLs lock at the venue (those being cancelled too), or sold
   * there: each one's size less its booked fills (what the venue says it matched beyond them is
   * sold, the fill on its way).
   */
  #lockedShares(tokenId: TokenId): number {
    const unbooked = this.#p.unbooked;
    let locked = 0;
    for (const r of this.#p.tracker.open({ tokenId })) {
      if (r.request.side === 'SELL') locked += Math.max(0, r.request.size - (unbooked === undefined ? r.filled : unbooked.booked(r)));
    }
    return locked;
  }

  /** Collateral our open BUYs lock at the venue (those being cancelled too). */
  #lockedCash(): number {
    let locked = 0;
    for (const r of this.#p.tracker.open()) if (r.request.side === 'BUY') locked += (r.request.price * Math.max(0, r.request.size - r.filled)) / 1e6;
    return locked;
  }

  /** An order changed status: a cancel on a market with held quotes may have been answered. */
  #changed(record: OrderRecord): void {
    if (record.status !== 'CANCEL_PENDING') this.wake(record.request.conditionId);
  }

  /** Something a held quote may wait on changed on a market (a cancel answered, shares in doubt settled): held quotes there are diffed again. */
  wake(conditionId: string): void {
    if (this.#scheduled || !this.#byCondition.has(conditionId)) return;
    this.#scheduled = true;
    // after the answer is fully applied (its events out), never inside the tracker's change
    this.#p.scheduler.schedule(() => this.#retryAll(), 0);
  }

  #retryAll(): void {
    this.#scheduled = false;
    const held = [...this.#held.values()];
    this.#held.clear();
    this.#byCondition.clear();
    for (const h of held) {
      if (this.#p.live(h.strategyId)) this.#p.retry(h.strategyId, h.intent);
    }
  }
}

function keyOf(strategyId: string, tokenId: TokenId): string {
  return `${strategyId}\u0000${tokenId}`;
}
