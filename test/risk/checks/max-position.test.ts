import { describe, expect, it } from 'vitest';
import { maxPosition, maxPositionExact } from '../../../src/risk/checks/max-position.ts';
import { m, markets, N1, order, resting, runTable, state, view, Y1 } from '../fixtures.ts';

const tok = { maxPositionPerToken: m('100') };
const mkt = { maxPositionPerMarket: m('100') };
const pos = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, m(v)]));
const P1 = view({ tokenId: 'P1', conditionId: '0xp', complementTokenId: undefined });
const P2 = view({ tokenId: 'P2', conditionId: '0xp', outcomeIndex: 1, complementTokenId: undefined });

describe('maxPosition per token', () => {
  runTable(maxPosition, 'maxPosition', [
    { name: 'no limits', req: { size: m('1000000') }, code: undefined },
    { name: 'BUY to exactly the limit', req: { size: m('100') }, limits: tok, code: undefined },
    { name: 'BUY one micro over', req: { size: m('100.000001') }, limits: tok, code: 'POSITION_LIMIT', message: 'projected position 100.000001 in token Y1 exceeds max 100' },
    { name: 'position + open BUY + order at the limit', req: { size: m('5') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ remaining: m('5') })] }, limits: tok, code: undefined },
    { name: 'position + open BUY + order one micro over', req: { size: m('5.000001') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ remaining: m('5') })] }, limits: tok, code: 'POSITION_LIMIT' },
    { name: "another strategy's open BUY counts", req: { size: m('5.000001') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ remaining: m('5'), strategyId: 's2' })] }, limits: tok, code: 'POSITION_LIMIT' },
    { name: 'open SELLs (other direction) do not offset', req: { size: m('10.000001') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ side: 'SELL', remaining: m('50') })] }, limits: tok, code: 'POSITION_LIMIT' },
    { name: 'open SELLs are not added to a BUY', req: { size: m('10') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ side: 'SELL', remaining: m('50') })] }, limits: tok, code: undefined },
    { name: 'open BUYs on another token do not count', req: { size: m('10') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ tokenId: 'N1', remaining: m('50') })] }, limits: tok, code: undefined },
    { name: 'filled open orders (remaining 0) do not count', req: { size: m('10') }, state: { positions: pos({ Y1: '90' }), openOrders: [resting({ remaining: 0 })] }, limits: tok, code: undefined },
    { name: 'SELL from flat to exactly -limit', req: { side: 'SELL', size: m('100') }, limits: tok, code: undefined },
    { name: 'SELL from flat one micro beyond -limit', req: { side: 'SELL', size: m('100.000001') }, limits: tok, code: 'POSITION_LIMIT', message: 'projected position -100.000001 in token Y1 exceeds max 100' },
    { name: 'SELL with open SELLs beyond -limit', req: { side: 'SELL', size: m('30') }, state: { positions: pos({ Y1: '10' }), openOrders: [resting({ side: 'SELL', remaining: m('80.000001') })] }, limits: tok, code: 'POSITION_LIMIT' },
    { name: 'selling down a position over a lowered limit is allowed', req: { side: 'SELL', size: m('10') }, state: { positions: pos({ Y1: '150' }) }, limits: tok, code: undefined },
    { name: 'buying more of a position over the limit is denied', req: { size: 1 }, state: { positions: pos({ Y1: '150' }) }, limits: tok, code: 'POSITION_LIMIT' },
    { name: 'a SELL overshooting past -limit is denied', req: { side: 'SELL', size: m('200') }, state: { positions: pos({ Y1: '50' }) }, limits: tok, code: 'POSITION_LIMIT', message: /projected position -150 / },
    { name: 'unknown token with only the token limit still checks the position', req: { tokenId: 'nope', size: m('100.000001') }, limits: tok, code: 'POSITION_LIMIT' },
    { name: 'unknown token within the token limit', req: { tokenId: 'nope', size: m('10') }, limits: tok, code: undefined },
    { name: 'token limit checked before market limit', req: { size: m('60') }, limits: { maxPositionPerToken: m('50'), maxPositionPerMarket: m('10') }, code: 'POSITION_LIMIT' },
  ]);
});

