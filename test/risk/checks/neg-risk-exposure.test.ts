import { describe } from 'vitest';
import { negRiskExposure } from '../../../src/risk/checks/neg-risk-exposure.ts';
import { m, resting, runTable } from '../fixtures.ts';

const lim = (v: string) => ({ maxNegRiskEventExposure: m(v) });
const pos = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, m(v)]));
// EB 10 @ 0.3 = 3, EA-no 1 @ 0.8 = 0.8, open BUY EC 0.4 × 10 = 4: 7.8 before the order.
const event = { positions: pos({ EB: '10', 'EA-no': '1' }), openOrders: [resting({ tokenId: 'EC', price: m('0.4'), remaining: m('10') })] };
const buyEA = (size: string) => ({ tokenId: 'EA', price: m('0.2'), size: m(size) });

describe('negRiskExposure', () => {
  runTable(negRiskExposure, 'negRiskExposure', [
    { name: 'no limit', req: buyEA('1000'), state: event, code: undefined },
    { name: 'a market outside any event passes', req: { size: m('1000') }, limits: lim('0'), code: undefined },
    { name: 'event total exactly at the limit (7.8 + 2.2)', req: buyEA('11'), state: event, limits: lim('10'), code: undefined },
    { name: 'event total one micro over', req: buyEA('11.000005'), state: event, limits: lim('10'), code: 'NEG_RISK_EXPOSURE_LIMIT', message: 'neg-risk event E1 exposure 10.000001 exceeds max 10' },
    {
      name: 'positions and open BUYs outside the event do not count',
      req: buyEA('11'),
      state: { positions: pos({ EB: '10', 'EA-no': '1', FX: '500', Y1: '500' }), openOrders: [...event.openOrders, resting({ tokenId: 'FX', remaining: m('500') })] },
      limits: lim('10'),
      code: undefined,
    },
    { name: 'open SELLs in the event do not add', req: buyEA('11'), state: { ...event, openOrders: [...event.openOrders, resting({ tokenId: 'EB', side: 'SELL', remaining: m('500') })] }, limits: lim('10'), code: undefined },
    { name: 'a SELL covered by the held position adds nothing', req: { ...buyEA('10'), side: 'SELL' }, state: { positions: pos({ EA: '10' }) }, limits: lim('2'), code: undefined },
    { name: 'a BUY of the same size does add', req: buyEA('10'), state: { positions: pos({ EA: '10' }) }, limits: lim('2'), code: 'NEG_RISK_EXPOSURE_LIMIT', message: 'neg-risk event E1 exposure 4 exceeds max 2' },
    { name: 'another event is counted on its own', req: { tokenId: 'FX', size: m('10') }, state: event, limits: lim('5'), code: undefined },
    { name: 'unknown token', req: { tokenId: 'nope' }, limits: lim('10'), code: 'UNKNOWN_MARKET' },
  ]);
});
