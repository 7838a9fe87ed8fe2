import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import createKeccak from 'keccak';

/**
 * keccak256 on the order hot path through the native sponge of the `keccak` package (prebuilt
 * libkeccak binding). The package's public `createKeccak()` wraps each hash in a stream object
 * whose construction costs more than hashing an order; here one native sponge state is reused
 * (initialize, absorb, pad, squeeze), about twice the rate of `createKeccak()` and six times
 * @noble/hashes for the 384-byte order struct. The addon is loaded with the package's own
 * loader (`node-gyp-build`, resolved from the package's folder); when it cannot be loaded, the
 * public API is used. Output is identical either way (pinned in the tests against noble).
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

/** True when the native sponge is in use (else the package's stream API). */
export const nativeKeccakLoaded = sponge !== undefined;

/** keccak256 of `data`, 32 bytes. Synchronous; the sponge is reset by each call. */
export function keccak256Native(data: Uint8Array): Buffer {
  const buf = Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (sponge === undefined) return createKeccak('keccak256').update(buf).digest();
  sponge.initialize(KECCAK256_RATE, KECCAK256_CAPACITY);
  sponge.absorb(buf);
  sponge.absorbLastFewBits(KECCAK_SUFFIX);
  return sponge.squeeze(32);
}
