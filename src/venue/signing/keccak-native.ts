import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import createKeccak from 'keccak';
import { nativeAddon } from './native-addon.ts';

/**
 * keccak256 on the order hot path, natively, from the first of:
 * 1. clobot's signing addon (native-addon.ts), when it is built: one call per hash;
 * 2. the native sponge of the `keccak` package (prebuilt binding): the package's public
 *    `createKeccak()` wraps each hash in a stream object whose construction costs more than
 *    hashing an order, so one sponge state is reused here (initialize, absorb, pad, squeeze:
 *    four calls), about twice the rate of `createKeccak()` and six times @noble/hashes for the
 *    384-byte order struct. It is loaded with the package's own loader (`node-gyp-build`,
 *    resolved from the package's folder);
 * 3. the package's public API.
 * Output is identical in every case (pinned in the tests against noble).
 */

/** The native sponge's methods (keccak's binding; rate and capacity in bits). */
interface KeccakSponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  absorbLastFewBits(bits: number): void;
  squeeze(length: number): Buffer;
}

const KECCAK256_RATE = 1088;
const KECCAK256_CAPACITY = 512;
/** keccak (pre-SHA-3) padding: the domain bits 0x01. */
const KECCAK_SUFFIX = 0x01;

function loadSponge(): KeccakSponge | undefined {
  try {
    const require = createRequire(import.meta.url);
    const packageDir = dirname(require.resolve('keccak/package.json'));
    const nodeGypBuild = createRequire(`${packageDir}/package.json`)('node-gyp-build') as (dir: string) => unknown;
    const State = nodeGypBuild(packageDir);
    if (typeof State !== 'function') return undefined;
    return new (State as new () => KeccakSponge)();
  } catch {
    return undefined;
  }
}

const sponge = loadSponge();

/** Which of the three computes keccak256Native. */
export const keccakBackend: 'clobot addon' | 'keccak package sponge' | 'keccak package stream' = nativeAddon
  ? 'clobot addon'
  : sponge
    ? 'keccak package sponge'
    : 'keccak package stream';

/** keccak256 through the `keccak` package (its sponge when it loads), whatever keccak256Native uses. */
export function packageKeccak256(data: Uint8Array): Buffer {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (sponge === undefined) return createKeccak('keccak256').update(buf).digest();
  sponge.initialize(KECCAK256_RATE, KECCAK256_CAPACITY);
  sponge.absorb(buf);
  sponge.absorbLastFewBits(KECCAK_SUFFIX);
  return sponge.squeeze(32);
}

/** keccak256 of `data`, 32 bytes. Synchronous. */
export const keccak256Native: (data: Uint8Array) => Buffer = nativeAddon ? addonKeccak256(nativeAddon.keccak256) : packageKeccak256;

function addonKeccak256(hash: (data: Uint8Array, out: Uint8Array, offset: number) => void): (data: Uint8Array) => Buffer {
  return (data) => {
    const out = Buffer.allocUnsafe(32);
    hash(data, out, 0);
    return out;
  };
}
