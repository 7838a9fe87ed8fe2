import { bestBid } from '../core/book.ts';
import type { PlaceIntent } from '../core/intents.ts';
import type { MarketCache } from '../data/market-cache.ts';
import { OPEN_STATUSES } from '../execution/order-tracker.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';
import type { CommandResult, FlattenLeft } from './commands.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { EngineEvent } from './ports.ts';

/** Default band of a flatten: SELLs go no lower than this many cents under the best bid. */
export const DEFAULT_FLATTEN_BAND_CENTS = 5;
/** Widest band a flatten takes, cents (a price is within 1 cent and 99 cents). */
export const MAX_FLATTEN_BAND_CENTS = 99;
/** How long a flatten waits for its cancels before selling anyway, ms (clock time). */
export const FLATTEN_CANCEL_WAIT_MS = 10_000;
/** How long a flatten waits, once its SELLs are answered, for their fills to be booked, ms (clock time). */
export const FLATTEN_SETTLE_WAIT_MS = 5_000;

const MICROS_PER_CENT = 10_000;
/** Tick assumed for a token the cache does not know (0.01). */
const DEFAULT_TICK = 10_000;

export interface FlattenerParts {
  readonly desk: EngineDesk;
  readonly cache: MarketCache;
  readonly ledger: StrategyLedger;
  /** Places reduce-only SELLs for a strategy (IntentRouter.closePositions); their client order ids. */
  readonly closePositions: (strategyId: string, sells: readonly PlaceIntent[]) => string[];
}

interface Flatten {
  readonly bandCents: number;
  /** When it started (clock time, epoch ms). */
  readonly since: number;
  phase: 'cancelling' | 'selling' | 'settling';
  /** Client order ids of its SELLs. */
  readonly orders: Set<string>;
  /** Why a SELL did not close its position (denied, rejected), by token. */
  readonly why: Map<string, string>;
  /** Positions with no bid within the band when the SELLs went out. */
  readonly unsellable: Map<string, string>;
  placed: number;
  /** What to undo when it ends: its bus listener and timers. */
  readonly undo: (() => void)[];
  advanceQueued: boolean;
}

/**
 * The `flatten` command's work after its start (commands.ts): waits for our open orders to be
 * gone, SELLs every strategy's positions (fill-and-kill, no lower than the band under the best
 * bid, reduce-only so the halt lets them through), waits for them to be answered and their fills
 * booked, then verifies no position is left and puts the outcome on the bus as a `command` event
 * (phase `verified`). Driven by the bus's events and a deadline on the clock, one step at a time
 * outside the event that woke it (so an order it places is not placed inside another's emit).
 */
export class Flattener {
  readonly #p: FlattenerParts;
  #run: Flatten | undefined;

  constructor(parts: FlattenerParts) {
    this.#p = parts;
  }

  get active(): boolean {
    return this.#run !== undefined;
  }

  /** The flatten under way (its band, when it started), if any: the run's health reads `reduceOnly` meanwhile. */
  get under(): { readonly bandCents: number; readonly since: number } | undefined {
    const run = this.#run;
    return run === undefined ? undefined : { bandCents: run.bandCents, since: run.since };
  }

