import type { Prng } from '../world/prng.ts';

/** Parameters of one market's latent probability (logit units, seconds). */
export interface WalkParams {
  /** Diffusion: standard deviation of the logit after one second. */
  readonly volatility: number;
  /** Pull back to the starting logit, per second (Ornstein-Uhlenbeck rate). */
  readonly meanReversionPerSecond: number;
  /** Rate of news jumps per second. */
  readonly jumpsPerSecond: number;
  /** Standard deviation of a jump, logit units. */
  readonly jumpSize: number;
}

/**
 * A market's "true" probability as the synthetic flow sees it: a mean-reverting random walk in
 * logit space with occasional jumps, reflected at bounds (kept away from 0 and 1 so quotes fit
 * on the tick grid). Steps are exact for any elapsed time (the Ornstein-Uhlenbeck transition),
 * so how often a market is visited changes nothing about the distribution of its path.
 */
export class LatentWalk {
  #x: number;
  readonly #anchor: number;
  #lo: number;
  #hi: number;

  constructor(initialP: number, lowP: number, highP: number) {
    this.#lo = logit(lowP);
    this.#hi = logit(highP);
    this.#x = clamp(logit(initialP), this.#lo, this.#hi);
    this.#anchor = this.#x;
  }

  /** The probability now, in (0, 1). */
  get p(): number {
    return 1 / (1 + Math.exp(-this.#x));
  }

  /** New bounds (a tick size change); the walk is moved inside them. */
  setBounds(lowP: number, highP: number): void {
    this.#lo = logit(lowP);
    this.#hi = logit(highP);
    this.#x = clamp(this.#x, this.#lo, this.#hi);
  }

  /** News: the probability moves by `dp` at once (kept inside the bounds); the walk goes on from there. */
  nudge(dp: number): void {
    const lo = 1 / (1 + Math.exp(-this.#lo));
    const hi = 1 / (1 + Math.exp(-this.#hi));
    this.#x = logit(clamp(this.p + dp, lo, hi));
  }

  advance(dtSec: number, rng: Prng, params: WalkParams): void {
    if (!(dtSec > 0)) return;
    const theta = params.meanReversionPerSecond;
    const anchor = clamp(this.#anchor, this.#lo, this.#hi);
    let x: number;
    if (theta > 0) {
      const decay = Math.exp(-theta * dtSec);
      const sd = params.volatility * Math.sqrt((1 - decay * decay) / (2 * theta));
      x = anchor + (this.#x - anchor) * decay + sd * normal(rng);
    } else {
      x = this.#x + params.volatility * Math.sqrt(dtSec) * normal(rng);
    }
    if (params.jumpsPerSecond > 0 && rng.chance(1 - Math.exp(-params.jumpsPerSecond * dtSec))) x += params.jumpSize * normal(rng);
    this.#x = reflect(x, this.#lo, this.#hi);
  }
}

export function logit(p: number): number {
  return Math.log(p / (1 - p));
}

/** A standard normal draw (Box-Muller). */
export function normal(rng: Prng): number {
  const u = 1 - rng.float(); // (0, 1]
  const v = rng.float();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

function reflect(x: number, lo: number, hi: number): number {
  if (x > hi) x = 2 * hi - x;
  if (x < lo) x = 2 * lo - x;
  return clamp(x, lo, hi);
}
