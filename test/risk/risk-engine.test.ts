import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.ts';
import { RiskEngine } from '../../src/risk/risk-engine.ts';
import { CHECK_NAMES, DEFAULT_CHECK_ORDER, DENY_CODES, type CheckName, type DenyCode, type RiskLimits } from '../../src/risk/types.ts';
import { CHECKS } from '../../src/risk/checks/index.ts';
import { m, NOW, order, resting, state, view } from './fixtures.ts';

describe('RiskEngine configuration', () => {
  it('runs every check once by default, the kill switch first', () => {
    const engine = new RiskEngine({ limits: {} });
    expect(engine.checkOrder).toEqual(DEFAULT_CHECK_ORDER);
    expect(engine.checkOrder[0]).toBe('killSwitch');
    expect([...engine.checkOrder].sort()).toEqual([...CHECK_NAMES].sort());
    expect(Object.keys(CHECKS).sort()).toEqual([...CHECK_NAMES].sort());
    // exposure checks come after the structural ones
    const at = (c: CheckName) => engine.checkOrder.indexOf(c);
    expect(at('tickGrid')).toBeLessThan(at('maxGrossExposure'));
    expect(at('minSize')).toBeLessThan(at('maxPosition'));
  });

  it.each<[string, { checks?: string[]; limits: Record<string, unknown> }, RegExp]>([
    ['unknown check', { checks: ['tickGrid', 'lunarPhase'], limits: {} }, /^risk\.checks\[1\]: unknown check 'lunarPhase'/],
    ['repeated check', { checks: ['tickGrid', 'minSize', 'tickGrid'], limits: {} }, /^risk\.checks\[2\]: check 'tickGrid' listed twice$/],
    ['negative money limit', { limits: { maxOrderNotional: -5 } }, /^risk\.limits\.maxOrderNotional: must be a whole number of micros >= 0, was -5$/],
    ['fractional micros limit', { limits: { maxGrossExposure: 0.5 } }, /maxGrossExposure: must be a whole number of micros/],
    ['fractional count', { limits: { maxOpenOrders: 2.5 } }, /^risk\.limits\.maxOpenOrders: must be a whole number >= 0, was 2\.5$/],
    ['NaN ms', { limits: { staleBookMs: NaN } }, /^risk\.limits\.staleBookMs: must be a finite number of ms >= 0, was NaN$/],
  ])('refuses a %s with a ConfigError naming the key', (_name, opts, message) => {
    const make = () => new RiskEngine(opts as { checks?: CheckName[]; limits: RiskLimits });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(message);
  });

  it('keeps only the limit keys, so a config risk section can be passed whole', () => {
    const section = { checks: ['tickGrid'], haltFile: '.clobot/HALT', maxOpenOrders: 3, staleBookMs: undefined };
    const engine = new RiskEngine({ limits: section });
    expect(engine.limits).toEqual({ maxOpenOrders: 3 });
    expect(Object.isFrozen(engine.limits)).toBe(true);
  });

  it('accepts explicit undefined limits as "no limit" and an empty check list', () => {
    const engine = new RiskEngine({ checks: [], limits: { maxOpenOrders: undefined } });
    expect(engine.check(order({ price: m('0.505'), size: 1 }), state())).toBeUndefined();
  });
});

