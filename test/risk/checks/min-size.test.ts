import { describe } from 'vitest';
import { minSize } from '../../../src/risk/checks/min-size.ts';
import { m, markets, runTable, view } from '../fixtures.ts';

describe('minSize', () => {
  runTable(minSize, 'minSize', [
    { name: 'above minimum', req: { size: m('10') }, code: undefined },
    { name: 'exactly the minimum', req: { size: m('5') }, code: undefined },
    { name: 'one micro below the minimum', req: { size: m('4.999999') }, code: 'SIZE_BELOW_MINIMUM', message: 'size 4.999999 below minimum 5' },
    { name: 'zero', req: { size: 0 }, code: 'SIZE_BELOW_MINIMUM', message: 'size 0 is not a positive whole number of micros' },
    { name: 'negative', req: { size: -m('10') }, code: 'SIZE_BELOW_MINIMUM' },
    { name: 'NaN', req: { size: NaN }, code: 'SIZE_BELOW_MINIMUM' },
    { name: 'fractional micros', req: { size: 10_000_000.5 }, code: 'SIZE_BELOW_MINIMUM' },
    { name: 'minimum 0 still refuses size 0', req: { size: 0 }, state: { markets: markets(view({ minOrderSize: 0 })) }, code: 'SIZE_BELOW_MINIMUM' },
    { name: 'minimum 0 allows one micro', req: { size: 1 }, state: { markets: markets(view({ minOrderSize: 0 })) }, code: undefined },
    { name: 'unknown token', req: { tokenId: 'nope' }, code: 'UNKNOWN_MARKET' },
  ]);
});
