import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { VenueRejectError } from '../../src/core/errors.ts';
import { DAY_MS, estimateShare, quoteInYesTerms, type RewardRules } from '../../src/core/rewards.ts';
import { MarketCache } from '../../src/data/market-cache.ts';
import { RewardAccrual, type VenueShareSource } from '../../src/engine/reward-accrual.ts';
import { OrderTracker } from '../../src/execution/order-tracker.ts';
import { book, COND, M, request, T0, YES_TOKEN } from './parts.ts';

/**
 * The live estimate's share source (src/engine/reward-accrual.ts, docs/rewards.md "Our accrual"):
 * each sample takes the venue's figure (`GET /rewards/user/percentages`, here a scripted source:
 * the real route is read end to end in test/strategies/rewards-mm.e2e.test.ts) when it answers,
 * the model's otherwise, and keeps the model's beside it. Rules: 144 USDC a day, min_size 100,
 * band 3 cents. The book (ours in it, as live): bids 0.49 x 100 (ours), 0.48 x 500; asks 0.52 x 500.
 */
const RULES: RewardRules = { dailyRate: 144, minSize: 100 * M, maxSpreadCents: 3 };
const SAMPLE_MS = 60_000;
const AT = Math.ceil(T0 / SAMPLE_MS) * SAMPLE_MS;
const payOf = (share: number) => (RULES.dailyRate * share * SAMPLE_MS) / DAY_MS;
/**
 * The model's share of our one bid on that book: the adjusted midpoint (0.49 + 0.52) / 2 = 0.505;
 * ours s = 1.5 cents, ((3 - 1.5) / 3)^2 * 100 = 25, one-sided: a third, 8.333; the rest: bid 0.48
 * s = 2.5, (0.5 / 3)^2 * 500 = 13.889, ask 0.52 s = 1.5, (1.5 / 3)^2 * 500 = 125, Q_min
 * max(13.889, 125 / 3) = 41.667: share 8.333 / 50 = 1/6.
 */
const MODEL = estimateShare(
  RULES,
  {
    bids: [
      { price: 490_000, size: 100 * M },
      { price: 480_000, size: 500 * M },
    ],
    asks: [{ price: 520_000, size: 500 * M }],
  },
  [quoteInYesTerms(0, 'BUY', 490_000, 100 * M)],
  true,
).share;

function rig(source: VenueShareSource | undefined, options: { placed?: boolean } = {}) {
  const clock = new SimulatedClock(AT);
  const cache = new MarketCache();
  cache.track({ ...YES_TOKEN, rules: { ...YES_TOKEN.rules, rewards: RULES } });
  cache.apply(
    book(
      T0,
      [
        [490_000, 100 * M],
        [480_000, 500 * M],
      ],
      [[520_000, 500 * M]],
    ),
  );
  const tracker = new OrderTracker();
  const ours = tracker.add(request({ price: 490_000, size: 100 * M, strategyId: 'mm' }), T0);
  if (options.placed !== false) {
    tracker.setOrderId(ours, '0xo1', T0);
    tracker.transition(ours, 'LIVE', T0);
  }
  const warnings: string[] = [];
  const log = { warn: (msg: string) => warnings.push(msg) };
  const accrual = new RewardAccrual({ clock, cache, tracker, settings: { sampleMs: SAMPLE_MS, bookHasOurs: true, venueShares: source }, log });
  const totals: number[] = [];
  accrual.onSample = (total) => totals.push(total);
  return { clock, accrual, warnings, totals };
}

/** Samples at `t`, the clock there first (a sample's read waits for its instant on the clock). */
function at(r: ReturnType<typeof rig>, t: number): void {
  r.clock.advanceTo(t);
  r.accrual.sample(t);
}

