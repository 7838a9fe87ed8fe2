import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import secp from 'secp256k1';
import { keccak256 as jsKeccak256 } from './keccak256.ts';

/**
 * clobot's optional signing addon (src/venue/signing/native/: plain C over N-API): secp256k1
 * signatures through the system's libsecp256k1. `npm install` builds it when the library is
 * installed (bin/build-native.mjs; Debian: libsecp256k1-dev); without it ecdsa.ts uses the
 * `secp256k1` npm package, with the same bytes.
 *
 * It also hashes: keccak256 in C, which eip712.ts uses for the order path's two hashes per order
 * (keccak256.ts, in JavaScript, stays the reference and the fallback).
 *
 * Loaded once per thread. Before it is used it must agree with the npm package on a known
 * signature and with keccak256.ts on hashes across the block boundary; if it does not, it is not
 * used. An addon built before it hashed (no keccak256) still signs. CLOBOT_NATIVE_SIGNER=0 turns it
 * off; CLOBOT_NATIVE_SIGNER=1 makes its absence an error (CI sets it, so the tests run through it).
 */
export interface NativeAddon {
  init(seed: Uint8Array): void;
  /** r ‖ s ‖ v (v = 27 + recovery id) at out[offset..offset+65). */
  sign(digest: Uint8Array, privateKey: Uint8Array, out: Uint8Array, offset: number): void;
  /** keccak256(data) at out[offset..offset+32); absent from an addon built before it hashed. */
  readonly keccak256?: (data: Uint8Array, out: Uint8Array, offset: number) => void;
}

/** True when the addon's keccak256 gives keccak256.ts's bytes for lengths around the 136-byte block. */
function keccakAgrees(addon: NativeAddon): boolean {
  if (typeof addon.keccak256 !== 'function') return true;
  for (const length of [0, 1, 66, 135, 136, 137, 272, 384]) {
    const data = new Uint8Array(length).map((_, i) => (i * 131 + length) & 0xff);
    const out = new Uint8Array(33);
    addon.keccak256(data, out, 1);
    if (Buffer.compare(out.subarray(1), jsKeccak256(data)) !== 0) return false;
  }
  return true;
}

/** Where bin/build-native.mjs leaves the addon. */
export const NATIVE_ADDON_PATH = fileURLToPath(new URL('./native/build/Release/clobot_signing.node', import.meta.url));

function load(): { addon: NativeAddon | undefined; reason: string } {
  if (process.env.CLOBOT_NATIVE_SIGNER === '0') return { addon: undefined, reason: 'turned off by CLOBOT_NATIVE_SIGNER=0' };
  if (!existsSync(NATIVE_ADDON_PATH)) return { addon: undefined, reason: 'not built (Debian: apt-get install libsecp256k1-dev, then node bin/build-native.mjs)' };
  try {
    const addon = createRequire(import.meta.url)(NATIVE_ADDON_PATH) as NativeAddon;
    addon.init(randomBytes(32));
    const digest = new Uint8Array(32).fill(0xa5);
    const key = new Uint8Array(32).fill(0x42);
    const signature = new Uint8Array(65);
    addon.sign(digest, key, signature, 0);
    const expected = secp.ecdsaSign(digest, key);
    if (Buffer.compare(signature.subarray(0, 64), expected.signature) !== 0 || signature[64] !== 27 + expected.recid) {
      return { addon: undefined, reason: 'its signature differs from the secp256k1 package' };
    }
    if (!keccakAgrees(addon)) return { addon: undefined, reason: 'its keccak256 differs from keccak256.ts' };
    return { addon, reason: 'loaded' };
  } catch (err) {
    return { addon: undefined, reason: `failed to load: ${(err as Error).message}` };
  }
}

const loaded = load();
if (loaded.addon === undefined && process.env.CLOBOT_NATIVE_SIGNER === '1') {
  throw new Error(`CLOBOT_NATIVE_SIGNER=1 but the native signing addon is ${loaded.reason} (${NATIVE_ADDON_PATH})`);
}

/** The addon, when it is built, loads and agrees with the packages. */
export const nativeAddon: NativeAddon | undefined = loaded.addon;
/** Why it is or is not in use ("loaded", "not built (...)", ...). */
export const nativeAddonStatus: string = loaded.reason;
