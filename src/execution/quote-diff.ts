import type { Micros } from '../core/fixed.ts';
import type { Side } from '../core/types.ts';
import type { QuoteLevel } from '../core/intents.ts';

/** A resting order the diff may keep. */
export interface RestingQuote {
  readonly clientOrderId: string;
  readonly side: Side;
  readonly price: Micros;
  /** Remaining (unfilled) size. */
  readonly remaining: Micros;
}

export interface QuoteTolerance {
  /** An order within this many price Micros of a wanted level is kept (0: exact price only). */
  readonly priceMicros: Micros;
  /** Kept when |remaining - wanted| <= share × wanted (0.2 = 20%). */
  readonly sizeShare: number;
}

export interface QuoteDiff {
  readonly keep: readonly string[];
  readonly cancel: readonly string[];
  readonly place: readonly { readonly side: Side; readonly price: Micros; readonly size: Micros }[];
}

/**
 * Diffs the wanted quote levels against the strategy's resting orders on one token. Each wanted
 * level keeps at most one resting order within tolerance (the closest in price, then in size),
 * so queue position is not thrown away; all other resting orders are cancelled and unmatched
 * levels are placed. Pure.
 */
export function diffQuotes(
  wanted: { readonly bids: readonly QuoteLevel[]; readonly asks: readonly QuoteLevel[] },
  resting: readonly RestingQuote[],
  tolerance: QuoteTolerance,
): QuoteDiff {
  const keep: string[] = [];
  const place: { side: Side; price: Micros; size: Micros }[] = [];
  const used = new Set<string>();
  const sides: [Side, readonly QuoteLevel[]][] = [
    ['BUY', wanted.bids],
    ['SELL', wanted.asks],
  ];
  for (const [side, levels] of sides) {
    for (const level of levels) {
      if (level.size <= 0) continue;
      let best: RestingQuote | undefined;
      let bestScore = Infinity;
      for (const order of resting) {
        if (order.side !== side || used.has(order.clientOrderId)) continue;
        const priceGap = Math.abs(order.price - level.price);
        if (priceGap > tolerance.priceMicros) continue;
        const sizeGap = Math.abs(order.remaining - level.size);
        if (sizeGap > tolerance.sizeShare * level.size) continue;
        const score = priceGap * 1e9 + sizeGap;
        if (score < bestScore) {
          best = order;
          bestScore = score;
        }
      }
      if (best) {
        used.add(best.clientOrderId);
        keep.push(best.clientOrderId);
      } else {
        place.push({ side, price: level.price, size: level.size });
      }
    }
  }
  const cancel = resting.filter((o) => !used.has(o.clientOrderId)).map((o) => o.clientOrderId);
  return { keep, cancel, place };
}
