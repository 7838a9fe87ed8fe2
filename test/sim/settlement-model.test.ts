import { describe, expect, it } from 'vitest';
import { ParameterError } from '../../src/core/errors.ts';
import { checkSettlementKnobs, settlementPath, type SettlementKnobs } from '../../src/sim/settlement-model.ts';
import { SettlementSchedule } from '../../src/sim/settlement-schedule.ts';

const KNOBS: SettlementKnobs = { minedMs: 10_000, confirmedMs: 20_000, retryRate: 0.2, failRate: 0.3 };

describe('settlement model', () => {
  it('gives each trade the same path for the same seed and trade id, whatever the order of the calls', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `trade-${i}`);
    const forward = ids.map((id) => settlementPath(KNOBS, 7, id, 1_000));
    const backward = [...ids].reverse().map((id) => settlementPath(KNOBS, 7, id, 1_000)).reverse();
    expect(backward).toEqual(forward);
    expect(ids.map((id) => settlementPath(KNOBS, 8, id, 1_000))).not.toEqual(forward);
  });

  it('draws the three paths in the shares the knobs give, with delays of 0.5x to 1.5x', () => {
    const counts = { confirmed: 0, retried: 0, failed: 0 };
    for (let i = 0; i < 4_000; i++) {
      const path = settlementPath(KNOBS, 3, `t${i}`, 0);
      expect(path).toHaveLength(2);
      const [first, last] = path as [{ status: string; atMs: number }, { status: string; atMs: number }];
      expect(first.atMs).toBeGreaterThanOrEqual(5_000);
      expect(first.atMs).toBeLessThan(15_000);
      expect(last.atMs - first.atMs).toBeGreaterThanOrEqual(10_000);
      expect(last.atMs - first.atMs).toBeLessThan(30_000);
      if (first.status === 'MINED') {
        expect(last.status).toBe('CONFIRMED');
        counts.confirmed++;
      } else {
        expect(first.status).toBe('RETRYING');
        if (last.status === 'FAILED') counts.failed++;
        else counts.retried++;
      }
    }
    expect(counts.failed / 4_000).toBeCloseTo(0.3, 1);
    expect(counts.retried / 4_000).toBeCloseTo(0.2, 1);
    expect(counts.confirmed / 4_000).toBeCloseTo(0.5, 1);
  });

  it('is final at once with no delays and no failures', () => {
    expect(settlementPath({ minedMs: 0, confirmedMs: 0, retryRate: 0, failRate: 0 }, 1, 'x', 5)).toEqual([]);
  });

  it('refuses knobs out of range, naming the knob', () => {
    expect(() => checkSettlementKnobs({ ...KNOBS, failRate: 1.5 }, 'backtest.settlement')).toThrow(ParameterError);
    expect(() => checkSettlementKnobs({ ...KNOBS, failRate: 0.9 }, 'backtest.settlement')).toThrow(/retryRate \+ failRate/);
    expect(() => checkSettlementKnobs({ ...KNOBS, minedMs: -1 }, 'backtest.settlement')).toThrow(/minedMs/);
  });
});

describe('settlement schedule', () => {
  it('pops steps in time order and remembers each trade status', () => {
    const schedule = new SettlementSchedule<string>({ minedMs: 1_000, confirmedMs: 1_000, retryRate: 0, failRate: 0 }, 1);
    expect(schedule.add('a', 0, 'A')).toBe('MATCHED');
    expect(schedule.add('b', 100, 'B')).toBe('MATCHED');
    const seen: string[] = [];
    schedule.due(10_000, (subject, id, status) => seen.push(`${subject}:${id}:${status}`));
    expect(seen.filter((s) => s.startsWith('A'))).toEqual(['A:a:MINED', 'A:a:CONFIRMED']);
    expect(seen.filter((s) => s.startsWith('B'))).toEqual(['B:b:MINED', 'B:b:CONFIRMED']);
    expect(schedule.status('a')).toBe('CONFIRMED');
    expect(schedule.pending).toBe(0);
  });

  it('forgets final trades when asked to', () => {
    const schedule = new SettlementSchedule<string>({ minedMs: 10, confirmedMs: 10, retryRate: 0, failRate: 0 }, 1, false);
    schedule.add('a', 0, 'A');
    schedule.due(1_000, () => undefined);
    expect(schedule.status('a')).toBeUndefined();
  });
});
