import type { Micros } from '../core/fixed.ts';
import { notional } from '../core/money.ts';
import type { Side } from '../core/types.ts';

/**
 * The free-balance rule, in one place: cash less what our open BUY orders promise (price × size
 * left). `ctx.balance()`, the run summary's `account.reserved` and `clobot status` all read it.
 */

/** What the rule reads of an open order: the live tracker's records and the store's rows both fit. */
export interface OpenOrderFigures {
  readonly request: { readonly side: Side; readonly price: Micros; readonly size: Micros };
  readonly filled: Micros;
}

/** What open BUY orders promise: price × size left (never below 0), summed. */
export function reservedByOpenBuys(openOrders: Iterable<OpenOrderFigures>): Micros {
  let reserved = 0;
  for (const o of openOrders) {
    if (o.request.side === 'BUY') reserved += notional(o.request.price, Math.max(0, o.request.size - o.filled));
  }
  return reserved;
}

/** Cash less what the open BUY orders reserve. */
export function freeBalance(cash: Micros, openOrders: Iterable<OpenOrderFigures>): Micros {
  return cash - reservedByOpenBuys(openOrders);
}
