import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Dec, microsToDecimal } from '../../../src/core/fixed.ts';
import { maxNotional } from '../../../src/risk/checks/max-notional.ts';
import { m, order, runTable, state } from '../fixtures.ts';

describe('maxNotional', () => {
  runTable(maxNotional, 'maxNotional', [
    { name: 'no limit', req: { price: m('0.99'), size: m('1000000') }, code: undefined },
    { name: 'exactly at the limit', req: { price: m('0.5'), size: m('100') }, limits: { maxOrderNotional: m('50') }, code: undefined },
    { name: 'one micro of notional over', req: { price: m('0.5'), size: m('100.000002') }, limits: { maxOrderNotional: m('50') }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 50.000001 exceeds max 50' },
    { name: 'half a micro over (picos count)', req: { price: m('0.5'), size: m('100.000001') }, limits: { maxOrderNotional: m('50') }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 50.0000005 exceeds max 50' },
    { name: 'message names the numbers', req: { price: m('0.55'), size: m('110') }, limits: { maxOrderNotional: m('50') }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 60.5 exceeds max 50' },
    { name: 'SELL is measured the same', req: { side: 'SELL', price: m('0.55'), size: m('110') }, limits: { maxOrderNotional: m('50') }, code: 'NOTIONAL_EXCEEDS_MAX' },
    { name: '0.333333 × 3 = 0.999999 at limit 0.999999', req: { price: m('0.333333'), size: m('3') }, limits: { maxOrderNotional: m('0.999999') }, code: undefined },
    { name: '0.333333 × 3 over limit 0.999998', req: { price: m('0.333333'), size: m('3') }, limits: { maxOrderNotional: m('0.999998') }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 0.999999 exceeds max 0.999998' },
    { name: 'one micro × one micro over limit 0', req: { price: 1, size: 1 }, limits: { maxOrderNotional: 0 }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 0.000000000001 exceeds max 0' },
    { name: 'large: 0.999999 × 9e9 shares at the exact limit', req: { price: m('0.999999'), size: m('9000000000') }, limits: { maxOrderNotional: m('8999991000') }, code: undefined },
    { name: 'large: one micro under the exact product', req: { price: m('0.999999'), size: m('9000000000') }, limits: { maxOrderNotional: m('8999990999.999999') }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 8999991000 exceeds max 8999990999.999999' },
    { name: 'large: 0.123457 × 8765432.123457', req: { price: m('0.123457'), size: m('8765432.123457') }, limits: { maxOrderNotional: m('1082153.953665') }, code: 'NOTIONAL_EXCEEDS_MAX', message: 'notional 1082153.953665630849 exceeds max 1082153.953665' },
  ]);

  it('agrees with exact decimal arithmetic on random values', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 999_999 }),
        fc.integer({ min: 1, max: 9_000_000_000_000_000 }),
        fc.integer({ min: 0, max: 9_000_000_000_000_000 }),
        (price, size, limit) => {
          const notional = microsToDecimal(price).mul(microsToDecimal(size));
          const expected = notional.gt(microsToDecimal(limit)) ? 'NOTIONAL_EXCEEDS_MAX' : undefined;
          const denial = maxNotional(order({ price, size }), state(), { maxOrderNotional: limit });
          expect(denial?.code).toBe(expected);
          if (denial !== undefined) expect(denial.message).toBe(`notional ${new Dec(notional).toString()} exceeds max ${microsToDecimal(limit).toString()}`);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a float computation would get the boundary wrong where this does not', () => {
    // 0.1 × 3 in binary floats is 0.30000000000000004 > 0.3; exactly it is 0.3.
    expect(0.1 * 3 > 0.3).toBe(true);
    expect(maxNotional(order({ price: m('0.1'), size: m('3') }), state(), { maxOrderNotional: m('0.3') })).toBeUndefined();
  });
});
