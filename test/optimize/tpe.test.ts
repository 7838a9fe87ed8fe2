import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/seeded-random.ts';
import { randomSampler, type Observation, type Sampler } from '../../src/optimize/sampler.ts';
import { parseSearchSpace } from '../../src/optimize/space.ts';
import { choiceDensity, normalCdf, parzen, splitGoodBad, tpeSampler } from '../../src/optimize/tpe.ts';

/**
 * The TPE sampler against its reference: hyperopt's adaptive Parzen estimator (the bandwidth rule
 * worked by hand), densities that are densities, and a search that beats random search on a
 * known function with the same budget.
 */

const space = parseSearchSpace(
  'params:\n  x: { min: 0, max: 1 }\n  y: { min: 0.1, max: 1000, log: true }\n  k: { min: 1, max: 9, step: 1 }\n  c: { choice: [a, b, c, d] }\n',
  'space.yaml',
  ['s'],
);

/** Best at x = 0.3, y = 10, k = 7, c = b. */
function objective(point: readonly (string | number | boolean)[]): number {
  const [x, y, k, c] = point as [number, number, number, string];
  return -((x - 0.3) ** 2) - (Math.log10(y) - 1) ** 2 / 4 - ((k - 7) / 8) ** 2 - (c === 'b' ? 0 : 0.3);
}

function search(sampler: Sampler, seed: number, trials: number): { best: number; points: string[] } {
  const random = seededRandom(seed);
  const history: Observation[] = [];
  const points: string[] = [];
  for (let i = 0; i < trials; i++) {
    const point = sampler.propose(history, random);
    points.push(JSON.stringify(point));
    history.push({ point, score: objective(point) });
  }
  return { best: Math.max(...history.map((h) => h.score!)), points };
}

describe('TPE', () => {
  it("fits each observation's spread as hyperopt's adaptive Parzen rule does (worked by hand)", () => {
    // [0, 1], observations 0.2 and 0.8, the prior at 0.5 with spread 1: neighbours are 0.3 apart,
    // the floor is 1 / min(100, 2 + 1) = 1/3, so both observations get 1/3
    const p = parzen([0.2, 0.8], 0, 1);
    expect(p.mus).toEqual([0.2, 0.5, 0.8]);
    expect(p.sigmas.map((s) => Number(s.toFixed(6)))).toEqual([0.333333, 1, 0.333333]);
    // observations far apart: the larger neighbour distance, capped at the width
    const q = parzen([0, 0.05, 1], 0, 1);
    expect(q.mus).toEqual([0, 0.05, 0.5, 1]);
    expect(q.sigmas.map((s) => Number(s.toFixed(6)))).toEqual([0.25, 0.45, 1, 0.5]);
  });

  it('its densities integrate to 1 over the axis and its draws stay inside it', () => {
    for (const values of [[], [0.2], [0.2, 0.8, 0.81], [0.99, 0.98, 0.97, 0.5, 0.01]]) {
      const p = parzen(values, 0, 1);
      let area = 0;
      const n = 20_000;
      for (let i = 0; i < n; i++) area += Math.exp(p.logDensity((i + 0.5) / n)) / n;
      expect(area).toBeCloseTo(1, 3);
      const random = seededRandom(9);
      for (let i = 0; i < 500; i++) {
        const x = p.sample(random);
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(1);
      }
    }
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
    expect(choiceDensity(3, [0, 0, 2])).toEqual([3 / 6, 1 / 6, 2 / 6]);
  });

  it('splits the best quarter (at least one) from the rest, unscored trials last, ties in the order tried', () => {
    const h: Observation[] = [0.1, null, 0.5, 0.5, 0.2, 0.3, 0.9, 0].map((score, i) => ({ point: [i], score }));
    const { good, bad } = splitGoodBad(h, 0.25);
    expect(good.map((o) => o.point[0])).toEqual([6, 2]);
    expect(bad.map((o) => o.point[0])).toEqual([3, 5, 4, 0, 7, 1]);
  });

  it('proposes points on the space (grid, bounds, choices) and the same ones for the same seed', () => {
    const tpe = tpeSampler(space, { startup: 5 });
    const a = search(tpe, 7, 30);
    expect(search(tpeSampler(space, { startup: 5 }), 7, 30).points).toEqual(a.points);
    expect(search(tpeSampler(space, { startup: 5 }), 8, 30).points).not.toEqual(a.points);
    for (const text of a.points) {
      const [x, y, k, c] = JSON.parse(text) as [number, number, number, string];
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
      expect(y).toBeGreaterThanOrEqual(0.1);
      expect(y).toBeLessThanOrEqual(1000);
      expect(Number.isInteger(k) && k >= 1 && k <= 9).toBe(true);
      expect(['a', 'b', 'c', 'd']).toContain(c);
    }
  });

  it('finds better points than random search with the same budget (median over 11 seeds)', () => {
    const median = (xs: number[]): number => [...xs].sort((p, q) => p - q)[xs.length >> 1]!;
    const seeds = Array.from({ length: 11 }, (_, i) => i + 1);
    const tpe = median(seeds.map((s) => search(tpeSampler(space, { startup: 10 }), s, 60).best));
    const rnd = median(seeds.map((s) => search(randomSampler(space), s, 60).best));
    expect(tpe).toBeGreaterThan(rnd);
    expect(tpe).toBeGreaterThan(-0.05); // near the optimum 0
  });
});