  /** Positions the run holds now, by strategy (size in micros > 0). */
  positions(): { strategyId: string; tokenId: string; size: number }[] {
    const out: { strategyId: string; tokenId: string; size: number }[] = [];
    for (const strategyId of this.#p.ledger.strategyIds()) {
      for (const p of this.#p.ledger.positions(strategyId)) if (p.size > 0) out.push({ strategyId, tokenId: p.tokenId, size: p.size });
    }
    return out;
  }

  /** Starts a flatten (the halt is on and the cancels asked for already); returns how many positions it will close. */
  begin(bandCents: number): number {
    const { desk } = this.#p;
    const run: Flatten = { bandCents, since: desk.clock.now(), phase: 'cancelling', orders: new Set(), why: new Map(), unsellable: new Map(), placed: 0, undo: [], advanceQueued: false };
    this.#run = run;
    run.undo.push(desk.bus.subscribe((event) => this.#heard(run, event)));
    this.#later(run, FLATTEN_CANCEL_WAIT_MS, () => this.#sell(run));
    this.#queue(run);
    return this.positions().length;
  }

  #heard(run: Flatten, event: EngineEvent): void {
    if (event.type === 'order' && run.orders.has(event.event.clientOrderId)) {
      const e = event.event;
      const tokenId = this.#p.desk.tracker.byClientId(e.clientOrderId)?.request.tokenId;
      if (tokenId !== undefined && (e.type === 'OrderDenied' || e.type === 'OrderRejected')) run.why.set(tokenId, `${e.type === 'OrderDenied' ? `denied ${e.code}` : 'rejected'}: ${e.reason}`);
    }
    if (event.type === 'order' || event.type === 'fill') this.#queue(run);
  }

  /** Looks again at the next turn (never inside the emit that woke it). */
  #queue(run: Flatten): void {
    if (run.advanceQueued) return;
    run.advanceQueued = true;
    this.#later(run, 0, () => {
      run.advanceQueued = false;
      this.#advance(run);
    });
  }

  /** Runs `fn` after `ms` of clock time, unless the flatten ended meanwhile. */
  #later(run: Flatten, ms: number, fn: () => void): void {
    const sub = this.#p.desk.clock.scheduler.schedule(() => {
      if (this.#run === run) fn();
    }, ms);
    run.undo.push(() => sub.unsubscribe());
  }

  #advance(run: Flatten): void {
    const { desk } = this.#p;
    if (run.phase === 'cancelling') {
      if (desk.tracker.open().length === 0) this.#sell(run);
      return;
    }
    const answered = [...run.orders].every((id) => {
      const record = desk.tracker.byClientId(id);
      return record === undefined || !OPEN_STATUSES.has(record.status);
    });
    if (!answered) return;
    if (this.positions().length === 0) return this.#end(run);
    if (run.phase === 'selling') {
      // answered, fills maybe not booked yet: give them a little time, then verify whatever holds
      run.phase = 'settling';
      this.#later(run, FLATTEN_SETTLE_WAIT_MS, () => this.#end(run));
    }
  }

  /** Places the SELLs (once: when no order of ours is open, or at the cancel deadline). */
  #sell(run: Flatten): void {
    if (this.#run !== run || run.phase !== 'cancelling') return;
    run.phase = 'selling';
    const { desk, cache } = this.#p;
    desk.transaction(() => {
      const byStrategy = new Map<string, PlaceIntent[]>();
      for (const p of this.positions()) {
        const state = cache.get(p.tokenId);
        const bid = bestBid(state?.book);
        if (bid === undefined) {
          run.unsellable.set(p.tokenId, 'no bid in the book');
          continue;
        }
        const tick = state?.rules.tickSize ?? DEFAULT_TICK;
        const floor = Math.max(tick, Math.ceil((bid - run.bandCents * MICROS_PER_CENT) / tick) * tick);
        const sells = byStrategy.get(p.strategyId) ?? [];
        sells.push({ kind: 'place', tokenId: p.tokenId, side: 'SELL', price: floor, size: p.size, orderType: 'FAK', tag: 'flatten' });
        byStrategy.set(p.strategyId, sells);
      }
      for (const [strategyId, sells] of byStrategy) {
        for (const id of this.#p.closePositions(strategyId, sells)) run.orders.add(id);
        run.placed += sells.length;
      }
    });
    this.#queue(run);
  }

  #end(run: Flatten): void {
    const { desk } = this.#p;
    this.#run = undefined;
    for (const undo of run.undo) undo();
    const left: FlattenLeft[] = this.positions().map((p) => {
      const why = run.unsellable.get(p.tokenId) ?? run.why.get(p.tokenId);
      return why === undefined ? p : { ...p, why };
    });
    const band = `${run.bandCents} cent(s) under the best bid`;
    const message =
      left.length === 0
        ? `flatten verified: no position left (${run.placed} SELL order(s) within ${band}); trading stays halted (manual) until resumed`
        : `flatten ended with ${left.length} position(s) left (no buyer within ${band} for all of them); trading stays halted (manual) until resumed`;
    const result: CommandResult = { ok: left.length === 0, command: 'flatten', message, phase: 'verified', orders: run.placed, left };
    desk.transaction(() => desk.emit({ type: 'command', command: { type: 'flatten', bandCents: run.bandCents }, result, at: desk.clock.now() }));
    if (result.ok) desk.log.info('flatten verified', { orders: run.placed });
    else desk.log.warn('flatten left positions', { left: left.length, orders: run.placed });
  }
}

