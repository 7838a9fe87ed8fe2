import { describe } from 'vitest';
import { tickGrid } from '../../../src/risk/checks/tick-grid.ts';
import { m, markets, runTable, view, Y1 } from '../fixtures.ts';

describe('tickGrid', () => {
  runTable(tickGrid, 'tickGrid', [
    { name: 'on the 0.01 grid', req: { price: m('0.52') }, code: undefined },
    { name: 'off the 0.01 grid', req: { price: m('0.505') }, code: 'PRICE_OFF_TICK', message: 'price 0.505 is not a multiple of tick 0.01' },
    { name: 'one micro off the grid', req: { price: m('0.520001') }, code: 'PRICE_OFF_TICK' },
    { name: 'finer newest tick 0.001 accepts 0.505', req: { price: m('0.505') }, state: { markets: markets(view({ tickSize: m('0.001') })) }, code: undefined },
    { name: 'tick 0.0025 accepts 0.5025', req: { price: m('0.5025') }, state: { markets: markets(view({ tickSize: m('0.0025') })) }, code: undefined },
    { name: 'tick 0.0025 refuses 0.501', req: { price: m('0.501') }, state: { markets: markets(view({ tickSize: m('0.0025') })) }, code: 'PRICE_OFF_TICK' },
    { name: 'coarser newest tick 0.1 refuses 0.55', req: { price: m('0.55') }, state: { markets: markets(view({ tickSize: m('0.1') })) }, code: 'PRICE_OFF_TICK', message: 'price 0.55 is not a multiple of tick 0.1' },
    { name: 'fractional micros price', req: { price: 520000.5 }, code: 'PRICE_OFF_TICK', message: 'price 520000.5 micros is not a multiple of tick 0.01' },
    { name: 'NaN price', req: { price: NaN }, code: 'PRICE_OFF_TICK', message: 'price NaN is not a multiple of tick 0.01' },
    { name: 'market with tick 0', state: { markets: markets(view({ tickSize: 0 })) }, code: 'PRICE_OFF_TICK' },
    { name: 'unknown token', req: { tokenId: 'nope' }, code: 'UNKNOWN_MARKET', message: 'unknown market for token nope' },
    { name: 'empty market map', state: { markets: markets() }, code: 'UNKNOWN_MARKET' },
    { name: 'known token among others', state: { markets: markets(Y1) }, code: undefined },
  ]);
});