describe('RiskEngine.check', () => {
  const halted = state({ manualHalt: true, haltReason: 'drill' });
  const offTick = order({ price: m('0.505') });

  const lossy = state({ dailyPnl: -m('60') });
  const lossLimit = { dailyLossLimit: m('50') };

  it('first denial wins in the default order', () => {
    expect(new RiskEngine({ limits: lossLimit }).check(offTick, lossy)).toEqual({ code: 'TRADING_HALTED', check: 'killSwitch', message: 'daily loss: pnl -60 at or below -50' });
  });

  it('first denial wins in a configured order', () => {
    const engine = new RiskEngine({ checks: ['tickGrid', 'killSwitch'], limits: lossLimit });
    expect(engine.check(offTick, lossy)?.code).toBe('PRICE_OFF_TICK');
  });

  it('the engine gates come before every configured check', () => {
    const engine = new RiskEngine({ checks: ['tickGrid', 'killSwitch'], limits: {} });
    expect(engine.check(offTick, halted)).toEqual({ code: 'TRADING_HALTED', check: 'halt', message: 'manual halt: drill' });
  });

  it('a check not in the list never runs', () => {
    const engine = new RiskEngine({ checks: ['tickGrid', 'minSize'], limits: { maxOrderNotional: 0 } });
    expect(engine.check(order(), lossy)).toBeUndefined();
    // maxNotional is not listed: a size below the minimum and over the notional limit is minSize's
    expect(engine.check(order({ size: 1 }), state())?.check).toBe('minSize');
    // a NaN size never reaches a check: the engine's amount gate denies it first
    expect(engine.check(order({ size: NaN }), state())?.check).toBe('amount');
  });

  it('an unknown market is denied by the first check that needs it', () => {
    const engine = new RiskEngine({ limits: {} });
    expect(engine.check(order({ tokenId: 'nope' }), state())).toEqual({ code: 'UNKNOWN_MARKET', check: 'marketOpen', message: 'unknown market for token nope' });
  });

  it('allows a clean order through every check with every limit set', () => {
    const limits: RiskLimits = {
      maxOrderNotional: m('50'),
      maxPositionPerToken: m('100'),
      maxPositionPerMarket: m('100'),
      maxGrossExposure: m('100'),
      maxNegRiskEventExposure: m('100'),
      maxOpenOrders: 10,
      maxOrdersPerSecond: 5,
      staleBookMs: 1000,
      dailyLossLimit: m('100'),
      maxConsecutiveRejects: 3,
    };
    const engine = new RiskEngine({ limits });
    expect(engine.check(order({ tokenId: 'EA', price: m('0.2'), size: m('10') }), state({ recentOrderTimes: [NOW - 10] }))).toBeUndefined();
    expect(engine.counts().UNKNOWN_MARKET).toBe(0);
  });

  it('fails closed with the check’s own code when a check throws on a malformed state', () => {
    const engine = new RiskEngine({ limits: { maxPositionPerToken: m('100') } });
    const denial = engine.check(order(), state({ positions: new Map([['Y1', 0.5]]) }));
    expect(denial).toEqual({ code: 'POSITION_LIMIT', check: 'maxPosition', message: 'maxPosition failed closed: position of Y1 0.5 is not a whole number of micros' });
    expect(engine.counts().POSITION_LIMIT).toBe(1);
  });

  it('does not modify the request, state or limits', () => {
    const limits = Object.freeze({ maxOpenOrders: 1 });
    const s = state({ openOrders: Object.freeze([resting()]), recentOrderTimes: Object.freeze([NOW - 1]) });
    const req = Object.freeze(order());
    const engine = new RiskEngine({ limits });
    expect(engine.check(req, Object.freeze(s))?.code).toBe('MAX_OPEN_ORDERS');
    expect(s.openOrders).toHaveLength(1);
  });
});

