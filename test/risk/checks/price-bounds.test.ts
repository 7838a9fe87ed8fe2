import { describe } from 'vitest';
import { priceBounds } from '../../../src/risk/checks/price-bounds.ts';
import { m, markets, runTable, view } from '../fixtures.ts';

const fine = { markets: markets(view({ tickSize: m('0.001') })) };

describe('priceBounds', () => {
  runTable(priceBounds, 'priceBounds', [
    { name: 'middle', req: { price: m('0.5') }, code: undefined },
    { name: 'exactly tick', req: { price: m('0.01') }, code: undefined },
    { name: 'exactly 1 - tick', req: { price: m('0.99') }, code: undefined },
    { name: 'one micro below tick', req: { price: m('0.009999') }, code: 'PRICE_OUT_OF_BOUNDS', message: 'price 0.009999 outside [0.01, 0.99]' },
    { name: 'one micro above 1 - tick', req: { price: m('0.990001') }, code: 'PRICE_OUT_OF_BOUNDS' },
    { name: 'zero', req: { price: 0 }, code: 'PRICE_OUT_OF_BOUNDS' },
    { name: 'one', req: { price: m('1') }, code: 'PRICE_OUT_OF_BOUNDS', message: 'price 1 outside [0.01, 0.99]' },
    { name: 'negative', req: { price: -m('0.5') }, code: 'PRICE_OUT_OF_BOUNDS' },
    { name: 'NaN', req: { price: NaN }, code: 'PRICE_OUT_OF_BOUNDS' },
    { name: 'tick 0.001: 0.001 allowed', req: { price: m('0.001') }, state: fine, code: undefined },
    { name: 'tick 0.001: 0.999 allowed', req: { price: m('0.999') }, state: fine, code: undefined },
    { name: 'tick 0.001: 0.9991 refused', req: { price: m('0.9991') }, state: fine, code: 'PRICE_OUT_OF_BOUNDS', message: 'price 0.9991 outside [0.001, 0.999]' },
    { name: 'unknown token', req: { tokenId: 'nope' }, code: 'UNKNOWN_MARKET' },
  ]);
});
