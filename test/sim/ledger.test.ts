import { describe, expect, it } from 'vitest';
import { ParameterError } from '../../src/core/errors.ts';
import { DEFAULT_STARTING_COLLATERAL, Ledger } from '../../src/sim/ledger.ts';
import { m } from './helpers.ts';

const TOKENS = ['Y', 'N'] as const;

describe('Ledger', () => {
  it('opens accounts with 10,000 of collateral by default', () => {
    const l = new Ledger();
    expect(DEFAULT_STARTING_COLLATERAL).toBe(m('10000'));
    expect(l.balance('w1')).toEqual({ address: 'w1', collateral: m('10000'), collateralReserved: 0, tokens: [] });
    expect(l.totals().deposited).toBe(m('10000'));
  });

  it('split and merge move collateral in and out of complete sets, conserving the total', () => {
    const l = new Ledger(m('100'));
    l.split('w1', 'c', TOKENS, m('30'));
    expect(l.balance('w1').collateral).toBe(m('70'));
    expect(l.position('w1', 'Y')).toBe(m('30'));
    expect(l.position('w1', 'N')).toBe(m('30'));
    l.merge('w1', 'c', TOKENS, m('12.5'));
    expect(l.completeSets('c')).toBe(m('17.5'));
    const t = l.totals();
    expect(t.collateral + t.collateralReserved + t.feesCollected + (t.completeSets.c ?? 0)).toBe(t.deposited);
    expect(t.tokenSupply).toEqual({ Y: m('17.5'), N: m('17.5') });
  });

  it('refuses to overdraw, and to merge without both tokens', () => {
    const l = new Ledger(m('10'));
    expect(() => l.withdraw('w1', m('10.000001'))).toThrow(ParameterError);
    expect(() => l.split('w1', 'c', TOKENS, m('11'))).toThrow(/exceeds free collateral/);
    l.split('w1', 'c', TOKENS, m('5'));
    l.account('w1').holding('N').free -= m('1');
    expect(() => l.merge('w1', 'c', TOKENS, m('5'))).toThrow(/exceeds free tokens/);
    expect(() => l.deposit('w1', 0)).toThrow(ParameterError);
    expect(() => l.deposit('w1', 1.5)).toThrow(ParameterError);
  });
});