describe('RiskEngine.counts', () => {
  it('counts denials by code, every code present', () => {
    const engine = new RiskEngine({ limits: { maxOrderNotional: m('1') } });
    expect(Object.keys(engine.counts()).sort()).toEqual([...DENY_CODES].sort());
    expect(Object.values(engine.counts()).every((n) => n === 0)).toBe(true);
    engine.check(order({ price: m('0.505') }), state());
    engine.check(order({ price: m('0.505') }), state());
    engine.check(order({ tokenId: 'nope' }), state());
    engine.check(order({ size: m('10') }), state());
    engine.check(order({ size: m('1') }), state());
    const counts = engine.counts();
    expect(counts.PRICE_OFF_TICK).toBe(2);
    expect(counts.UNKNOWN_MARKET).toBe(1);
    expect(counts.NOTIONAL_EXCEEDS_MAX).toBe(1);
    expect(counts.SIZE_BELOW_MINIMUM).toBe(1);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(5);
  });

  it('every deny code is reachable through the default chain, each counted once', () => {
    const limits: RiskLimits = {
      maxOrderNotional: m('50'),
      maxPositionPerToken: m('100'),
      maxPositionPerMarket: m('100'),
      maxGrossExposure: m('200'),
      maxNegRiskEventExposure: m('10'),
      maxOpenOrders: 3,
      maxOrdersPerSecond: 3,
      staleBookMs: 1000,
      dailyLossLimit: m('100'),
      maxConsecutiveRejects: 3,
      strategyBudgets: { s1: m('150') },
    };
    const engine = new RiskEngine({ limits });
    const cases: [DenyCode, ReturnType<typeof order>, ReturnType<typeof state>][] = [
      ['TRADING_HALTED', order(), state({ heartbeat: 'lost' })],
      ['RECONCILING', order(), state({ reconciling: new Set([order().conditionId]) })],
      ['UNKNOWN_MARKET', order({ tokenId: 'nope' }), state()],
      ['MARKET_CLOSED', order(), state({ markets: new Map([['Y1', view({ acceptingOrders: false })]]) })],
      ['PRICE_OFF_TICK', order({ price: m('0.505') }), state()],
      ['PRICE_OUT_OF_BOUNDS', order({ price: m('1') }), state()],
      ['SIZE_BELOW_MINIMUM', order({ size: m('1') }), state()],
      ['STALE_BOOK', order(), state({ markets: new Map([['Y1', view({ bookTsInit: NOW - 5000 })]]) })],
      ['ORDER_RATE_LIMIT', order(), state({ recentOrderTimes: [NOW - 3, NOW - 2, NOW - 1] })],
      ['MAX_OPEN_ORDERS', order(), state({ openOrders: [resting({ tokenId: 'FX' }), resting({ tokenId: 'FX' }), resting({ tokenId: 'FX' })] })],
      ['SELF_CROSS', order(), state({ openOrders: [resting({ side: 'SELL', price: m('0.5') })] })],
      ['NOTIONAL_EXCEEDS_MAX', order({ size: m('101') }), state()],
      ['POSITION_LIMIT', order({ size: m('20') }), state({ positions: new Map([['Y1', m('90')]]) })],
      ['MARKET_POSITION_LIMIT', order({ tokenId: 'N1', size: m('20') }), state({ positions: new Map([['Y1', m('-90')]]) })],
      ['GROSS_EXPOSURE_LIMIT', order({ size: m('20') }), state({ positions: new Map([['FX', m('400')]]) })],
      ['NEG_RISK_EXPOSURE_LIMIT', order({ tokenId: 'EA', price: m('0.2'), size: m('60') }), state()],
      ['STRATEGY_BUDGET', order({ size: m('20') }), state({ strategyCost: () => m('145') })],
      ['AMOUNT_OUT_OF_RANGE', order({ size: 1e300 }), state()],
      ['VENUE_RESTRICTED', order(), state({ venueState: 'restarting' })],
      ['MARKET_CLEARED', order(), state({ cleared: new Set([order().conditionId]) })],
    ];
    for (const [code, req, s] of cases) expect(engine.check(req, s)?.code, code).toBe(code);
    // a basket's code: two legs of 6 on one event, each under its cap of 10, together over it
    const leg = order({ tokenId: 'EA', price: m('0.2'), size: m('30') });
    expect(engine.checkBasket([leg, { ...leg, clientOrderId: 'c2' }], state())?.code).toBe('BASKET_EVENT_CAP');
    expect([...cases.map(([code]) => code), 'BASKET_EVENT_CAP'].sort()).toEqual([...DENY_CODES].sort());
    expect(Object.values(engine.counts()).every((n) => n === 1)).toBe(true);
  });

  it('returns a frozen snapshot; resetCounts zeroes', () => {
    const engine = new RiskEngine({ limits: {} });
    const before = engine.counts();
    engine.check(order({ price: m('0.505') }), state());
    expect(before.PRICE_OFF_TICK).toBe(0);
    expect(Object.isFrozen(before)).toBe(true);
    expect(engine.counts().PRICE_OFF_TICK).toBe(1);
    engine.resetCounts();
    expect(engine.counts().PRICE_OFF_TICK).toBe(0);
  });
});

