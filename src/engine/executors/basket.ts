import type { Subscription } from 'rxjs';
import type { BasketEvent, BasketOrderResult } from '../../core/basket-events.ts';
import type { OrderEvent } from '../../core/events.ts';
import type { Micros } from '../../core/fixed.ts';
import type { BasketIntent, OrderRequest } from '../../core/intents.ts';
import { notional } from '../../core/money.ts';
import type { Side, TokenId } from '../../core/types.ts';
import type { MarketCache } from '../../data/market-cache.ts';
import { OPEN_STATUSES, type OrderRecord } from '../../execution/order-tracker.ts';
import type { RiskEngine } from '../../risk/risk-engine.ts';
import { withRefs, type EngineDesk } from '../engine-desk.ts';
import { DENY_LABELS, ENGINE_METRICS } from '../engine-metrics.ts';
import type { OrderSubmitter } from '../order-submitter.ts';
import type { EngineEvent } from '../ports.ts';
import type { RiskSnapshot } from '../risk-snapshot.ts';
import { unwindLimits, unwindNeed, type FilledLeg } from './basket-unwind.ts';

/** How long a basket waits for its orders' answers and fills before it is judged on what is booked, ms. */
export const BASKET_SETTLE_TIMEOUT_MS = 30_000;
/** How many times the unfilled part of an unwind is sent again (same limits), and the wait between, ms. */
export const UNWIND_ATTEMPTS = 3;
export const UNWIND_RETRY_MS = 1_000;

export interface BasketExecutorParts {
  readonly desk: EngineDesk;
  readonly cache: MarketCache;
  readonly risk: RiskEngine;
  readonly snapshot: RiskSnapshot;
  readonly submitter: OrderSubmitter;
  /** A fresh client order id (the intent router's). */
  readonly nextClientOrderId: () => string;
  /** Tells the strategy the basket's outcome. */
  readonly tell: (strategyId: string, event: BasketEvent) => void;
  /** The kill switch denied the basket (its message): the engine raises its latched halt. */
  readonly killSwitch?: (message: string) => void;
}

/** One order of a basket, with what its fills booked (from the bus). */
interface BasketOrder {
  readonly leg: number;
  readonly record: OrderRecord;
  notional: Micros;
  fee: Micros;
}

interface Basket {
  readonly id: string;
  readonly strategyId: string;
  readonly intent: BasketIntent;
  readonly legs: readonly BasketOrder[];
  phase: 'legs' | 'unwind' | 'done';
  unwind: BasketOrder[];
  /** Per filled leg: the unwind's limit (undefined: none keeps it within the cap) and sizes still to trade back. */
  limits: Map<number, Micros | undefined>;
  attempts: number;
  /** A check of the basket is scheduled for after this turn. */
  queued: boolean;
  timer: Subscription | undefined;
}

const TERMINAL_WITHOUT_FILL = new Set(['REJECTED', 'CANCELED', 'EXPIRED']);

/**
 * The basket executor: a `basket` intent's legs become FOK/FAK orders checked by risk as ONE
 * basket (RiskEngine.checkBasket: one denial for all, no leg sent) and posted in ONE batch
 * (OrderSubmitter.submitTogether). It follows the legs on the engine's bus (answers, fills) and,
 * once every leg is answered and its fills booked, tells the strategy: BasketCompleted, or for a
 * partial basket BasketPartial (`hold`) or, after trading the filled legs back within the loss
 * cap (basket-unwind.ts), BasketUnwound (`unwind`). Each check runs after the engine's turn, so
 * the strategy hears the orders' own events and fills first. The same code in every mode.
 */
export class BasketExecutor {
  readonly #p: BasketExecutorParts;
  readonly #byOrder = new Map<string, { basket: Basket; order: BasketOrder }>();
  readonly #baskets = new Set<Basket>();

