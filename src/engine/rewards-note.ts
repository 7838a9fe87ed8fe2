import type { ShareSource } from './venue-share-reader.ts';

/*
 * Our reward accrual as it is kept and shown: the note the store keeps (a cursor a restarted run
 * goes on from, `clobot status` reads), the summary built from it, and the one rounding of reward
 * figures. The accrual itself is reward-accrual.ts.
 */

/** What `summary()` gives: the run's rewards apart from its trading PnL (USDC, 6 decimals as text). */
export interface RewardsSummary {
  readonly sampleMs: number;
  readonly samples: number;
  /** Our estimated accrual over the run, USDC. */
  readonly total: string;
  readonly byMarket: Readonly<Record<string, MarketRewardsSummary>>;
  readonly byStrategy: Readonly<Record<string, string>>;
}

/** One market's line of the summary. */
export interface MarketRewardsSummary {
  readonly reward: string;
  readonly dailyRate: number;
  readonly scoringSamples: number;
  /** The mean share over the market's samples (the figure each sample paid on). */
  readonly meanShare: number;
  /** Where the latest sample's share came from, and how many samples took the venue's figure. */
  readonly shareSource: ShareSource;
  readonly venueSamples: number;
  /** The model's mean share over the same samples: equal to meanShare when every sample was the model's. */
  readonly meanModelShare: number;
}

/**
 * What the store keeps of our accrual (a cursor, rewritten at each sample): `clobot status` reads
 * it, and a restarted run goes on from it. Rewards are USDC, unrounded.
 */
export interface RewardsNote {
  readonly at: number;
  readonly sampleMs: number;
  readonly samples: number;
  readonly markets: readonly {
    readonly conditionId: string;
    readonly dailyRate: number;
    readonly reward: number;
    readonly samples: number;
    readonly scoringSamples: number;
    readonly shareSum: number;
    /** Additive (absent in notes written before them: every sample then was the model's). */
    readonly venueSamples?: number;
    readonly modelShareSum?: number;
    readonly shareSource?: ShareSource;
    readonly byStrategy: Readonly<Record<string, number>>;
  }[];
}

/** The summary's form of a note: markets and strategies with rewards as 6-decimal text, strategies sorted. */
export function rewardsSummaryOf(note: RewardsNote): RewardsSummary {
  const byMarket: Record<string, RewardsSummary['byMarket'][string]> = {};
  const byStrategy = new Map<string, number>();
  let total = 0;
  for (const m of note.markets) {
    total += m.reward;
    byMarket[m.conditionId] = {
      reward: usdcText(m.reward),
      dailyRate: m.dailyRate,
      scoringSamples: m.scoringSamples,
      meanShare: meanOf(m.shareSum, m.samples),
      shareSource: m.shareSource ?? 'model',
      venueSamples: m.venueSamples ?? 0,
      meanModelShare: meanOf(m.modelShareSum ?? m.shareSum, m.samples),
    };
    for (const [id, r] of Object.entries(m.byStrategy)) byStrategy.set(id, (byStrategy.get(id) ?? 0) + r);
  }
  const strategies: Record<string, string> = {};
  for (const [id, r] of [...byStrategy].sort((a, b) => (a[0] < b[0] ? -1 : 1))) strategies[id] = usdcText(r);
  return { sampleMs: note.sampleMs, samples: note.samples, total: usdcText(total), byMarket, byStrategy: strategies };
}

const meanOf = (sum: number, n: number): number => (n > 0 ? Number((sum / n).toFixed(6)) : 0);

/** A note read back from a store, checked; undefined when absent or not a note. */
export function parseRewardsNote(text: string | undefined): RewardsNote | undefined {
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as RewardsNote;
    return typeof v === 'object' && v !== null && Array.isArray(v.markets) && typeof v.sampleMs === 'number' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** USDC as text with 6 decimals (a micro-USDC), the one rounding of reward figures. */
export function usdcText(value: number): string {
  return value.toFixed(6);
}
