import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { trackedTokens } from '../../src/app/recorded-markets.ts';
import { recordedMarketOf } from '../../src/data/recording/convert.ts';
import { tokensOf } from '../../src/data/market-selection.ts';
import { decodeTradingMarket } from '../../src/venue/decode.ts';

/** The venue's `rewards` reaches every tracked token's rules (`MarketSnapshot.rules.rewards`), live and recorded. */
describe("a market's reward rules on its tokens", () => {
  const venue = decodeTradingMarket(JSON.parse(readFileSync('/work/shared/fixtures/venue/clob_market.json', 'utf8')));

  it('a live market: the decoded rules, not the per-asset rates', () => {
    const tokens = tokensOf([venue]);
    expect(tokens).toHaveLength(2);
    for (const t of tokens) expect(t.rules.rewards).toEqual({ dailyRate: 750, minSize: 200_000_000, maxSpreadCents: 1.5 });
    // a market paying none has none
    expect(tokensOf([{ ...venue, rewards: undefined }])[0]!.rules.rewards).toBeUndefined();
  });

  it('a recorded market keeps them in its header entry, and a backtest reads them back', () => {
    const recorded = recordedMarketOf(venue);
    expect(recorded.rewards).toEqual({ dailyRate: 750, minSize: '200', maxSpreadCents: 1.5 });
    for (const t of trackedTokens([recorded])) expect(t.rules.rewards).toEqual({ dailyRate: 750, minSize: 200_000_000, maxSpreadCents: 1.5 });
    const { rewards: _, ...without } = recorded;
    expect(trackedTokens([without])[0]!.rules.rewards).toBeUndefined();
  });
});
