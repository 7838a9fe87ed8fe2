import { describe } from 'vitest';
import { maxGrossExposure } from '../../../src/risk/checks/max-gross-exposure.ts';
import { m, markets, N1, resting, runTable, view } from '../fixtures.ts';

const lim = (v: string) => ({ maxGrossExposure: m(v) });
const pos = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, m(v)]));
const noMid = markets(view({ mid: undefined }), N1);
const askOnly = markets(view({ mid: undefined, bestBid: undefined }), N1);
const noQuotes = markets(view({ mid: undefined, bestBid: undefined, bestAsk: undefined }), N1);
const base = { positions: pos({ Y1: '100' }), openOrders: [resting({ tokenId: 'N1', price: m('0.4'), remaining: m('50') })] };

describe('maxGrossExposure', () => {
  runTable(maxGrossExposure, 'maxGrossExposure', [
    { name: 'no limit', state: { positions: pos({ Y1: '1000000' }) }, code: undefined },
    { name: 'position 50 + open BUY 20 + order 30 = exactly 100', req: { size: m('60') }, state: base, limits: lim('100'), code: undefined },
    { name: 'one micro over', req: { size: m('60.000002') }, state: base, limits: lim('100'), code: 'GROSS_EXPOSURE_LIMIT', message: 'gross exposure 100.000001 exceeds max 100' },
    { name: 'mark falls back to the best bid', req: { size: m('102') }, state: { markets: noMid, positions: pos({ Y1: '100' }) }, limits: lim('100'), code: undefined },
    { name: 'mark at the best bid, one micro over', req: { size: m('102.000002') }, state: { markets: noMid, positions: pos({ Y1: '100' }) }, limits: lim('100'), code: 'GROSS_EXPOSURE_LIMIT' },
    { name: 'mark falls back to the best ask', req: { size: m('98') }, state: { markets: askOnly, positions: pos({ Y1: '100' }) }, limits: lim('100'), code: undefined },
    { name: 'mark at the best ask, one micro over', req: { size: m('98.000002') }, state: { markets: askOnly, positions: pos({ Y1: '100' }) }, limits: lim('100'), code: 'GROSS_EXPOSURE_LIMIT' },
    { name: "no quotes: the order's token is marked at the order price", req: { price: m('0.3'), size: m('10') }, state: { markets: noQuotes, positions: pos({ Y1: '100' }) }, limits: lim('33'), code: undefined },
    { name: 'no quotes, one micro under the limit', req: { price: m('0.3'), size: m('10') }, state: { markets: noQuotes, positions: pos({ Y1: '100' }) }, limits: lim('32.999999'), code: 'GROSS_EXPOSURE_LIMIT' },
    { name: 'a held token without a view is marked at 1', req: { size: m('80') }, state: { positions: pos({ ZZ: '60' }) }, limits: lim('100'), code: undefined },
    { name: 'a held token without a view, one micro over', req: { size: m('80.000002') }, state: { positions: pos({ ZZ: '60' }) }, limits: lim('100'), code: 'GROSS_EXPOSURE_LIMIT' },
    { name: 'open SELLs do not add', req: { size: m('200') }, state: { openOrders: [resting({ side: 'SELL', price: m('0.9'), remaining: m('1000') })] }, limits: lim('100'), code: undefined },
    { name: 'filled open BUYs do not add', req: { size: m('200') }, state: { openOrders: [resting({ remaining: 0 })] }, limits: lim('100'), code: undefined },
    { name: "other strategies' open BUYs add", req: { size: m('200') }, state: { openOrders: [resting({ strategyId: 's9', price: 1, remaining: 1 })] }, limits: lim('100'), code: 'GROSS_EXPOSURE_LIMIT', message: 'gross exposure 100.000000000001 exceeds max 100' },
    { name: 'a SELL reducing a held position adds nothing', req: { side: 'SELL', size: m('100') }, state: { positions: pos({ Y1: '100' }) }, limits: lim('50'), code: undefined },
    { name: 'a SELL beyond the held position (net of open SELLs) adds the excess', req: { side: 'SELL', size: m('60') }, state: { positions: pos({ Y1: '100' }), openOrders: [resting({ side: 'SELL', price: m('0.6'), remaining: m('50') })] }, limits: lim('55'), code: undefined },
    { name: 'that excess one micro over', req: { side: 'SELL', size: m('60') }, state: { positions: pos({ Y1: '100' }), openOrders: [resting({ side: 'SELL', price: m('0.6'), remaining: m('50') })] }, limits: lim('54.999999'), code: 'GROSS_EXPOSURE_LIMIT', message: 'gross exposure 55 exceeds max 54.999999' },
    { name: 'SELLs already resting beyond the position leave the whole new SELL uncovered', req: { side: 'SELL', size: m('20') }, state: { positions: pos({ Y1: '10' }), openOrders: [resting({ side: 'SELL', remaining: m('50') })] }, limits: lim('15'), code: undefined },
    { name: 'that uncovered SELL one micro over', req: { side: 'SELL', size: m('20') }, state: { positions: pos({ Y1: '10' }), openOrders: [resting({ side: 'SELL', remaining: m('50') })] }, limits: lim('14.999999'), code: 'GROSS_EXPOSURE_LIMIT', message: 'gross exposure 15 exceeds max 14.999999' },
    { name: 'a negative position counts by its size', req: { size: m('100') }, state: { positions: pos({ Y1: '-100' }) }, limits: lim('99.999999'), code: 'GROSS_EXPOSURE_LIMIT', message: 'gross exposure 100 exceeds max 99.999999' },
    {
      name: 'large position exact: 9e9 shares at 0.999999 + 0.05',
      req: { price: m('0.01'), size: m('5') },
      state: { markets: markets(view({ mid: m('0.999999') })), positions: pos({ Y1: '9000000000' }) },
      limits: lim('8999991000.05'),
      code: undefined,
    },
    {
      name: 'large position exact: one micro under',
      req: { price: m('0.01'), size: m('5') },
      state: { markets: markets(view({ mid: m('0.999999') })), positions: pos({ Y1: '9000000000' }) },
      limits: lim('8999991000.049999'),
      code: 'GROSS_EXPOSURE_LIMIT',
      message: 'gross exposure 8999991000.05 exceeds max 8999991000.049999',
    },
  ]);
});