describe('maxPosition per market (YES - NO netted)', () => {
  runTable(maxPosition, 'maxPosition', [
    { name: 'BUY YES to exactly the limit', req: { size: m('100') }, limits: mkt, code: undefined },
    { name: 'BUY YES one micro over', req: { size: m('100.000001') }, limits: mkt, code: 'MARKET_POSITION_LIMIT', message: 'projected net YES-NO 100.000001 in market 0xc1 exceeds max 100' },
    { name: 'NO held offsets YES: net 20 + 80', req: { size: m('80') }, state: { positions: pos({ Y1: '50', N1: '30' }) }, limits: mkt, code: undefined },
    { name: 'NO held offsets YES: net 20 + 80.000001', req: { size: m('80.000001') }, state: { positions: pos({ Y1: '50', N1: '30' }) }, limits: mkt, code: 'MARKET_POSITION_LIMIT' },
    { name: 'BUY NO moves net down to exactly -limit', req: { tokenId: 'N1', size: m('120') }, state: { positions: pos({ Y1: '50', N1: '30' }) }, limits: mkt, code: undefined },
    { name: 'BUY NO one micro past -limit', req: { tokenId: 'N1', size: m('120.000001') }, state: { positions: pos({ Y1: '50', N1: '30' }) }, limits: mkt, code: 'MARKET_POSITION_LIMIT', message: 'projected net YES-NO -100.000001 in market 0xc1 exceeds max 100' },
    {
      name: 'open BUY YES and open SELL NO both move net up',
      req: { size: m('60') },
      state: { positions: pos({ Y1: '50', N1: '30' }), openOrders: [resting({ remaining: m('10') }), resting({ tokenId: 'N1', side: 'SELL', remaining: m('10') })] },
      limits: mkt,
      code: undefined,
    },
    {
      name: 'open BUY YES and open SELL NO: one micro over',
      req: { size: m('60.000001') },
      state: { positions: pos({ Y1: '50', N1: '30' }), openOrders: [resting({ remaining: m('10') }), resting({ tokenId: 'N1', side: 'SELL', remaining: m('10') })] },
      limits: mkt,
      code: 'MARKET_POSITION_LIMIT',
    },
    { name: 'open BUY NO (other direction) is not netted against a BUY YES', req: { size: m('100.000001') }, state: { openOrders: [resting({ tokenId: 'N1', remaining: m('50') })] }, limits: mkt, code: 'MARKET_POSITION_LIMIT' },
    { name: 'open BUY NO (other direction) does not add to a BUY YES at the limit', req: { size: m('80') }, state: { positions: pos({ Y1: '50', N1: '30' }), openOrders: [resting({ tokenId: 'N1', remaining: m('50') })] }, limits: mkt, code: undefined },
    { name: 'open SELL YES (other direction) does not add to a BUY YES at the limit', req: { size: m('80') }, state: { positions: pos({ Y1: '50', N1: '30' }), openOrders: [resting({ side: 'SELL', remaining: m('50') })] }, limits: mkt, code: undefined },
    { name: 'SELL NO moves net up', req: { tokenId: 'N1', side: 'SELL', size: m('10.000001') }, state: { positions: pos({ Y1: '100', N1: '10' }) }, limits: mkt, code: 'MARKET_POSITION_LIMIT' },
    { name: 'SELL YES moves net down', req: { side: 'SELL', size: 1 }, state: { positions: pos({ N1: '100' }) }, limits: mkt, code: 'MARKET_POSITION_LIMIT' },
    { name: 'BUY NO reducing a net over a lowered limit is allowed', req: { tokenId: 'N1', size: m('10') }, state: { positions: pos({ Y1: '150' }) }, limits: mkt, code: undefined },
    { name: 'complement found by condition: net 100 exactly', req: { tokenId: 'P1', conditionId: '0xp', size: m('150') }, state: { markets: markets(P1, P2), positions: pos({ P2: '50' }) }, limits: mkt, code: undefined },
    { name: 'complement found by condition: one micro over', req: { tokenId: 'P1', conditionId: '0xp', size: m('150.000001') }, state: { markets: markets(P1, P2), positions: pos({ P2: '50' }) }, limits: mkt, code: 'MARKET_POSITION_LIMIT' },
    { name: 'a complement never seen counts as 0', req: { tokenId: 'P1', conditionId: '0xp', size: m('100.000001') }, state: { markets: markets(P1), positions: pos({ P2: '50' }) }, limits: mkt, code: 'MARKET_POSITION_LIMIT' },
    { name: 'unknown token', req: { tokenId: 'nope' }, limits: mkt, code: 'UNKNOWN_MARKET' },
  ]);

  it('throws RangeError naming a malformed position (the engine fails closed on it)', () => {
    expect(() => maxPosition(order(), state({ positions: new Map([['Y1', NaN]]) }), tok)).toThrow(/position of Y1 NaN is not a whole number of micros/);
  });
});

describe('maxPosition against its BigInt reference', () => {
  it('decides as maxPositionExact (same denial, same text) on random states, near the limits and beyond 2^53', () => {
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const amount = (): number => {
      const pick = rand(10);
      if (pick === 0) return Number.MAX_SAFE_INTEGER - rand(1_000); // sums pass 2^53: the exact path decides
      if (pick === 1) return 0;
      return rand(150) * 1_000_000 + rand(3) - 1;
    };
    const sides = ['BUY', 'SELL'] as const;
    const tokens = ['Y1', 'N1', 'P1', 'P2', 'nope'];
    for (let i = 0; i < 3_000; i++) {
      const openOrders = Array.from({ length: rand(6) }, () => resting({ tokenId: tokens[rand(4)], side: sides[rand(2)], remaining: amount() }));
      const positions = new Map(tokens.slice(0, 4).filter(() => rand(2) === 0).map((t) => [t, (rand(2) ? 1 : -1) * amount()]));
      const s = state({ openOrders, positions, markets: markets(Y1, N1, P1, P2) });
      const req = order({ tokenId: tokens[rand(5)], side: sides[rand(2)], size: Math.max(1, amount()) });
      const limits = [tok, mkt, { ...tok, ...mkt }, {}][rand(4)]!;
      expect(maxPosition(req, s, limits)).toEqual(maxPositionExact(req, s, limits));
    }
  });
});
