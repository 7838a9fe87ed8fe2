import type { SearchSpace, SpacePoint } from './space.ts';

/**
 * How much of the spread of the trials' scores each param accounts for: the correlation ratio η²
 * (between-group variance over total variance) of the scores grouped by the param's value, a
 * choice by its values, a range by its quartiles (by rank; fewer groups when it took fewer values).
 * 0: the score does not depend on it in these trials; 1: it alone decides. Params are judged one
 * at a time (interactions are not seen), on the trials that have a score; with fewer than 4 such
 * trials, or scores that do not vary, it is null.
 */
export function paramImportance(space: SearchSpace, trials: readonly { point: SpacePoint; score: number | null }[]): (number | null)[] {
  const scored = trials.filter((t): t is { point: SpacePoint; score: number } => t.score !== null && Number.isFinite(t.score));
  if (scored.length < 4) return space.params.map(() => null);
  const mean = scored.reduce((a, t) => a + t.score, 0) / scored.length;
  const total = scored.reduce((a, t) => a + (t.score - mean) ** 2, 0);
  if (total <= 0) return space.params.map(() => null);
  return space.params.map((p, i) => {
    const groups = new Map<string, number[]>();
    if (p.kind === 'choice') {
      for (const t of scored) push(groups, String(t.point[i]), t.score);
    } else {
      const order = [...scored].sort((a, b) => (a.point[i] as number) - (b.point[i] as number));
      const distinct = new Set(order.map((t) => t.point[i])).size;
      const bins = Math.min(4, distinct);
      // equal values stay in one bin: a bin is chosen by the rank of the value's first appearance
      const firstRank = new Map<unknown, number>();
      order.forEach((t, r) => {
        if (!firstRank.has(t.point[i])) firstRank.set(t.point[i], r);
      });
      for (const t of order) push(groups, String(Math.min(bins - 1, Math.floor((firstRank.get(t.point[i])! * bins) / order.length))), t.score);
    }
    let between = 0;
    for (const scores of groups.values()) {
      const m = scores.reduce((a, b) => a + b, 0) / scores.length;
      between += scores.length * (m - mean) ** 2;
    }
    return Math.min(1, between / total);
  });
}

function push(groups: Map<string, number[]>, key: string, score: number): void {
  const list = groups.get(key);
  if (list) list.push(score);
  else groups.set(key, [score]);
}
