import { describe } from 'vitest';
import { orderRate } from '../../../src/risk/checks/order-rate.ts';
import { NOW, runTable } from '../fixtures.ts';

const times = (...ago: number[]) => ({ recentOrderTimes: ago.map((a) => NOW - a) });

describe('orderRate', () => {
  runTable(orderRate, 'orderRate', [
    { name: 'no limit', state: times(3, 2, 1, 0), code: undefined },
    { name: 'no orders yet', limits: { maxOrdersPerSecond: 3 }, code: undefined },
    { name: 'two in window, max 3', state: times(999, 0), limits: { maxOrdersPerSecond: 3 }, code: undefined },
    { name: 'an order exactly 1000 ms ago is outside the window', state: times(1000, 999, 500), limits: { maxOrdersPerSecond: 3 }, code: undefined },
    { name: 'three in window, max 3', state: times(999, 500, 0), limits: { maxOrdersPerSecond: 3 }, code: 'ORDER_RATE_LIMIT', message: '3 orders in the last 1000 ms, max 3' },
    { name: 'old orders do not count', state: times(5000, 4000, 3000, 2000, 1001), limits: { maxOrdersPerSecond: 1 }, code: undefined },
    { name: 'limit 0 refuses everything', limits: { maxOrdersPerSecond: 0 }, code: 'ORDER_RATE_LIMIT' },
  ]);
});