describe("the live estimate's share: the venue's figure, the model's beside it", () => {
  it('the model alone (paper, backtest, the switch off): each sample settles at once, the source "model"', () => {
    expect(MODEL).toBeCloseTo(1 / 6, 12);
    const r = rig(undefined);
    r.accrual.sample(AT);
    const m = r.accrual.snapshot().markets[0]!;
    expect(m).toMatchObject({ conditionId: COND, samples: 1, scoringSamples: 1, shareSource: 'model', venueSamples: 0, lastShare: MODEL, lastModelShare: MODEL });
    expect(m.reward).toBeCloseTo(payOf(MODEL), 12);
    expect(r.totals).toHaveLength(1);
  });

  it("the venue answers: the sample pays on its share (percent / 100), the model's kept beside it; a market it does not list is 0", async () => {
    const answers = [new Map([[COND.toUpperCase().replace('0X', '0x'), 62.5]]), new Map<string, number>()];
    let calls = 0;
    const r = rig(() => Promise.resolve(answers[calls++]!));
    r.accrual.sample(AT);
    expect(r.totals).toHaveLength(0); // waits for the venue's figure
    await r.accrual.settled();
    let m = r.accrual.snapshot().markets[0]!;
    expect(m).toMatchObject({ samples: 1, scoringSamples: 1, shareSource: 'venue', venueSamples: 1, lastShare: 0.625, lastModelShare: MODEL });
    expect(m.reward).toBeCloseTo(payOf(0.625), 12);
    at(r, AT + SAMPLE_MS);
    await r.accrual.settled();
    m = r.accrual.snapshot().markets[0]!;
    expect(m).toMatchObject({ samples: 2, scoringSamples: 1, venueSamples: 2, lastShare: 0, lastModelShare: MODEL });
    expect(m.reward).toBeCloseTo(payOf(0.625), 12);
    expect(r.accrual.snapshot('mm').total).toBeCloseTo(payOf(0.625), 12);
    const summary = r.accrual.summary()!.byMarket[COND]!;
    expect(summary).toMatchObject({ shareSource: 'venue', venueSamples: 2, meanShare: 0.3125, meanModelShare: Number(MODEL.toFixed(6)) });
    // the store's note keeps the sources, and a restarted run goes on from them
    const again = rig(undefined);
    again.accrual.restore(r.accrual.note(AT));
    expect(again.accrual.summary()!.byMarket[COND]).toEqual(summary);
  });

  it("the read fails: that sample takes the model's share, logged once; the next read that answers is the venue's again", async () => {
    let calls = 0;
    const r = rig(() => {
      calls++;
      return calls <= 2 ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(new Map([[COND, 50]]));
    });
    for (let i = 0; i < 3; i++) at(r, AT + i * SAMPLE_MS);
    await r.accrual.settled();
    const m = r.accrual.snapshot().markets[0]!;
    expect(m).toMatchObject({ samples: 3, scoringSamples: 3, venueSamples: 1, shareSource: 'venue', lastShare: 0.5 });
    expect(m.reward).toBeCloseTo(2 * payOf(MODEL) + payOf(0.5), 12);
    expect(r.warnings).toEqual(["reward share: the venue's figure could not be read; the model's share is used"]);
    expect(r.totals).toHaveLength(3);
  });

  it('a throw while booking a sample (the store gone) is logged, and later samples still settle', async () => {
    const r = rig(() => Promise.resolve(new Map([[COND, 30]])));
    r.accrual.onSample = () => {
      throw new Error('the database connection is not open');
    };
    at(r, AT);
    await r.accrual.settled();
    expect(r.warnings).toEqual(['reward sample: booking failed']);
    r.accrual.onSample = undefined;
    at(r, AT + SAMPLE_MS);
    await r.accrual.settled();
    expect(r.accrual.snapshot().markets[0]).toMatchObject({ samples: 2, venueSamples: 2, lastShare: 0.3 });
  });

  it('samples taken together (a late timer takes every instant due) share one read of the venue', async () => {
    let calls = 0;
    const r = rig(() => {
      calls++;
      return Promise.resolve(new Map([[COND, 25]]));
    });
    r.clock.advanceTo(AT + 2 * SAMPLE_MS + 10);
    for (let i = 0; i < 3; i++) r.accrual.sample(AT + i * SAMPLE_MS);
    await r.accrual.settled();
    expect(calls).toBe(1);
    expect(r.accrual.snapshot().markets[0]).toMatchObject({ samples: 3, venueSamples: 3, scoringSamples: 3, lastShare: 0.25 });
  });

  it('a venue without the route (404) is not asked again this run', async () => {
    let calls = 0;
    const r = rig(() => {
      calls++;
      return Promise.reject(new VenueRejectError('getRewardPercentages: 404 Not Found', 404, 'getRewardPercentages', 'Not Found', undefined));
    });
    at(r, AT);
    await r.accrual.settled();
    for (let i = 1; i < 3; i++) at(r, AT + i * SAMPLE_MS);
    await r.accrual.settled();
    expect(calls).toBe(1);
    expect(r.accrual.snapshot().markets[0]).toMatchObject({ samples: 3, scoringSamples: 3, venueSamples: 0, shareSource: 'model' });
    expect(r.warnings).toHaveLength(1);
  });

  it("samples settle in order though a later read answers first; a figure that comes after the next instant is taken, logged once", async () => {
    const pending: ((v: Map<string, number>) => void)[] = [];
    const r = rig(() => new Promise((resolve) => pending.push(resolve)));
    r.accrual.sample(AT);
    at(r, AT + SAMPLE_MS);
    expect(pending).toHaveLength(2);
    pending[1]!(new Map([[COND, 20]]));
    await Promise.resolve();
    expect(r.totals).toHaveLength(0);
    r.clock.advanceTo(AT + 2 * SAMPLE_MS); // the first answer comes after the next instant
    pending[0]!(new Map([[COND, 10]]));
    await r.accrual.settled();
    expect(r.totals).toEqual([payOf(0.1), payOf(0.1) + payOf(0.2)]);
    expect(r.accrual.snapshot().markets[0]!.lastShare).toBe(0.2);
    expect(r.warnings).toEqual(["reward share: the venue's figure came after the next sample instant (it may be that instant's)"]);
  });

  it('the venue pays on an order the run does not know rests yet (its post unanswered): the strategy with it in the market gets the reward', async () => {
    const r = rig(() => Promise.resolve(new Map([[COND, 40]])), { placed: false });
    r.accrual.sample(AT);
    await r.accrual.settled();
    const m = r.accrual.snapshot().markets[0]!;
    expect(m).toMatchObject({ lastShare: 0.4, lastModelShare: 0, shareSource: 'venue' });
    expect(r.accrual.snapshot('mm').total).toBeCloseTo(payOf(0.4), 12);
    expect(r.accrual.summary()!.byStrategy).toEqual({ mm: payOf(0.4).toFixed(6) });
  });
});
