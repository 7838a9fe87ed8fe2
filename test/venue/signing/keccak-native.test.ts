import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { keccak256Native, keccakBackend, packageKeccak256 } from '../../../src/venue/signing/keccak-native.ts';
import { nativeAddon } from '../../../src/venue/signing/native-addon.ts';
import { seededRandom } from '../../../src/core/seeded-random.ts';

describe('keccak256Native', () => {
  it('is native on this machine: clobot\'s addon when it is built, else the keccak package\'s sponge', () => {
    expect(keccakBackend).toBe(nativeAddon ? 'clobot addon' : 'keccak package sponge');
  });

  it('equals @noble/hashes keccak_256 around every block boundary and for the order struct size', () => {
    const rng = seededRandom(7);
    for (const n of [0, 1, 31, 32, 66, 135, 136, 137, 271, 272, 273, 384, 1000, 4096]) {
      const data = new Uint8Array(n);
      for (let i = 0; i < n; i++) data[i] = Math.floor(rng() * 256);
      const expected = Buffer.from(keccak_256(data)).toString('hex');
      expect(Buffer.from(keccak256Native(data)).toString('hex'), `length ${n}`).toBe(expected);
      expect(packageKeccak256(data).toString('hex'), `package, length ${n}`).toBe(expected);
    }
  });

  it('hashes views into larger buffers by their own bytes, and each call starts afresh', () => {
    const big = new Uint8Array(100).map((_, i) => i);
    const view = big.subarray(10, 42);
    const first = Buffer.from(keccak256Native(view)).toString('hex');
    keccak256Native(new Uint8Array(500));
    expect(Buffer.from(keccak256Native(view)).toString('hex')).toBe(first);
    expect(first).toBe(Buffer.from(keccak_256(big.slice(10, 42))).toString('hex'));
  });
});