  constructor(parts: BasketExecutorParts) {
    this.#p = parts;
    parts.desk.bus.subscribe((event) => this.#onEvent(event));
  }

  /** Baskets not yet told. */
  get active(): number {
    return this.#baskets.size;
  }

  place(strategyId: string, intent: BasketIntent): void {
    const { desk, cache, risk, snapshot, submitter } = this.#p;
    const now = desk.clock.now();
    const requests: OrderRequest[] = intent.legs.map((leg) => ({
      kind: 'place',
      tokenId: leg.tokenId,
      side: leg.side,
      price: leg.price,
      size: leg.size,
      orderType: intent.orderType,
      tag: 'basket',
      ref: intent.ref,
      group: intent.group,
      strategyId,
      clientOrderId: this.#p.nextClientOrderId(),
      conditionId: cache.get(leg.tokenId)?.token.conditionId ?? '',
      createdAt: now,
    }));
    const id = requests[0]!.clientOrderId;
    const denial = risk.checkBasket(requests, snapshot.take(now));
    if (denial !== undefined) {
      desk.metrics.inc(ENGINE_METRICS.denied, DENY_LABELS[denial.code]);
      // one denial for the whole basket, under the basket's id; no leg is tracked or sent
      desk.orderEvent(strategyId, withRefs<OrderEvent>({ type: 'OrderDenied', clientOrderId: id, code: denial.code, reason: denial.message, tsInit: now }, intent));
      if (denial.check === 'killSwitch') this.#p.killSwitch?.(denial.message);
      return;
    }
    const tick = desk.tickAt === 0 ? desk.stopwatch() : desk.tickAt;
    const legs = requests.map((request, leg) => {
      const record = desk.addOrder(request, now);
      record.tickAt = tick;
      snapshot.noteOrder(now);
      return { leg, record, notional: 0, fee: 0 };
    });
    const basket: Basket = { id, strategyId, intent, legs, phase: 'legs', unwind: [], limits: new Map(), attempts: 0, queued: false, timer: undefined };
    this.#baskets.add(basket);
    for (const order of legs) this.#byOrder.set(order.record.request.clientOrderId, { basket, order });
    basket.timer = desk.clock.scheduler.schedule(() => this.#timedOut(basket), BASKET_SETTLE_TIMEOUT_MS);
    desk.subs.add(basket.timer);
    submitter.submitTogether(legs.map((o) => o.record));
  }

  #onEvent(event: EngineEvent): void {
    let clientOrderId: string;
    if (event.type === 'fill') clientOrderId = event.fill.clientOrderId;
    else if (event.type === 'order') clientOrderId = event.event.clientOrderId;
    else return;
    const hit = this.#byOrder.get(clientOrderId);
    if (hit === undefined) return;
    if (event.type === 'fill') {
      hit.order.notional += notional(event.fill.price, event.fill.size);
      hit.order.fee += event.fill.fee;
    }
    this.#queue(hit.basket);
  }

  /** Checks the basket after this turn (its orders' events and fills reach the strategy first). */
  #queue(basket: Basket): void {
    if (basket.queued || basket.phase === 'done') return;
    basket.queued = true;
    this.#p.desk.clock.scheduler.schedule(() => {
      basket.queued = false;
      this.#p.desk.transaction(() => this.#check(basket, false));
    }, 0);
  }

  #timedOut(basket: Basket): void {
    if (basket.phase === 'done') return;
    this.#p.desk.log.warn('basket orders not all answered in time; judged on what is booked', { basket: basket.id, phase: basket.phase });
    this.#p.desk.transaction(() => this.#check(basket, true));
  }

  #check(basket: Basket, force: boolean): void {
    if (basket.phase === 'legs') {
      if (!force && !basket.legs.every(settled)) return;
      this.#legsDone(basket);
    } else if (basket.phase === 'unwind') {
      if (!force && !basket.unwind.every(settled)) return;
      this.#unwindDone(basket, force);
    }
  }

  #legsDone(basket: Basket): void {
    const { intent } = basket;
    const complete = basket.legs.every((o) => o.record.filled >= o.record.request.size);
    if (complete) return this.#finish(basket, { type: 'BasketCompleted', ...this.#base(basket) });
    if (intent.onPartial === 'hold') {
      const filledLegs = basket.legs.filter((o) => o.record.filled >= o.record.request.size).length;
      return this.#finish(basket, { type: 'BasketPartial', filledLegs, ...this.#base(basket) });
    }
    const filled = basket.legs.filter((o) => o.record.filled > 0);
    const { cache } = this.#p;
    const legs: FilledLeg[] = filled.map((o) => {
      const state = cache.get(o.record.request.tokenId);
      const rules = state?.rules;
      const takerFeeBps = rules?.takerBaseFeeBps ?? 0;
      const side = o.record.request.side;
      const need = state?.book === undefined ? undefined : unwindNeed(side === 'BUY' ? state.book.bids : state.book.asks, side, o.record.filled, o.notional + (side === 'BUY' ? o.fee : -o.fee), takerFeeBps);
      return { side, filled: o.record.filled, notional: o.notional, fee: o.fee, tickSize: rules?.tickSize ?? 10_000, takerFeeBps, need };
    });
    const limits = unwindLimits(legs, intent.maxUnwindLoss);
    filled.forEach((o, i) => basket.limits.set(o.leg, limits[i]));
    basket.phase = 'unwind';
    this.#sendUnwind(basket);
  }

  /** Sends, for each filled leg not yet traded back, a FAK order for what is left at its limit. */
  #sendUnwind(basket: Basket): void {
    const { desk, risk, snapshot, submitter, cache } = this.#p;
    const now = desk.clock.now();
    basket.attempts++;
    const requests: { leg: number; request: OrderRequest }[] = [];
    if (!desk.stopped) {
      for (const [leg, limit] of basket.limits) {
        const left = this.#residual(basket, leg);
        if (limit === undefined || left <= 0) continue;
        const source = basket.legs[leg]!.record.request;
        const side: Side = source.side === 'BUY' ? 'SELL' : 'BUY';
        const minSize = cache.get(source.tokenId)?.rules.minOrderSize ?? 0;
        if (left < minSize) continue;
        requests.push({
          leg,
          request: {
            kind: 'place',
            tokenId: source.tokenId,
            side,
            price: limit,
            size: left,
            orderType: 'FAK',
            tag: 'basket-unwind',
            ref: source.ref,
            group: source.group,
            strategyId: basket.strategyId,
            clientOrderId: this.#p.nextClientOrderId(),
            conditionId: source.conditionId,
            createdAt: now,
          },
        });
      }
    }
    if (requests.length === 0) return this.#unwindDone(basket, true);
    const verdicts = risk.checkBatch(
      requests.map((r) => r.request),
      snapshot.take(now),
    );
    const approved: OrderRecord[] = [];
    requests.forEach(({ leg, request }, i) => {
      const denial = verdicts[i];
      if (denial !== undefined) {
        desk.metrics.inc(ENGINE_METRICS.denied, DENY_LABELS[denial.code]);
        desk.orderEvent(basket.strategyId, withRefs<OrderEvent>({ type: 'OrderDenied', clientOrderId: request.clientOrderId, code: denial.code, reason: denial.message, tsInit: now }, request));
        return;
      }
      const record = desk.addOrder(request, now);
      snapshot.noteOrder(now);
      const order: BasketOrder = { leg, record, notional: 0, fee: 0 };
      basket.unwind.push(order);
      this.#byOrder.set(request.clientOrderId, { basket, order });
      approved.push(record);
    });
    if (approved.length === 0) return this.#unwindDone(basket, true);
    submitter.submitTogether(approved);
  }

  /** Shares of a leg still held: filled less what its unwinding orders filled. */
  #residual(basket: Basket, leg: number): Micros {
    let left = basket.legs[leg]!.record.filled;
    for (const o of basket.unwind) if (o.leg === leg) left -= o.record.filled;
    return Math.max(0, left);
  }

  #unwindDone(basket: Basket, final: boolean): void {
    const { desk } = this.#p;
    const left = [...basket.limits].some(([leg, limit]) => limit !== undefined && this.#residual(basket, leg) > 0);
    if (left && !final && basket.attempts < UNWIND_ATTEMPTS && !desk.stopped) {
      // the bids were thinner than the filled size: the rest goes again a little later, same limits
      const sub = desk.clock.scheduler.schedule(() => desk.transaction(() => this.#sendUnwind(basket)), UNWIND_RETRY_MS);
      desk.subs.add(sub);
      return;
    }
    const base = this.#base(basket);
    const unwind = basket.unwind.map((o) => result(o));
    let proceeds = 0;
    for (const o of unwind) proceeds += (o.side === 'SELL' ? o.notional : -o.notional) - o.fee;
    const residual: { tokenId: TokenId; size: Micros }[] = [];
    for (const leg of basket.limits.keys()) {
      const size = this.#residual(basket, leg);
      if (size > 0) residual.push({ tokenId: basket.legs[leg]!.record.request.tokenId, size });
    }
    this.#finish(basket, {
      type: 'BasketUnwound',
      ...base,
      unwind,
      proceeds,
      loss: base.cost - proceeds,
      maxUnwindLoss: basket.intent.maxUnwindLoss,
      flat: residual.length === 0,
      residual,
    });
  }

  #base(basket: Basket): Omit<BasketEvent, 'type' | 'filledLegs' | 'unwind' | 'proceeds' | 'loss' | 'maxUnwindLoss' | 'flat' | 'residual'> {
    const { intent } = basket;
    const legs = basket.legs.map((o) => result(o));
    let cost = 0;
    for (const o of legs) cost += (o.side === 'BUY' ? o.notional : -o.notional) + o.fee;
    return {
      basketId: basket.id,
      ...(intent.ref === undefined ? {} : { ref: intent.ref }),
      ...(intent.group === undefined ? {} : { group: intent.group }),
      orderType: intent.orderType,
      onPartial: intent.onPartial,
      legs,
      cost,
      tsInit: this.#p.desk.clock.now(),
    };
  }

  #finish(basket: Basket, event: BasketEvent): void {
    basket.phase = 'done';
    basket.timer?.unsubscribe();
    this.#baskets.delete(basket);
    for (const o of basket.legs) this.#byOrder.delete(o.record.request.clientOrderId);
    for (const o of basket.unwind) this.#byOrder.delete(o.record.request.clientOrderId);
    this.#p.tell(basket.strategyId, freezeDeep(event));
  }
}

/** An order is settled once it no longer trades and every share the venue matched is booked. */
function settled(order: BasketOrder): boolean {
  const record = order.record;
  if (OPEN_STATUSES.has(record.status)) return false;
  if (TERMINAL_WITHOUT_FILL.has(record.status) && record.matched !== undefined) return record.filled >= record.matched;
  return true;
}

function result(order: BasketOrder): BasketOrderResult {
  const { record } = order;
  const r = record.request;
  return { leg: order.leg, clientOrderId: r.clientOrderId, tokenId: r.tokenId, side: r.side, price: r.price, size: r.size, filled: record.filled, notional: order.notional, fee: order.fee, status: record.status };
}

function freezeDeep(event: BasketEvent): BasketEvent {
  for (const value of Object.values(event)) {
    if (Array.isArray(value)) {
      for (const item of value) Object.freeze(item);
      Object.freeze(value);
    }
  }
  return Object.freeze(event);
}
