import type { OrderEvent } from '../core/events.ts';
import type { OrderIntent, OrderRequest, PlaceIntent } from '../core/intents.ts';
import type { MarketCache } from '../data/market-cache.ts';
import type { OrderRecord } from '../execution/order-tracker.ts';
import { diffQuotes, type RestingQuote } from '../execution/quote-diff.ts';
import type { RiskEngine } from '../risk/risk-engine.ts';
import { withRefs, type EngineDesk } from './engine-desk.ts';
import type { FillBook } from './fill-book.ts';
import type { OrderCanceller } from './order-canceller.ts';
import type { OrderSubmitter } from './order-submitter.ts';
import { DEFAULT_CLOSED_ORDER_RETENTION_MS } from './ports.ts';
import { QuoteHolds } from './quote-holds.ts';
import type { UnbookedSells } from './unbooked-sells.ts';
import { BasketExecutor } from './executors/basket.ts';
import type { BasketEvent } from '../core/basket-events.ts';
import type { RiskSnapshot } from './risk-snapshot.ts';
import { DENY_LABELS, ENGINE_METRICS } from './engine-metrics.ts';

/** Tick assumed for a quote on a token the cache does not know (0.01). */
const DEFAULT_TICK = 10_000;

export interface IntentRouterParts {
  readonly desk: EngineDesk;
  readonly cache: MarketCache;
  readonly risk: RiskEngine;
  readonly snapshot: RiskSnapshot;
  readonly canceller: OrderCanceller;
  readonly submitter: OrderSubmitter;
  readonly fills: FillBook;
  /** Prefix of client order ids. */
  readonly runId: string;
  /** Whether the strategy is hosted (after stop, intents of unknown ids are dropped). */
  readonly hosts: (strategyId: string) => boolean;
  /** The kill switch denied an order (its message): the engine raises its latched halt. */
  readonly killSwitch?: (message: string) => void;
  /** Shares of a token the account holds and its collateral (what the venue locks orders against). */
  readonly held: (tokenId: string) => number;
  readonly cash: () => number;
  /** Shares our closed SELLs may have sold at the venue beyond their booked fills (a SELL waits on them). */
  readonly unbooked?: UnbookedSells;
  /** Whether the strategy is running (a quote held for a cancel's answer goes out only then). */
  readonly running: (strategyId: string) => boolean;
  /** Tells a strategy what became of its basket. */
  readonly basket: (strategyId: string, event: BasketEvent) => void;
}

/**
 * Turns a strategy's intents into orders: cancels and cancel-alls go to the canceller, quotes
 * are diffed against the strategy's resting orders (kept within tolerance, the rest cancelled,
 * the missing levels placed, a level that would fight an order being cancelled held until that
 * cancel is answered: quote-holds.ts), places become requests with a fresh client order id, are checked
 * by risk as one batch (the engine gates first), and what risk approves is tracked and queued
 * for posting; baskets go to the basket executor (executors/basket.ts). Every denial reaches the
 * strategy as OrderDenied with its code; a kill-switch denial also raises the engine's latched
 * `killSwitch` halt.
 */
export class IntentRouter {
  readonly #p: IntentRouterParts;
  readonly #holds: QuoteHolds;
  readonly #baskets: BasketExecutor;
  #seq = 0;