describe('RiskEngine.checkBasket', () => {
  it('one denial for the whole basket: a leg denied names its index, counted once; the worst case is every leg filled', () => {
    const engine = new RiskEngine({ limits: { maxOrderNotional: m('50'), maxOpenOrders: 2 } });
    const ok = order({ size: m('10') });
    const big = order({ size: m('200'), clientOrderId: 'c2' });
    const denial = engine.checkBasket([ok, big], state());
    expect(denial).toMatchObject({ code: 'NOTIONAL_EXCEEDS_MAX' });
    expect(denial?.message).toMatch(/^basket leg 1 \(token Y1\): /);
    expect(engine.counts().NOTIONAL_EXCEEDS_MAX).toBe(1);
    // three legs that each pass alone break maxOpenOrders together
    const three = [0, 1, 2].map((i) => order({ tokenId: 'FX', size: m('5'), clientOrderId: `l${i}` }));
    for (const leg of three) expect(engine.check(leg, state())).toBeUndefined();
    expect(engine.checkBasket(three, state())?.message).toMatch(/^basket leg 2 /);
    expect(engine.checkBasket(three.slice(0, 2), state())).toBeUndefined();
  });
});

describe('RiskEngine.checkBatch', () => {
  const codes = (results: readonly ({ code: string } | undefined)[]) => results.map((d) => d?.code);

  it('ten orders each under maxOpenOrders cannot jointly exceed it', () => {
    const engine = new RiskEngine({ limits: { maxOpenOrders: 5 } });
    const s = state({ openOrders: [resting({ tokenId: 'FX' })] });
    const reqs = Array.from({ length: 10 }, (_, i) => order({ price: m('0.1') + i * m('0.01') }));
    for (const r of reqs) expect(engine.check(r, s)).toBeUndefined();
    engine.resetCounts();
    const results = engine.checkBatch(reqs, s);
    expect(codes(results)).toEqual([undefined, undefined, undefined, undefined, 'MAX_OPEN_ORDERS', 'MAX_OPEN_ORDERS', 'MAX_OPEN_ORDERS', 'MAX_OPEN_ORDERS', 'MAX_OPEN_ORDERS', 'MAX_OPEN_ORDERS']);
    expect(results[4]?.message).toBe('open orders 5 + 1 exceeds max 5');
    expect(engine.counts().MAX_OPEN_ORDERS).toBe(6);
    expect(s.openOrders).toHaveLength(1);
  });

  it('denied requests do not take a slot', () => {
    const engine = new RiskEngine({ limits: { maxOpenOrders: 2 } });
    const results = engine.checkBatch([order(), order({ price: m('0.505') }), order(), order()], state());
    expect(codes(results)).toEqual([undefined, 'PRICE_OFF_TICK', undefined, 'MAX_OPEN_ORDERS']);
  });

  it('the order rate counts the batch', () => {
    const engine = new RiskEngine({ limits: { maxOrdersPerSecond: 3 } });
    const s = state({ recentOrderTimes: [NOW - 2000, NOW - 400] });
    expect(codes(engine.checkBatch([order(), order(), order()], s))).toEqual([undefined, undefined, 'ORDER_RATE_LIMIT']);
    expect(s.recentOrderTimes).toHaveLength(2);
  });

  it('a batch cannot cross itself', () => {
    const engine = new RiskEngine({ limits: {} });
    const results = engine.checkBatch(
      [order({ side: 'BUY', price: m('0.5') }), order({ side: 'SELL', price: m('0.5') }), order({ tokenId: 'N1', side: 'BUY', price: m('0.5') }), order({ side: 'SELL', price: m('0.51') })],
      state(),
    );
    expect(codes(results)).toEqual([undefined, 'SELF_CROSS', 'SELF_CROSS', undefined]);
  });

  it('positions and exposure see the batch', () => {
    const engine = new RiskEngine({ limits: { maxPositionPerToken: m('100'), maxGrossExposure: m('1000') } });
    expect(codes(engine.checkBatch([order({ size: m('40') }), order({ size: m('40') }), order({ size: m('40') }), order({ size: m('20') })], state()))).toEqual([
      undefined,
      undefined,
      'POSITION_LIMIT',
      undefined,
    ]);
    const exposure = new RiskEngine({ checks: ['maxGrossExposure'], limits: { maxGrossExposure: m('50') } });
    expect(codes(exposure.checkBatch([order({ size: m('60') }), order({ size: m('40') }), order({ size: m('0.000002') })], state()))).toEqual([
      undefined,
      undefined,
      'GROSS_EXPOSURE_LIMIT',
    ]);
  });

  it('an empty batch gives no results', () => {
    expect(new RiskEngine({ limits: {} }).checkBatch([], state())).toEqual([]);
  });
});
