import { snap, steppedMax, type RangeParam, type SearchSpace, type SpacePoint } from './space.ts';

/**
 * What a search strategy sees and does: given the trials scored so far, propose the next point.
 * Samplers are pure functions of (space, history, random stream): with the same seed they propose
 * the same points in the same order, on any machine.
 */
export interface Sampler {
  readonly name: SamplerName;
  /** The next point to try. `history`: the trials finished so far, in the order they were proposed. */
  propose(history: readonly Observation[], random: () => number): SpacePoint;
}

export const SAMPLER_NAMES = ['tpe', 'random'] as const;
export type SamplerName = (typeof SAMPLER_NAMES)[number];

/** A finished trial as a sampler sees it: its point and its score (higher is better; null: no score, ranks last). */
export interface Observation {
  readonly point: SpacePoint;
  readonly score: number | null;
}

/**
 * A range as the samplers search it: the value's axis (its logarithm for a log range) stretched
 * half a step past each end of a stepped range, so every grid value owns an equal stretch of the
 * axis and is as likely as its neighbours under a uniform draw.
 */
export interface Axis {
  readonly low: number;
  readonly high: number;
  /** From the axis to the param's value (on its grid, within its bounds). */
  toValue(u: number): number;
  /** From a value to the axis. */
  toAxis(v: number): number;
}

export function axisOf(p: RangeParam): Axis {
  const top = steppedMax(p);
  const half = p.step === undefined ? 0 : p.step / 2;
  if (p.log) {
    const lo = Math.log(Math.max(p.min - half, p.min / 2));
    const hi = Math.log(top + half);
    return { low: lo, high: hi, toValue: (u) => snap(p, Math.exp(u)), toAxis: (v) => Math.log(v) };
  }
  return { low: p.min - half, high: top + half, toValue: (u) => snap(p, u), toAxis: (v) => v };
}

/** A point drawn uniformly (on each range's axis; each choice equally likely). */
export function uniformPoint(space: SearchSpace, random: () => number): SpacePoint {
  return space.params.map((p) => {
    if (p.kind === 'choice') return p.choices[Math.min(p.choices.length - 1, Math.floor(random() * p.choices.length))]!;
    const axis = axisOf(p);
    return axis.toValue(axis.low + random() * (axis.high - axis.low));
  });
}

/** Random search: every point drawn uniformly, whatever came before. */
export const randomSampler = (space: SearchSpace): Sampler => ({
  name: 'random',
  propose: (_history, random) => uniformPoint(space, random),
});
