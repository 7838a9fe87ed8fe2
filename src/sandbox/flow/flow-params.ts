import type { WalkParams } from './latent-walk.ts';

/** Knobs of the synthetic flow. `intensity` scales `actionsPerSecond` and `takersPerSecond`. */
export interface FlowParams extends WalkParams {
  /** Clock period of the flow's work, ms. */
  readonly stepMs: number;
  /**
   * Agent actions per second over the whole sandbox (the CPU budget). A market visit costs one
   * action plus one per order sent, per cancel call and per trade printed. Markets are visited round-robin until
   * the budget is spent, so 5,000 markets cost what 200 do: each is just visited less often.
   */
  readonly actionsPerSecond: number;
  /** A market is visited at most this often (a small world does not spin). */
  readonly maxVisitsPerMarketPerSecond: number;
  /** Taker orders per market per second (Poisson), at intensity 1. */
  readonly takersPerSecond: number;
  /** Taker orders one visit may send (bounds a visit's work after a long gap). */
  readonly maxTakersPerVisit: number;
  /** Maker levels per side. */
  readonly levelsPerSide: number;
  /** Share of taker orders sent as FOK (the rest are FAK). */
  readonly fokShare: number;
}

export const DEFAULT_FLOW_PARAMS: FlowParams = Object.freeze({
  stepMs: 100,
  actionsPerSecond: 400,
  maxVisitsPerMarketPerSecond: 4,
  takersPerSecond: 0.1,
  maxTakersPerVisit: 3,
  levelsPerSide: 3,
  fokShare: 0.3,
  volatility: 0.02,
  meanReversionPerSecond: 1 / 900,
  jumpsPerSecond: 1 / 900,
  jumpSize: 0.3,
});

/** Largest accepted intensity. */
export const MAX_FLOW_INTENSITY = 100;

/** Largest accepted action budget (`actionsPerSecond`, before the intensity). */
export const MAX_FLOW_ACTIONS_PER_SECOND = 100_000;

/** An action budget's error, or undefined when `n` is one (a whole number in 1..MAX_FLOW_ACTIONS_PER_SECOND). */
export function actionsPerSecondIssue(n: unknown): string | undefined {
  if (typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 && n <= MAX_FLOW_ACTIONS_PER_SECOND) return undefined;
  return `must be a whole number in 1..${MAX_FLOW_ACTIONS_PER_SECOND}, was ${JSON.stringify(n)}`;
}
