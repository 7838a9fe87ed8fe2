import { describe, expect, it } from 'vitest';
import { axisOf, uniformPoint } from '../../src/optimize/sampler.ts';
import { parseSearchSpace, pointOverrides, type RangeParam } from '../../src/optimize/space.ts';
import { walkForwardFolds } from '../../src/optimize/walk-forward.ts';
import { seededRandom } from '../../src/core/seeded-random.ts';

describe('the search space file', () => {
  it('reads ranges (step, log, int) and choices over any key, named as --set names them', () => {
    const space = parseSearchSpace(
      'params:\n  mm.size: { min: 5, max: 52, step: 5 }\n  risk.maxOrderNotional: { min: 10, max: 1000, log: true }\n  improveTicks: { min: 0, max: 3, int: true }\n  backtest.queueModel: { choice: [conservative, optimistic] }\n',
      's.yaml',
      ['mm'],
    );
    expect(space.params.map((p) => [p.name, p.kind])).toEqual([['mm.size', 'range'], ['risk.maxOrderNotional', 'range'], ['mm.improveTicks', 'range'], ['backtest.queueModel', 'choice']]);
    const size = space.params[0] as RangeParam;
    const axis = axisOf(size);
    // a stepped range: half a step past each end, so 5 and 50 are as likely as 25
    expect([axis.low, axis.high]).toEqual([2.5, 52.5]);
    expect([axis.toValue(2.6), axis.toValue(27.4), axis.toValue(52.4)]).toEqual([5, 25, 50]);
    const random = seededRandom(3);
    for (let i = 0; i < 200; i++) {
      const [s, n, t, q] = uniformPoint(space, random) as [number, number, number, string];
      expect(s % 5).toBe(0);
      expect(n).toBeGreaterThanOrEqual(10);
      expect(n).toBeLessThanOrEqual(1000);
      expect([0, 1, 2, 3]).toContain(t);
      expect(['conservative', 'optimistic']).toContain(q);
    }
    expect(pointOverrides(space, [10, 100, 1, 'optimistic'])[3]).toEqual({ flag: '--space', key: 'backtest.queueModel', value: 'optimistic' });
  });

  it('names the key and file:line of each problem', () => {
    const bad = 'params:\n  mm.size: { min: 5, max: 2 }\n  risk.x: { min: 0, max: 1, log: true }\n  nope.size: { min: 1, max: 2 }\n  mm.q: { choice: [] }\n  mm.w: { min: 1, max: 2, stpe: 1 }\n';
    let message = '';
    try {
      parseSearchSpace(bad, 's.yaml', ['mm', 'other']);
    } catch (err) {
      message = (err as Error).message;
    }
    const lines = message.split('\n');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toBe('params.mm.size (s.yaml:2): max must be greater than min, were min 5 and max 2');
    expect(lines[1]).toBe('params.risk.x (s.yaml:3): log: true needs min > 0, was 0');
    expect(lines[2]).toMatch(/^params\.nope\.size \(s\.yaml:4\): not a config section/);
    expect(lines[3]).toBe('params.mm.q (s.yaml:5): choice: expected a non-empty list of values');
    expect(lines[4]).toMatch(/^params\.mm\.w \(s\.yaml:6\): unknown key stpe/);
    expect(() => parseSearchSpace('mm.size: 3\n', 's.yaml', ['mm'])).toThrow(/expected a mapping 'params:'/);
  });
});

describe('walk-forward folds', () => {
  it('cuts the span into folds + 1 equal windows; each fold fits on one and is scored on the next', () => {
    const folds = walkForwardFolds({ from: 0, to: 40_000 }, 3);
    expect(folds.map((f) => [f.inSample.from, f.inSample.to, f.outOfSample!.from, f.outOfSample!.to])).toEqual([
      [0, 10_000, 10_000, 20_000],
      [10_000, 20_000, 20_000, 30_000],
      [20_000, 30_000, 30_000, 40_000],
    ]);
    expect(walkForwardFolds({ from: 0, to: 40_000 }, 0)).toEqual([{ number: 1, inSample: { from: 0, to: 40_000 } }]);
    expect(() => walkForwardFolds({ from: 0, to: 1500 }, 3)).toThrow(/too short/);
  });
});
