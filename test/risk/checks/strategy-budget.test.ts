import { describe } from 'vitest';
import { strategyBudget } from '../../../src/risk/checks/strategy-budget.ts';
import { m, markets, N1, resting, runTable, view } from '../fixtures.ts';

// the default order: s1 BUY 10 at 0.5 (notional 5)
const lim = (v: string) => ({ strategyBudgets: { s1: m(v) } });
const cost = (v: string) => (id: string) => (id === 's1' ? m(v) : m('1000'));

describe('strategyBudget', () => {
  runTable(strategyBudget, 'strategyBudget', [
    { name: 'no budget for the strategy', state: { strategyCost: cost('1000') }, limits: { strategyBudgets: { other: m('1') } }, code: undefined },
    { name: 'no budgets at all', state: { strategyCost: cost('1000') }, code: undefined },
    { name: 'positions at cost 3 + open BUY 2 + order 5 = exactly 10', state: { strategyCost: cost('3'), openOrders: [resting({ price: m('0.4'), remaining: m('5') })] }, limits: lim('10'), code: undefined },
    {
      name: 'one micro over',
      state: { strategyCost: cost('3.000001'), openOrders: [resting({ price: m('0.4'), remaining: m('5') })] },
      limits: lim('10'),
      code: 'STRATEGY_BUDGET',
      message: 'strategy s1 would commit 10.000001 (positions at cost 3.000001, open buys 2), over its budget 10',
    },
    { name: "other strategies' positions and orders do not count", state: { strategyCost: cost('0'), openOrders: [resting({ strategyId: 's2', price: m('0.9'), remaining: m('1000') })] }, limits: lim('5'), code: undefined },
    { name: 'open SELLs do not count', state: { openOrders: [resting({ side: 'SELL', price: m('0.9'), remaining: m('1000') })] }, limits: lim('5'), code: undefined },
    { name: 'a SELL is never denied', req: { side: 'SELL', size: m('1000') }, state: { strategyCost: cost('100') }, limits: lim('1'), code: undefined },
    // the market's taker rate now (GET /fee-rate): 100 bps of min(0.5, 0.5) x 10 = 0.05 on the order
    { name: 'a BUY counts the fee it pays if it takes: 5 + 0.05 fee = exactly 5.05', state: { markets: markets(view({ takerFeeBps: 100 }), N1) }, limits: lim('5.05'), code: undefined },
    {
      name: 'the fee takes it over',
      state: { markets: markets(view({ takerFeeBps: 100 }), N1) },
      limits: lim('5.049999'),
      code: 'STRATEGY_BUDGET',
      message: 'strategy s1 would commit 5.05 (positions at cost 0, open buys 0), over its budget 5.049999',
    },
    { name: 'without a ledger the positions count 0', req: { size: m('10.000002') }, limits: lim('5'), code: 'STRATEGY_BUDGET', message: 'strategy s1 would commit 5.000001 (positions at cost 0, open buys 0), over its budget 5' },
  ]);
});
