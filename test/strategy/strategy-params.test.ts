import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { STRATEGY_API_VERSION, type StrategyDefinition } from '../../src/strategy/api.ts';
import { checkStrategyParams, MAX_PARAM_MAGNITUDE, parseStrategyParams } from '../../src/strategy/strategy-params.ts';

const definition: StrategyDefinition = {
  name: 'p',
  apiVersion: STRATEGY_API_VERSION,
  params: z.strictObject({ size: z.number().positive().default(5), levels: z.array(z.number()).default([]), label: z.string().default('x') }),
};

describe('strategy params', () => {
  it('a number beyond what Micros can hold is refused by the framework, whatever the schema allows, once per key', () => {
    const checked = checkStrategyParams(definition, { size: 1e300, levels: [1, -1e10] });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.issues.map((i) => [i.path, i.message])).toEqual([
      [['size'], 'must be within ±9007199254.740991, the largest amount the venue can represent (2^53 - 1 Micros)'],
      [['levels', 1], 'must be within ±9007199254.740991, the largest amount the venue can represent (2^53 - 1 Micros)'],
    ]);
    expect(() => parseStrategyParams(definition, 'mm', { size: 1e300 })).toThrow(/^strategies\.mm\.params\.size: must be within ±9007199254\.740991/);
  });

  it('the largest amount passes; the schema checks and defaults the rest; a strategy without a schema is bounded too', () => {
    expect(checkStrategyParams(definition, { size: MAX_PARAM_MAGNITUDE })).toEqual({ ok: true, value: { size: MAX_PARAM_MAGNITUDE, levels: [], label: 'x' } });
    const bad = checkStrategyParams(definition, { size: 0, sise: 1 });
    expect(bad.ok ? [] : bad.issues.map((i) => i.code)).toEqual(['too_small', 'unrecognized_keys']);
    const bare: StrategyDefinition = { name: 'bare', apiVersion: STRATEGY_API_VERSION };
    expect(checkStrategyParams(bare, { n: 3 })).toEqual({ ok: true, value: { n: 3 } });
    const inf = checkStrategyParams(bare, { n: Infinity, deep: { m: -1e12 } });
    expect(inf.ok ? [] : inf.issues.map((i) => [i.path, i.message.slice(0, 15)])).toEqual([
      [['n'], 'must be a finit'],
      [['deep', 'm'], 'must be within '],
    ]);
  });
});
