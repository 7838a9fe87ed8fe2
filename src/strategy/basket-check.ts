import { MAX_BASKET_LEGS, type BasketIntent } from '../core/intents.ts';

/**
 * What is wrong with a basket intent's shape (the runner faults the strategy with it, as for any
 * malformed intent), or undefined. Amounts are bounded by risk (AMOUNT_OUT_OF_RANGE, per leg);
 * this checks only what risk cannot: the legs list, the order type, the policy and the cap.
 */
export function basketProblem(intent: BasketIntent): string | undefined {
  const legs: unknown = intent.legs;
  if (!Array.isArray(legs) || legs.length === 0 || legs.length > MAX_BASKET_LEGS) {
    return `legs are not a list of 1 to ${MAX_BASKET_LEGS} legs (a basket goes out in one batch of at most ${MAX_BASKET_LEGS} orders)`;
  }
  for (let i = 0; i < legs.length; i++) {
    const leg = legs[i] as Record<string, unknown> | null;
    if (typeof leg !== 'object' || leg === null) return `leg ${i} is not an object`;
    if (typeof leg['tokenId'] !== 'string' || leg['tokenId'] === '') return `leg ${i} has no tokenId`;
    if (leg['side'] !== 'BUY' && leg['side'] !== 'SELL') return `leg ${i} side is not BUY or SELL`;
    if (typeof leg['price'] !== 'number' || typeof leg['size'] !== 'number') return `leg ${i} price and size are not Micros numbers (use px() and qty())`;
  }
  if (intent.orderType !== 'FOK' && intent.orderType !== 'FAK') return `orderType is not FOK or FAK`;
  if (intent.onPartial !== 'unwind' && intent.onPartial !== 'hold') return `onPartial is not 'unwind' or 'hold'`;
  const cap: unknown = intent.maxUnwindLoss;
  if (typeof cap !== 'number' || !Number.isSafeInteger(cap) || cap < 0) return `maxUnwindLoss is not a whole number of micros >= 0 (use toMicros())`;
  return undefined;
}
