import { describe } from 'vitest';
import { killSwitch } from '../../../src/risk/checks/kill-switch.ts';
import { m, runTable } from '../fixtures.ts';

describe('killSwitch', () => {
  runTable(killSwitch, 'killSwitch', [
    { name: 'healthy, no limits', code: undefined },
    // a halt and the heartbeat are engine gates now (engine-gates.test.ts): this check ignores them
    { name: 'manual halt and a lost heartbeat are not this check\'s', state: { manualHalt: true, heartbeat: 'lost' }, code: undefined },
    { name: 'loss one micro short of the limit', state: { dailyPnl: -m('49.999999') }, limits: { dailyLossLimit: m('50') }, code: undefined },
    { name: 'loss exactly at the limit', state: { dailyPnl: -m('50') }, limits: { dailyLossLimit: m('50') }, code: 'TRADING_HALTED', message: 'daily loss: pnl -50 at or below -50' },
    { name: 'loss beyond the limit', state: { dailyPnl: -m('75.5') }, limits: { dailyLossLimit: m('50') }, code: 'TRADING_HALTED' },
    { name: 'profit with a loss limit', state: { dailyPnl: m('20') }, limits: { dailyLossLimit: m('50') }, code: undefined },
    { name: 'big loss but no loss limit', state: { dailyPnl: -m('1000000') }, code: undefined },
    { name: 'loss limit 0 halts at pnl 0', state: { dailyPnl: 0 }, limits: { dailyLossLimit: 0 }, code: 'TRADING_HALTED' },
    { name: 'rejects one short of the max', state: { consecutiveRejects: 4 }, limits: { maxConsecutiveRejects: 5 }, code: undefined },
    { name: 'rejects at the max', state: { consecutiveRejects: 5 }, limits: { maxConsecutiveRejects: 5 }, code: 'TRADING_HALTED', message: 'consecutive rejects 5 reached max 5' },
    { name: 'many rejects but no max', state: { consecutiveRejects: 500 }, code: undefined },
  ]);
});
