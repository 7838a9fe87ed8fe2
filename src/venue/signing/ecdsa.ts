import secp from 'secp256k1';
import { nativeAddon, nativeAddonStatus, type NativeAddon } from './native-addon.ts';

/**
 * secp256k1 ECDSA over a 32-byte digest, Ethereum style: RFC 6979 deterministic nonces, low-s,
 * 65 bytes r ‖ s ‖ v with v = 27 + recovery id.
 *
 * The arithmetic is libsecp256k1, native, from one of two places:
 * - clobot's own addon (native-addon.ts) over the system's libsecp256k1, when
 *   `npm install` could build it (bin/build-native.mjs; Debian: libsecp256k1-dev). A current
 *   libsecp256k1 signs in about 28 µs here against about 43 µs for the 2019 copy below;
 * - otherwise the `secp256k1` npm package (prebuilt N-API binaries of a 2019 libsecp256k1):
 *   about 3 times the rate of libsecp256k1's WebAssembly build and 10 times @noble/curves.
 * Both give the same bytes (RFC 6979 + low-s are deterministic); the tests pin both against the
 * SDK's vectors and noble. Key checks, public keys and recovery always use the npm package (off
 * the hot path).
 */

/** The npm package's signature, r ‖ s ‖ v. */
export function packageSignDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = secp.ecdsaSign(digest, privateKey);
  const out = new Uint8Array(65);
  out.set(signature, 0);
  out[64] = 27 + recid;
  return out;
}

/** Which libsecp256k1 signs: the addon over the system library, or the npm package's copy. */
export const signingBackend: { readonly name: 'system libsecp256k1' | 'secp256k1 npm package'; readonly detail: string } = {
  name: nativeAddon ? 'system libsecp256k1' : 'secp256k1 npm package',
  detail: nativeAddon ? 'clobot addon (src/venue/signing/native)' : `native addon ${nativeAddonStatus}`,
};

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** True when `key` is a valid secp256k1 private key (32 bytes, 0 < key < n). */
export function isValidPrivateKey(key: Uint8Array): boolean {
  return key.length === 32 && secp.privateKeyVerify(key);
}

/** Signs `digest` (32 bytes) and returns r ‖ s ‖ v (65 bytes). */
export const signDigest: (digest: Uint8Array, privateKey: Uint8Array) => Uint8Array = nativeAddon ? nativeSignDigest(nativeAddon) : packageSignDigest;

function nativeSignDigest(addon: NativeAddon): (digest: Uint8Array, privateKey: Uint8Array) => Uint8Array {
  return (digest, privateKey) => {
    const out = new Uint8Array(65);
    addon.sign(digest, privateKey, out, 0);
    return out;
  };
}

/** Uncompressed public key (65 bytes, 0x04 ‖ x ‖ y) of a private key. */
export function publicKeyOf(privateKey: Uint8Array): Uint8Array {
  if (!isValidPrivateKey(privateKey)) throw new RangeError('private key is out of range');
  return secp.publicKeyCreate(privateKey, false);
}

/**
 * The uncompressed public key that produced `signature` (r ‖ s ‖ v, v 27 or 28) over `digest`,
 * or undefined when the signature is malformed, has a high s (malleable; exchanges refuse it),
 * or recovers no point.
 */
export function recoverPublicKey(digest: Uint8Array, signature: Uint8Array): Uint8Array | undefined {
  if (digest.length !== 32 || signature.length !== 65) return undefined;
  const v = signature[64] ?? 0;
  if (v !== 27 && v !== 28) return undefined;
  const rs = signature.subarray(0, 64);
  const s = BigInt('0x' + Buffer.from(rs.buffer, rs.byteOffset + 32, 32).toString('hex'));
  if (s === 0n || s > HALF_ORDER) return undefined;
  try {
    return secp.ecdsaRecover(rs, v - 27, digest, false);
  } catch {
    return undefined; // r or s out of range
  }
}
