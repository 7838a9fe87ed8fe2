import { describe } from 'vitest';
import { maxOpenOrders } from '../../../src/risk/checks/max-open-orders.ts';
import { resting, runTable } from '../fixtures.ts';

const open = (n: number) => ({ openOrders: Array.from({ length: n }, (_, i) => resting({ strategyId: `s${i % 3}` })) });

describe('maxOpenOrders', () => {
  runTable(maxOpenOrders, 'maxOpenOrders', [
    { name: 'no limit', state: open(1000), code: undefined },
    { name: 'none open, max 1', limits: { maxOpenOrders: 1 }, code: undefined },
    { name: 'two open (all strategies), max 3', state: open(2), limits: { maxOpenOrders: 3 }, code: undefined },
    { name: 'three open, max 3', state: open(3), limits: { maxOpenOrders: 3 }, code: 'MAX_OPEN_ORDERS', message: 'open orders 3 + 1 exceeds max 3' },
    { name: 'filled orders (remaining 0) do not count', state: { openOrders: [...open(2).openOrders, resting({ remaining: 0 })] }, limits: { maxOpenOrders: 3 }, code: undefined },
    { name: 'limit 0', limits: { maxOpenOrders: 0 }, code: 'MAX_OPEN_ORDERS' },
  ]);
});
