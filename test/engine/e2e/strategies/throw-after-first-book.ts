/**
 * Test-only strategy: its first onBook places one deep post-only bid; every later onBook throws.
 * The engine must mark it FAULTED, cancel its order, and keep the other strategies trading.
 */
import { defineStrategy } from '../../../../src/strategy/index.ts';

const calls = new WeakMap<object, number>();

export const THROWER_MESSAGE = 'thrower: deliberate failure in onBook';

export default defineStrategy({
  name: 'throw-after-first-book',
  description: 'Places one order on its first book, then throws (e2e tests).',
  onBook({ ctx, market }) {
    const n = (calls.get(ctx) ?? 0) + 1;
    calls.set(ctx, n);
    if (n > 1) throw new Error(THROWER_MESSAGE);
    if (market.bestBid === undefined) return undefined;
    const tick = market.rules.tickSize;
    const price = Math.floor(market.bestBid / tick) * tick - 5 * tick;
    if (price < tick) return undefined;
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price, size: market.rules.minOrderSize, postOnly: true, tag: 'thrower' };
  },
});
