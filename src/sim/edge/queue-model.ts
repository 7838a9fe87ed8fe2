import type { Micros } from '../../core/fixed.ts';

/**
 * Where a resting order of ours stands in its price level's queue, and how that place moves when
 * the recorded level shrinks. The recording shows only the level's total displayed size, never
 * who left it, so a shrink is either trades (taken from the front of the queue) or cancels
 * (anywhere in it). The models differ only in that attribution (docs/fill-model.md).
 *
 * Trade prints and crossings are handled by the execution edge for every model; a model sees
 * only the part of a shrink that no trade print explains.
 */
/** Every queue model, by name (`backtest.queueModel`). */
export const QUEUE_MODEL_NAMES = ['conservative', 'probabilistic', 'optimistic'] as const;
export type QueueModelName = (typeof QUEUE_MODEL_NAMES)[number];

export interface QueueModel {
  readonly name: QueueModelName;
  /**
   * The level at our price went from `before` to `after` displayed size (`after < before`), of
   * which `unexplained` is not accounted for by trade prints. `ahead` is the size in front of
   * our order. Returns the new size in front and the size that traded with us (optimistic only).
   */
  onShrink(ahead: Micros, before: Micros, after: Micros, unexplained: Micros): { ahead: Micros; fill: Micros };
}

/**
 * Shrinking is cancels behind us: the queue ahead only shrinks as far as it must (nobody ahead
 * can be left once the level is smaller than them) and a shrink never fills us. Our order fills
 * only through trade prints past the queue ahead or a crossing. The fewest, latest fills.
 */
export const CONSERVATIVE_QUEUE: QueueModel = Object.freeze({
  name: 'conservative' as const,
  onShrink(ahead: Micros, _before: Micros, after: Micros) {
    return { ahead: ahead < after ? ahead : after, fill: 0 };
  },
});

/**
 * Shrinking is spread over the queue in proportion to where the size is: the share in front of
 * us is `ahead / before`, so that share of the shrink comes off the queue ahead (rounded so the
 * queue shrinks less). Never fills us by itself.
 */
export const PROBABILISTIC_QUEUE: QueueModel = Object.freeze({
  name: 'probabilistic' as const,
  onShrink(ahead: Micros, before: Micros, after: Micros, unexplained: Micros) {
    let next = ahead;
    if (before > 0 && unexplained > 0 && ahead > 0) {
      const cut = Number((BigInt(unexplained) * BigInt(ahead)) / BigInt(before));
      next = ahead - cut;
    }
    return { ahead: next < after ? next : after, fill: 0 };
  },
});

/**
 * Shrinking is trades at the front: it eats the queue ahead first, and what is left of it would
 * have traded with us. The most fills; an upper bound for what the conservative model gives.
 */
export const OPTIMISTIC_QUEUE: QueueModel = Object.freeze({
  name: 'optimistic' as const,
  onShrink(ahead: Micros, _before: Micros, after: Micros, unexplained: Micros) {
    const taken = unexplained < ahead ? unexplained : ahead;
    const next = ahead - taken;
    return { ahead: next < after ? next : after, fill: unexplained - taken };
  },
});

export function queueModel(name: QueueModelName): QueueModel {
  switch (name) {
    case 'conservative':
      return CONSERVATIVE_QUEUE;
    case 'probabilistic':
      return PROBABILISTIC_QUEUE;
    case 'optimistic':
      return OPTIMISTIC_QUEUE;
  }
}
