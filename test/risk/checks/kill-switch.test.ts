import { describe } from 'vitest';
import { killSwitch } from '../../../src/risk/checks/kill-switch.ts';
import { m, runTable } from '../fixtures.ts';

describe('killSwitch', () => {
  runTable(killSwitch, 'killSwitch', [
    { name: 'healthy, no limits', code: undefined },
    { name: 'idle heartbeat (no chain yet) is allowed', state: { heartbeat: 'idle' }, code: undefined },
    { name: 'manual halt names the reason', state: { manualHalt: true, haltReason: 'operator: news' }, code: 'TRADING_HALTED', message: 'manual halt: operator: news' },
    { name: 'manual halt without a reason', state: { manualHalt: true }, code: 'TRADING_HALTED', message: 'manual halt: no reason given' },
    { name: 'heartbeat late', state: { heartbeat: 'late' }, code: 'TRADING_HALTED', message: 'heartbeat late' },
    { name: 'heartbeat lost', state: { heartbeat: 'lost' }, code: 'TRADING_HALTED', message: 'heartbeat lost' },
    { name: 'loss one micro short of the limit', state: { dailyPnl: -m('49.999999') }, limits: { dailyLossLimit: m('50') }, code: undefined },
    { name: 'loss exactly at the limit', state: { dailyPnl: -m('50') }, limits: { dailyLossLimit: m('50') }, code: 'TRADING_HALTED', message: 'daily loss: pnl -50 at or below -50' },
    { name: 'loss beyond the limit', state: { dailyPnl: -m('75.5') }, limits: { dailyLossLimit: m('50') }, code: 'TRADING_HALTED' },
    { name: 'profit with a loss limit', state: { dailyPnl: m('20') }, limits: { dailyLossLimit: m('50') }, code: undefined },
    { name: 'big loss but no loss limit', state: { dailyPnl: -m('1000000') }, code: undefined },
    { name: 'loss limit 0 halts at pnl 0', state: { dailyPnl: 0 }, limits: { dailyLossLimit: 0 }, code: 'TRADING_HALTED' },
    { name: 'rejects one short of the max', state: { consecutiveRejects: 4 }, limits: { maxConsecutiveRejects: 5 }, code: undefined },
    { name: 'rejects at the max', state: { consecutiveRejects: 5 }, limits: { maxConsecutiveRejects: 5 }, code: 'TRADING_HALTED', message: 'consecutive rejects 5 reached max 5' },
    { name: 'many rejects but no max', state: { consecutiveRejects: 500 }, code: undefined },
    { name: 'manual halt reported before a late heartbeat', state: { manualHalt: true, haltReason: 'x', heartbeat: 'late' }, code: 'TRADING_HALTED', message: 'manual halt: x' },
  ]);
});