  constructor(parts: IntentRouterParts) {
    this.#p = parts;
    this.#holds = new QuoteHolds({
      tracker: parts.desk.tracker,
      unbooked: parts.unbooked,
      held: parts.held,
      cash: parts.cash,
      scheduler: parts.desk.clock.scheduler,
      retry: (strategyId, intent) => this.handle(strategyId, [intent]),
      live: (strategyId) => !parts.desk.stopped && parts.running(strategyId),
    });
    this.#baskets = new BasketExecutor({
      desk: parts.desk,
      cache: parts.cache,
      risk: parts.risk,
      snapshot: parts.snapshot,
      submitter: parts.submitter,
      nextClientOrderId: () => this.#nextClientOrderId(),
      tell: parts.basket,
      killSwitch: parts.killSwitch,
    });
  }

  /** Something held quotes on a market may wait on changed (shares in doubt settled): they are diffed again. */
  wakeHolds(conditionId: string): void {
    this.#holds.wake(conditionId);
  }

  /** Quote levels held back so far until a cancel they would fight was answered. */
  get heldQuoteLevels(): number {
    return this.#holds.heldLevels;
  }

  handle(strategyId: string, intents: readonly OrderIntent[]): void {
    const { desk, cache, canceller } = this.#p;
    const tracker = desk.tracker;
    if (desk.stopped && !this.#p.hosts(strategyId)) return;
    const places: PlaceIntent[] = [];
    for (const intent of intents) {
      switch (intent.kind) {
        case 'place':
          places.push(intent);
          break;
        case 'cancel': {
          const record = tracker.byClientId(intent.clientOrderId);
          if (record && record.request.strategyId === strategyId) {
            canceller.request(record);
            this.#holds.dropStrategy(strategyId, { tokenId: record.request.tokenId });
          }
          break;
        }
        case 'cancelAll':
          this.#holds.dropStrategy(strategyId, intent);
          for (const record of tracker.open({ strategyId, conditionId: intent.conditionId, tokenId: intent.tokenId })) canceller.request(record);
          break;
        case 'basket':
          this.#baskets.place(strategyId, intent);
          break;
        case 'quote': {
          const tick = cache.get(intent.tokenId)?.rules.tickSize ?? DEFAULT_TICK;
          // one pass (a quoter sends a quote on most of its calls)
          const resting: RestingQuote[] = [];
          for (const r of tracker.open({ strategyId, tokenId: intent.tokenId })) {
            if (r.status === 'CANCEL_PENDING' || r.cancelWhenLive) continue;
            resting.push({ clientOrderId: r.request.clientOrderId, side: r.request.side, price: r.request.price, remaining: tracker.remaining(r) });
          }
          const tolerance = desk.settings.quoteTolerance;
          const diff = diffQuotes(intent, resting, { priceMicros: tolerance.priceTicks * tick, sizeShare: tolerance.sizeShare });
          for (const id of diff.cancel) {
            const record = tracker.byClientId(id);
            if (record) canceller.request(record);
          }
          const state = cache.get(intent.tokenId);
          const go = this.#holds.split(strategyId, intent, state?.token.conditionId ?? '', state?.token.complementTokenId, diff.place);
          for (const p of go) {
            places.push({ kind: 'place', tokenId: intent.tokenId, side: p.side, price: p.price, size: p.size, orderType: 'GTC', postOnly: true, tag: 'quote', ref: intent.ref, group: intent.group });
          }
          break;
        }
      }
    }
    if (places.length > 0) this.#placeAll(strategyId, places);
  }

  /**
   * Places SELLs that only close the strategy's positions (the flatten command's): reduce-only
   * orders, which pass a halt (risk's engine gates); returns their client order ids.
   */
  closePositions(strategyId: string, sells: readonly PlaceIntent[]): string[] {
    return this.#placeAll(strategyId, sells, true);
  }

  #placeAll(strategyId: string, places: readonly PlaceIntent[], reduceOnly?: true): string[] {
    const { desk, cache, risk, snapshot, submitter } = this.#p;
    const now = desk.clock.now();
    this.#forgetClosed(now);
    const requests: OrderRequest[] = [];
    for (const intent of places) {
      const state = cache.get(intent.tokenId);
      // field by field: an object spread with added keys takes V8's slow path (about 4 µs an order)
      requests.push({
        kind: 'place',
        tokenId: intent.tokenId,
        side: intent.side,
        price: intent.price,
        size: intent.size,
        orderType: intent.orderType ?? 'GTC',
        postOnly: intent.postOnly,
        expiresAt: intent.expiresAt,
        tag: intent.tag,
        ref: intent.ref,
        group: intent.group,
        strategyId,
        clientOrderId: this.#nextClientOrderId(),
        conditionId: state?.token.conditionId ?? '',
        createdAt: now,
        reduceOnly,
      });
    }
    const verdicts = risk.checkBatch(requests, snapshot.take(now));
    const approved: OrderRecord[] = [];
    let tripped: string | undefined;
    // the tick these orders answer: the market event being handled, else (a timer, a fill) now
    let tick = desk.tickAt;
    for (let i = 0; i < requests.length; i++) {
      const request = requests[i]!;
      const denial = verdicts[i];
      if (denial) {
        desk.metrics.inc(ENGINE_METRICS.denied, DENY_LABELS[denial.code]);
        if (denial.check === 'killSwitch') tripped ??= denial.message;
        // a denied order is never tracked: its refs go on the event here (the desk adds them for tracked ones)
        desk.orderEvent(strategyId, withRefs<OrderEvent>({ type: 'OrderDenied', clientOrderId: request.clientOrderId, code: denial.code, reason: denial.message, tsInit: now }, request));
        continue;
      }
      const record = desk.addOrder(request, now);
      if (tick === 0) tick = desk.stopwatch();
      record.tickAt = tick;
      approved.push(record);
      snapshot.noteOrder(now);
    }
    submitter.submit(approved);
    if (tripped !== undefined) this.#p.killSwitch?.(tripped);
    return requests.map((r) => r.clientOrderId);
  }

  /** Drops finished orders older than the retention from memory (with the trades booked on them). */
  #forgetClosed(now: number): void {
    const { desk, fills } = this.#p;
    const retention = desk.settings.closedOrderRetentionMs ?? DEFAULT_CLOSED_ORDER_RETENTION_MS;
    for (const record of desk.tracker.forget(now - retention)) {
      if (record.orderId !== undefined) fills.forget(record.orderId);
    }
  }

  #nextClientOrderId(): string {
    const persistence = this.#p.desk.persistence;
    const seq = persistence ? persistence.nextClientSeq() : ++this.#seq;
    return `${this.#p.runId}${seq.toString(16).padStart(24, '0')}`;
  }
}
