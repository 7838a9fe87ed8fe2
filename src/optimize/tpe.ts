import { axisOf, uniformPoint, type Observation, type Sampler } from './sampler.ts';
import type { SearchSpace, SpacePoint } from './space.ts';

/**
 * The Tree-structured Parzen Estimator (Bergstra, Bardenet, Bengio and Kégl, "Algorithms for
 * Hyper-Parameter Optimization", NeurIPS 2011), the default search of hyperopt and Optuna, written
 * here because no maintained npm package offers it (docs/design-notes.md, "The optimiser's search").
 *
 * For each new point: the trials so far are split into the best fraction `gamma` ("good") and the
 * rest ("bad"); for each param, a density is fitted to the good trials' values, l(x), and one to
 * the bad trials', g(x), each with a wide prior component; `candidates` values are drawn from
 * l(x) and the one with the largest l(x)/g(x) is proposed (the expected improvement is monotone in
 * that ratio). Params are treated independently, as in hyperopt's TPE.
 *
 * A range's density is a mixture of normals truncated to its axis (sampler.ts: the logarithm for a
 * log range), one at each observed value and the prior at the axis's middle with the axis's width
 * as its spread; each observation's spread is the larger distance to its sorted neighbours (the
 * prior among them), clipped to [width / min(100, n + 1), width]: hyperopt's adaptive Parzen rule.
 * A choice's density is its counts among the trials plus one for each value, normalised.
 */
export interface TpeOptions {
  /** The share of trials taken as good. Default 0.25 (hyperopt's), at most 25 trials. */
  readonly gamma?: number;
  /** Values drawn from l(x) per param, the best of which is proposed. Default 24 (hyperopt's). */
  readonly candidates?: number;
  /** Trials drawn uniformly before the model is used. Default 10. */
  readonly startup?: number;
}

export function tpeSampler(space: SearchSpace, options: TpeOptions = {}): Sampler {
  const gamma = options.gamma ?? 0.25;
  const candidates = options.candidates ?? 24;
  const startup = Math.max(2, options.startup ?? 10);
  return {
    name: 'tpe',
    propose(history: readonly Observation[], random: () => number): SpacePoint {
      if (history.length < startup) return uniformPoint(space, random);
      const { good, bad } = splitGoodBad(history, gamma);
      return space.params.map((p, i) => {
        if (p.kind === 'choice') {
          const index = (o: Observation): number => p.choices.findIndex((c) => c === o.point[i]);
          const l = choiceDensity(p.choices.length, good.map(index));
          const g = choiceDensity(p.choices.length, bad.map(index));
          let best = -1;
          let bestScore = -Infinity;
          for (let k = 0; k < candidates; k++) {
            const c = drawIndex(l, random);
            const s = Math.log(l[c]!) - Math.log(g[c]!);
            if (s > bestScore) [best, bestScore] = [c, s];
          }
          return p.choices[best]!;
        }
        const axis = axisOf(p);
        const at = (o: Observation): number => axis.toAxis(o.point[i] as number);
        const l = parzen(good.map(at), axis.low, axis.high);
        const g = parzen(bad.map(at), axis.low, axis.high);
        let best = NaN;
        let bestScore = -Infinity;
        for (let k = 0; k < candidates; k++) {
          const x = l.sample(random);
          const s = l.logDensity(x) - g.logDensity(x);
          if (s > bestScore) [best, bestScore] = [x, s];
        }
        return axis.toValue(best);
      });
    },
  };
}

/** The best `ceil(gamma·n)` trials (at least 1, at most 25) and the rest; ties keep the order tried. */
export function splitGoodBad(history: readonly Observation[], gamma: number): { good: Observation[]; bad: Observation[] } {
  const order = history.map((o, i) => ({ o, i, s: o.score ?? -Infinity }));
  order.sort((a, b) => (b.s === a.s ? a.i - b.i : b.s > a.s ? 1 : -1));
  const n = Math.min(25, Math.max(1, Math.ceil(gamma * history.length)));
  return { good: order.slice(0, n).map((x) => x.o), bad: order.slice(n).map((x) => x.o) };
}

/** A mixture of normals truncated to [low, high]: the observations' components and the prior's. */
export interface Parzen {
  readonly mus: readonly number[];
  readonly sigmas: readonly number[];
  logDensity(x: number): number;
  sample(random: () => number): number;
}

/** The adaptive Parzen estimator of `values` on [low, high] (see tpeSampler). */
export function parzen(values: readonly number[], low: number, high: number): Parzen {
  const width = high - low;
  const priorMu = (low + high) / 2;
  // the prior goes among the observations in sorted order; equal values keep their own component
  const points = [...values.map((v) => ({ mu: v, prior: false })), { mu: priorMu, prior: true }].sort((a, b) => a.mu - b.mu || (a.prior ? 1 : 0) - (b.prior ? 1 : 0));
  const minSigma = width / Math.min(100, points.length);
  const mus = points.map((p) => p.mu);
  const sigmas = points.map((p, k) => {
    if (p.prior) return width;
    const left = k > 0 ? mus[k]! - mus[k - 1]! : -Infinity;
    const right = k < mus.length - 1 ? mus[k + 1]! - mus[k]! : -Infinity;
    return Math.min(width, Math.max(minSigma, left, right));
  });
  const masses = mus.map((mu, k) => normalCdf((high - mu) / sigmas[k]!) - normalCdf((low - mu) / sigmas[k]!));
  const weight = 1 / mus.length;
  return {
    mus,
    sigmas,
    logDensity(x: number): number {
      let sum = 0;
      for (let k = 0; k < mus.length; k++) {
        const z = (x - mus[k]!) / sigmas[k]!;
        sum += (weight * Math.exp(-0.5 * z * z)) / (sigmas[k]! * Math.sqrt(2 * Math.PI) * Math.max(masses[k]!, 1e-12));
      }
      return Math.log(Math.max(sum, 1e-300));
    },
    sample(random: () => number): number {
      const k = Math.min(mus.length - 1, Math.floor(random() * mus.length));
      // rejection from the component's normal; a component almost wholly outside falls back to the bounds
      for (let tries = 0; tries < 100; tries++) {
        const x = mus[k]! + sigmas[k]! * standardNormal(random);
        if (x >= low && x <= high) return x;
      }
      return Math.min(high, Math.max(low, mus[k]!));
    },
  };
}

/** A choice's probabilities: each value's count among `indices` plus one, normalised. */
export function choiceDensity(n: number, indices: readonly number[]): number[] {
  const counts = new Array<number>(n).fill(1);
  for (const i of indices) if (i >= 0) counts[i]! += 1;
  const total = counts.reduce((a, b) => a + b, 0);
  return counts.map((c) => c / total);
}

function drawIndex(probabilities: readonly number[], random: () => number): number {
  let u = random();
  for (let i = 0; i < probabilities.length; i++) {
    u -= probabilities[i]!;
    if (u < 0) return i;
  }
  return probabilities.length - 1;
}

/** A standard normal draw (Box–Muller, two uniforms per draw: the stream's use does not depend on a cache). */
function standardNormal(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Φ(x), the standard normal's distribution function, from erf (Abramowitz and Stegun 7.1.26, error < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + y) : 0.5 * (1 - y);
}
