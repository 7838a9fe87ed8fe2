import { describe, expect, it } from 'vitest';
import { engineGates } from '../../src/risk/engine-gates.ts';
import { RiskEngine } from '../../src/risk/risk-engine.ts';
import type { RiskState } from '../../src/risk/types.ts';
import { order, state } from './fixtures.ts';

describe('engineGates', () => {
  const req = order();
  it.each<[string, Partial<RiskState>, string | undefined, string | undefined]>([
    ['healthy, not halted, nothing reconciling', {}, undefined, undefined],
    ['an idle heartbeat (no chain yet)', { heartbeat: 'idle' }, undefined, undefined],
    ['a manual halt names the reason', { manualHalt: true, haltReason: 'operator: news' }, 'TRADING_HALTED', 'manual halt: operator: news'],
    ['a manual halt without a reason', { manualHalt: true }, 'TRADING_HALTED', 'manual halt: no reason given'],
    ['a late heartbeat', { heartbeat: 'late' }, 'TRADING_HALTED', 'heartbeat late'],
    ['a lost heartbeat', { heartbeat: 'lost' }, 'TRADING_HALTED', 'heartbeat lost'],
    ['the order market under reconciliation', { reconciling: new Set([req.conditionId]) }, 'RECONCILING', 'market has orders of unknown outcome under reconciliation'],
    ['another market under reconciliation', { reconciling: new Set(['0xother']) }, undefined, undefined],
    ['a halt reported before a late heartbeat and reconciliation', { manualHalt: true, haltReason: 'x', heartbeat: 'late', reconciling: new Set([req.conditionId]) }, 'TRADING_HALTED', 'manual halt: x'],
  ])('%s', (_name, over, code, message) => {
    const denial = engineGates(req, state(over));
    expect(denial?.code).toBe(code);
    expect(denial?.message).toBe(message);
  });

  it('the venue\'s state: nothing while it restarts or takes only cancels; only post-only GTC/GTD while post-only (checkBatch too)', () => {
    const maker = order({ postOnly: true, orderType: 'GTC' });
    const gtd = order({ postOnly: true, orderType: 'GTD', expiresAt: 1 });
    const taker = order({ orderType: 'GTC' });
    const fak = order({ orderType: 'FAK' });
    const fok = order({ orderType: 'FOK' });
    const gate = (req: ReturnType<typeof order>, venueState: RiskState['venueState']) => engineGates(req, state({ venueState }));
    for (const req of [maker, gtd, taker, fak, fok]) {
      expect(gate(req, 'open')).toBeUndefined();
      expect(gate(req, undefined)).toBeUndefined();
      expect(gate(req, 'restarting')).toMatchObject({ code: 'VENUE_RESTRICTED', check: 'venue' });
      expect(gate(req, 'cancelOnly')).toMatchObject({ code: 'VENUE_RESTRICTED', check: 'venue', message: 'the venue takes only cancels' });
    }
    expect(gate(maker, 'postOnly')).toBeUndefined();
    expect(gate(gtd, 'postOnly')).toBeUndefined();
    expect(gate(taker, 'postOnly')?.message).toBe('the venue takes only post-only GTC/GTD orders (this one is GTC, not post-only)');
    expect(gate(fak, 'postOnly')?.code).toBe('VENUE_RESTRICTED');
    expect(gate(fok, 'postOnly')?.code).toBe('VENUE_RESTRICTED');
    // a halt is reported before the venue, the venue before reconciliation
    expect(engineGates(taker, state({ manualHalt: true, venueState: 'restarting' }))?.code).toBe('TRADING_HALTED');
    expect(engineGates(taker, state({ venueState: 'restarting', reconciling: new Set([taker.conditionId]) }))?.code).toBe('VENUE_RESTRICTED');
    const engine = new RiskEngine({ checks: [], limits: {} });
    expect(engine.checkBatch([maker, taker], state({ venueState: 'postOnly' })).map((d) => d?.code)).toEqual([undefined, 'VENUE_RESTRICTED']);
  });

  it('deny whatever the configured checks: no config drops them', () => {
    for (const checks of [[], ['tickGrid', 'minSize'] as const]) {
      const engine = new RiskEngine({ checks, limits: {} });
      expect(engine.check(req, state({ manualHalt: true }))).toMatchObject({ code: 'TRADING_HALTED', check: 'halt' });
      expect(engine.check(req, state({ heartbeat: 'lost' }))).toMatchObject({ code: 'TRADING_HALTED', check: 'heartbeat' });
      expect(engine.check(req, state({ reconciling: new Set([req.conditionId]) }))).toMatchObject({ code: 'RECONCILING', check: 'reconciling' });
      expect(engine.check(req, state())).toBeUndefined();
    }
    const engine = new RiskEngine({ checks: ['tickGrid'], limits: {} });
    engine.checkBatch([req, order()], state({ heartbeat: 'late' }));
    expect(engine.counts().TRADING_HALTED).toBe(2);
  });

  it('an amount the venue cannot represent is denied AMOUNT_OUT_OF_RANGE, first and whatever the checks', () => {
    const cases: [Partial<ReturnType<typeof order>>, string][] = [
      [{ size: 1e300 }, 'size 1e+300 micros is not a positive whole number of micros below 2^53'],
      [{ size: Number.MAX_SAFE_INTEGER + 1 }, 'size 9007199254740992 micros is not a positive whole number of micros below 2^53'],
      [{ size: 0 }, 'size 0 micros is not a positive whole number of micros below 2^53'],
      [{ size: 1.5 }, 'size 1.5 micros is not a positive whole number of micros below 2^53'],
      [{ price: NaN }, 'price NaN micros is not a positive whole number of micros'],
      [{ price: 2_000_000, size: Number.MAX_SAFE_INTEGER }, 'notional of 9007199254.740991 at 2 is beyond 9007199254.740991'],
    ];
    const none = new RiskEngine({ checks: [], limits: {} });
    for (const [over, message] of cases) {
      expect(engineGates(order(over), state({ manualHalt: true }))).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', check: 'amount', message });
      expect(none.check(order(over), state())).toMatchObject({ code: 'AMOUNT_OUT_OF_RANGE', check: 'amount' });
    }
    // the largest size at a price of at most 1 is in range
    expect(engineGates(order({ size: Number.MAX_SAFE_INTEGER }), state())).toBeUndefined();
  });
});
