import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STRATEGY_API_VERSION, type StrategyDefinition } from '../../src/strategy/api.ts';
import { MAX_AMOUNT, px, qty, toMicros } from '../../src/strategy/money.ts';
import { checkStrategyParams, parseStrategyParams } from '../../src/strategy/strategy-params.ts';

const definition: StrategyDefinition = {
  name: 'p',
  apiVersion: STRATEGY_API_VERSION,
  params: z.strictObject({ size: z.number().positive().default(5), levels: z.array(z.number()).default([]), label: z.string().default('x') }),
};

describe('strategy params', () => {
  it('numbers are the schema\'s: an epoch-ms time and a count above 2^53 / 10^6 load; amounts are bounded where they become amounts', () => {
    const timed: StrategyDefinition = {
      name: 't',
      apiVersion: STRATEGY_API_VERSION,
      params: z.strictObject({ t0: z.number().int(), maxEvents: z.number().int(), size: z.number().positive().max(MAX_AMOUNT).default(5) }),
    };
    expect(checkStrategyParams(timed, { t0: 1_785_000_000_000, maxEvents: 9_007_199_255 })).toEqual({
      ok: true,
      value: { t0: 1_785_000_000_000, maxEvents: 9_007_199_255, size: 5 },
    });
    // a schema that bounds its amounts with MAX_AMOUNT refuses 1e300, naming the key
    const big = checkStrategyParams(timed, { t0: 1, maxEvents: 1, size: 1e300 });
    expect(big.ok ? [] : big.issues.map((i) => [i.path, i.code])).toEqual([[['size'], 'too_big']]);
    expect(() => parseStrategyParams(timed, 'mm', { t0: 1, maxEvents: 1, size: 1e300 })).toThrow(/^strategies\.mm\.params\.size: /);
    // a schema that does not: the amount is refused where it becomes one
    expect(checkStrategyParams(definition, { size: 1e300 }).ok).toBe(true);
    expect(() => qty(1e300)).toThrow(new RangeError('qty(1e+300): out of range: an amount is at most 9007199254.740991 (2^53 - 1 micros)'));
    expect(() => px('1e300')).toThrow(/^px\("1e300"\): out of range/);
    expect(() => toMicros('abc')).toThrow(new RangeError('toMicros("abc"): not a decimal number'));
    expect(() => qty(0.0000001)).toThrow(/^qty\(1e-7\): more than 6 decimals/);
    expect(qty(MAX_AMOUNT)).toBe(Number.MAX_SAFE_INTEGER - 1);
    expect(qty("9007199254.740991")).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('a number that is not finite is refused by the framework, whatever the schema allows, once per key', () => {
    const checked = checkStrategyParams(definition, { size: Infinity, levels: [1, NaN] });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map((i) => [i.path, i.message])).toEqual([
      [['size'], 'must be a finite number'],
      [['levels', 1], 'must be a finite number'],
    ]);
    expect(() => parseStrategyParams(definition, 'mm', { size: Infinity })).toThrow(/^strategies\.mm\.params\.size: must be a finite number/);
  });

  it('the schema checks and defaults the rest; a strategy without a schema is checked for finite numbers too', () => {
    expect(checkStrategyParams(definition, { size: MAX_AMOUNT })).toEqual({ ok: true, value: { size: MAX_AMOUNT, levels: [], label: 'x' } });
    const bad = checkStrategyParams(definition, { size: 0, sise: 1 });
    expect(bad.ok ? [] : bad.issues.map((i) => i.code)).toEqual(['too_small', 'unrecognized_keys']);
    const bare: StrategyDefinition = { name: 'bare', apiVersion: STRATEGY_API_VERSION };
    expect(checkStrategyParams(bare, { n: 3, deep: { m: -1e12 } })).toEqual({ ok: true, value: { n: 3, deep: { m: -1e12 } } });
    const inf = checkStrategyParams(bare, { n: Infinity, deep: { m: -Infinity } });
    expect(inf.ok ? [] : inf.issues.map((i) => [i.path, i.message.slice(0, 15)])).toEqual([
      [['n'], 'must be a finit'],
      [['deep', 'm'], 'must be a finit'],
    ]);
  });
});
