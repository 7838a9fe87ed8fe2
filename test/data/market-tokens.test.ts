import { describe, expect, it } from 'vitest';
import type { MarketRules } from '../../src/core/types.ts';
import { outcomeTokens, trackedTokensOf } from '../../src/data/market-tokens.ts';

const rules: MarketRules = {
  conditionId: '0xc1',
  tickSize: 10_000,
  minOrderSize: 5_000_000,
  negRisk: true,
  makerBaseFeeBps: 0,
  takerBaseFeeBps: 0,
  acceptingOrders: true,
};
const market = {
  conditionId: '0xc1',
  question: 'Will it rain?',
  negRisk: true,
  negRiskMarketId: '0xnr',
  tokens: [
    { tokenId: '11', outcome: 'Yes' },
    { tokenId: '22', outcome: 'No' },
  ],
};

describe('a market becomes its tokens (src/data/market-tokens.ts)', () => {
  it('gives each outcome its index, its complement, the question and its own copy of the rules', () => {
    const [yes, no] = trackedTokensOf(market, rules);
    expect(yes).toEqual({ tokenId: '11', conditionId: '0xc1', outcome: 'Yes', outcomeIndex: 0, complementTokenId: '22', question: 'Will it rain?', negRiskMarketId: '0xnr', rules });
    expect(no).toMatchObject({ tokenId: '22', outcome: 'No', outcomeIndex: 1, complementTokenId: '11' });
    expect(yes!.rules).not.toBe(no!.rules);
  });

  it('keeps only the tokens asked for, each still naming its complement', () => {
    expect(trackedTokensOf(market, rules, (id) => id === '22')).toMatchObject([{ tokenId: '22', outcomeIndex: 1, complementTokenId: '11' }]);
  });

  it('a neg-risk id counts only on a neg-risk market; a one-token market has no complement', () => {
    const [only] = trackedTokensOf({ ...market, negRisk: false, tokens: [market.tokens[0]!] }, { ...rules, negRisk: false });
    expect(only).toMatchObject({ negRiskMarketId: undefined, complementTokenId: undefined, outcomeIndex: 0 });
  });

  it('takes the first two tokens of a market that lists more (the engine trades binary outcomes)', () => {
    const three = { ...market, tokens: [...market.tokens, { tokenId: '33', outcome: 'Maybe' }] };
    expect(outcomeTokens(three.tokens).map((t) => t.tokenId)).toEqual(['11', '22']);
    expect(trackedTokensOf(three, rules).map((t) => [t.tokenId, t.complementTokenId])).toEqual([
      ['11', '22'],
      ['22', '11'],
    ]);
  });
});
