/**
 * Test-only strategy: places one deep post-only bid on its first book, then, on its sixth (the order long answered),
 * throws from a timer, outside anything the engine can catch (an exception that escapes to the
 * process). The run must fail closed: trading halted, orders cancelled and verified, exit 4.
 */
import { defineStrategy } from '../../../src/strategy/index.ts';

const calls = new WeakMap<object, number>();

export const ESCAPING_MESSAGE = 'escaping-throw: deliberate failure outside the engine';

export default defineStrategy({
  name: 'escaping-throw',
  description: 'Places one order, then throws from a timer (fail-closed tests).',
  onBook({ ctx, market }) {
    const n = (calls.get(ctx) ?? 0) + 1;
    calls.set(ctx, n);
    if (n === 6) {
      setTimeout(() => {
        throw new Error(ESCAPING_MESSAGE);
      }, 0);
    }
    if (n > 1 || market.bestBid === undefined) return undefined;
    const tick = market.rules.tickSize;
    const price = Math.floor(market.bestBid / tick) * tick - 5 * tick;
    if (price < tick) return undefined;
    return { kind: 'place', tokenId: market.tokenId, side: 'BUY', price, size: market.rules.minOrderSize, postOnly: true, tag: 'escaping' };
  },
});
