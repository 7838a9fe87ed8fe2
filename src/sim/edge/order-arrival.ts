import type { Micros } from '../../core/fixed.ts';
import { notional } from '../../core/money.ts';
import type { ConditionId, OrderType } from '../../core/types.ts';
import type { PreparedOrder, SubmitResult } from '../../execution/execution-client.ts';
import { checkCrossing, checkFunds, checkTerms, disposition, submitStatus } from '../admission.ts';
import type { RecordedBook } from './recorded-book.ts';
import { ERR_DUPLICATED, ERR_INVALID_PAYLOAD, ERR_MARKET_NOT_READY } from '../venue-messages.ts';
import { floorLot, type SimOrder } from './edge-order.ts';
import type { EdgeVenue } from './edge-venue.ts';

/**
 * Counts a refusal by its message and answers it. A module function, not a closure in `arrive`:
 * a named arrow made per call costs a property definition (tsx keeps function names).
 */
function reject(venue: EdgeVenue, id: string, errorMsg: string): SubmitResult {
  venue.stats.rejected[errorMsg] = (venue.stats.rejected[errorMsg] ?? 0) + 1;
  return { ok: false, orderId: id, errorMsg };
}

/**
 * An order reaching the simulated venue: admission with the venue's rules (src/sim/admission.ts,
 * shared with the matching engine), then, when it crosses, a walk of the recorded opposite
 * levels from the best, each at its own price, as the taker, over the displayed depth our orders
 * have not used yet; then the rest rests (GTC/GTD) or is killed (FAK).
 */
export function arrive(venue: EdgeVenue, prepared: PreparedOrder, now: number, delayMs = 0): SubmitResult {
  const id = prepared.orderId;
  const r = prepared.request;
  venue.stats.orders++;
  if (venue.orders.has(id)) return reject(venue, id, ERR_DUPLICATED);
  const token = venue.tokens.get(r.tokenId);
  if (!token) return reject(venue, id, ERR_INVALID_PAYLOAD);
  if (token.token.acceptingOrders === false) return reject(venue, id, ERR_MARKET_NOT_READY);
  // an intent without a type is a GTC order
  const type: OrderType = r.orderType ?? 'GTC';
  const postOnly = r.postOnly === true;
  const book = token.book;
  const lot = venue.lot;
  const side = r.side;
  const expiration = type === 'GTD' ? r.expiresAt : undefined;
  const bad = checkTerms({ side, type, price: r.price, size: r.size, postOnly, expiration }, { tickSize: book.tickSize, minOrderSize: book.minOrderSize, sizeLot: lot }, now);
  if (bad !== undefined) return reject(venue, id, bad);
  const account = venue.account;
  const broke = checkFunds({ side, type, postOnly, price: r.price, size: r.size }, token.token.fees, account.collateral, account.tokens.get(r.tokenId)?.free ?? 0);
  if (broke !== undefined) return reject(venue, id, broke);

  // what the opposite side offers within our limit, less what we already took from it (whole lots)
  const isBuy = side === 'BUY';
  const opposite = book.levels(!isBuy);
  const best = opposite.find((l) => book.available(!isBuy, l) >= lot);
  const crosses = best !== undefined && (isBuy ? best.price <= r.price : best.price >= r.price);
  const held = crosses && !postOnly && delayMs > 0;
  const refused = held ? undefined : checkCrossing(type, postOnly, crosses, () => fillable(book, isBuy, r.price, lot) >= r.size);
  if (refused !== undefined) return reject(venue, id, refused);
  const order = newOrder(venue, prepared, token.token.conditionId, type, expiration);
  if (held) {
    // a marketable order in a market with a matching delay: answered DELAYED, it meets the book
    // when the delay is over (the client calls `arrive` again then, with no delay)
    order.status = 'DELAYED';
    venue.orders.set(id, order);
    return { ok: true, orderId: id, status: 'DELAYED', making: 0, taking: 0 };
  }
  venue.orders.set(id, order);

  let making = 0;
  let taking = 0;
  if (crosses) {
    for (const level of opposite) {
      const remaining = order.size - order.filled;
      if (remaining <= 0) break;
      if (isBuy ? level.price > r.price : level.price < r.price) break;
      const q = floorLot(Math.min(remaining, book.available(!isBuy, level)), lot);
      if (q <= 0) continue;
      book.take(!isBuy, level.price, q);
      const value = notional(level.price, q);
      making += isBuy ? value : q;
      taking += isBuy ? q : value;
      venue.fillTaker(order, level.price, q, token.token.fees.taker, now);
    }
  }

  const d = disposition(type, order.size - order.filled);
  if (d === 'FILLED') venue.close(order, 'MATCHED');
  else if (d === 'KILL') venue.close(order, 'CANCELED');
  else venue.rest(token, order);
  return { ok: true, orderId: id, status: submitStatus(d, order.filled), making, taking };
}

/** Our order as the venue keeps it, before it meets the book. */
function newOrder(venue: EdgeVenue, prepared: PreparedOrder, conditionId: ConditionId, type: OrderType, expiration: number | undefined): SimOrder {
  const r = prepared.request;
  return {
    id: prepared.orderId,
    seq: venue.nextSeq(),
    request: r,
    tokenId: r.tokenId,
    conditionId,
    side: r.side,
    isBuy: r.side === 'BUY',
    price: r.price,
    size: r.size,
    type,
    expiration,
    filled: 0,
    status: 'LIVE',
    queueAhead: 0,
    lastSeen: undefined,
    hold: 0,
  };
}

/** Size a marketable order could take within `limit` now, in whole lots. */
function fillable(book: RecordedBook, isBuy: boolean, limit: Micros, lot: Micros): Micros {
  let total = 0;
  for (const level of book.levels(!isBuy)) {
    if (isBuy ? level.price > limit : level.price < limit) break;
    total += floorLot(book.available(!isBuy, level), lot);
  }
  return total;
}
