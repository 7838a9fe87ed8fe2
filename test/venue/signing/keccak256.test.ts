import { keccak_256 } from '@noble/hashes/sha3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../src/core/seeded-random.ts';
import { keccak256 } from '../../../src/venue/signing/keccak256.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('keccak256 (clobot\'s JavaScript)', () => {
  it('gives the published digests of the empty string and "abc"', () => {
    expect(hex(keccak256(new Uint8Array(0)))).toBe('c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
    expect(hex(keccak256(new TextEncoder().encode('abc')))).toBe('4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45');
  });

  it('equals @noble/hashes keccak_256 for every length up to three blocks and past it', () => {
    const rng = seededRandom(7);
    for (let n = 0; n <= 3 * 136 + 1; n++) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * 256);
      expect(hex(keccak256(data)), `length ${n}`).toBe(hex(keccak_256(data)));
    }
    const long = new Uint8Array(5000).map((_, i) => (i * 131) & 0xff);
    expect(hex(keccak256(long))).toBe(hex(keccak_256(long)));
  });

  it('equals @noble/hashes on arbitrary input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 700 }), (data) => {
        expect(hex(keccak256(data))).toBe(hex(keccak_256(data)));
      }),
      { numRuns: 500 },
    );
  });

  it('hashes a view into a larger buffer by its own bytes, and each call starts afresh', () => {
    const big = new Uint8Array(400).map((_, i) => i * 7);
    const view = big.subarray(13, 313);
    const first = hex(keccak256(view));
    keccak256(new Uint8Array(500).fill(0xff));
    expect(hex(keccak256(view))).toBe(first);
    expect(first).toBe(hex(keccak_256(big.slice(13, 313))));
  });

  it('returns a fresh array each time (callers keep the digest)', () => {
    const a = keccak256(new Uint8Array([1]));
    const b = keccak256(new Uint8Array([2]));
    expect(a).not.toBe(b);
    expect(hex(a)).toBe(hex(keccak_256(new Uint8Array([1]))));
  });
});
