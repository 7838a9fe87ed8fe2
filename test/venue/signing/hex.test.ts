import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toHex } from '../../../src/venue/signing/hex.ts';

describe('toHex', () => {
  it("gives Buffer's lowercase hex for short inputs (hexed from a shared buffer) and long ones, views included", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 0, maxLength: 300 }), fc.nat({ max: 8 }), (bytes, cut) => {
        const view = bytes.subarray(Math.min(cut, bytes.length));
        expect(toHex(view)).toBe('0x' + Buffer.from(view).toString('hex'));
      }),
      { numRuns: 500 },
    );
  });
});
