import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, parseMicros, scanMicros, scannedTo } from '../../src/core/fixed.ts';

/** What a decimal is worth in micros by decimal.js, or NaN when it is not one parseMicros takes. */
function reference(text: string): number {
  if (text.length > 24 || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(text)) return NaN;
  const micros = new Dec(text).mul(1_000_000);
  if (!micros.isInteger() || !Number.isSafeInteger(micros.toNumber())) return NaN;
  return micros.toNumber();
}

const decimalText = fc
  .tuple(fc.constantFrom('', '-', '+'), fc.stringMatching(/^\d{0,12}$/), fc.constantFrom('', '.'), fc.stringMatching(/^\d{0,9}$/))
  .map(([sign, whole, dot, frac]) => sign + whole + dot + (dot === '' ? '' : frac));

describe('the decimal parser', () => {
  it('reads plain decimals to micros and refuses the rest with NaN', () => {
    const cases: [string, number][] = [
      ['0.52', 520_000], ['100', 100_000_000], ['-1.5', -1_500_000], ['.5', 500_000], ['5.', 5_000_000], ['+2', 2_000_000],
      ['0.000001', 1], ['0.1234560', 123_456], ['9007199254.740991', 9_007_199_254_740_991],
      ['', NaN], ['-', NaN], ['.', NaN], ['0.0000001', NaN], ['1e5', NaN], [' 1', NaN], ['1 ', NaN], ['--1', NaN], ['-+1', NaN],
      ['1.2.3', NaN], ['0x10', NaN], ['9007199254.740992', NaN], ['0'.repeat(25), NaN],
    ];
    for (const [text, micros] of cases) expect(parseMicros(text), JSON.stringify(text)).toBe(micros);
    expect(Object.is(parseMicros('-0'), -0)).toBe(true);
  });

  it('agrees with decimal.js on arbitrary decimals', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(parseMicros(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('scans a decimal inside a longer text, string or bytes alike, and says where it stopped', () => {
    fc.assert(
      fc.property(decimalText, fc.constantFrom('"', ',', ']', ''), (text, after) => {
        const line = `["${text}${after}`;
        const bytes = Buffer.from(line, 'latin1');
        const fromString = scanMicros(line, 2, -1);
        const stringEnd = scannedTo();
        const fromBytes = scanMicros(bytes, 2, -1);
        expect(Object.is(fromBytes, fromString)).toBe(true);
        expect(scannedTo()).toBe(stringEnd);
        if (!Number.isNaN(fromString)) {
          expect(stringEnd).toBe(2 + text.length);
          expect(fromString).toBe(parseMicros(text));
        }
      }),
      { numRuns: 2000 },
    );
    // a scanner names the character that must close the decimal
    expect(scanMicros('"0.5"', 1, 34)).toBe(500_000);
    expect(scanMicros(Buffer.from('"+0.5"'), 1, 34)).toBe(500_000);
    expect(scanMicros('"0.5,', 1, 34)).toBeNaN();
    expect(scannedTo()).toBe(4);
    expect(scanMicros(Buffer.from('"-0.5"'), 1, 34)).toBeNaN(); // a '-' is the caller's
    // a non-ASCII character ends the decimal
    expect(parseMicros('1\u0130')).toBeNaN();
    expect(scanMicros('x12\u0130', 1, -1)).toBe(12_000_000);
    expect(scannedTo()).toBe(3);
    expect(scanMicros('"' + '1'.repeat(30) + '"', 1, 34)).toBeNaN();
    // past the end of bytes is no digit
    expect(scanMicros(Uint8Array.from(Buffer.from('12.5')), 0, -1)).toBe(12_500_000);
    expect(scannedTo()).toBe(4);
  });
});
