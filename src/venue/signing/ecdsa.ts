import secp from 'secp256k1';

/**
 * secp256k1 ECDSA over a 32-byte digest, Ethereum style: RFC 6979 deterministic nonces, low-s,
 * 65 bytes r ‖ s ‖ v with v = 27 + recovery id.
 *
 * The arithmetic is libsecp256k1 through its N-API binding (`secp256k1`, prebuilt binaries
 * shipped in the npm package): about 3 times the rate of libsecp256k1's WebAssembly build and 10 times
 * @noble/curves' pure-JS signer here, which is what lets a batch of 15 orders be signed inside
 * the tick-to-trade budget. Its output is byte-identical to @noble/curves (both RFC 6979 +
 * low-s); the tests pin that against the SDK's vectors and noble.
 */

const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** True when `key` is a valid secp256k1 private key (32 bytes, 0 < key < n). */
export function isValidPrivateKey(key: Uint8Array): boolean {
  return key.length === 32 && secp.privateKeyVerify(key);
}

/** Signs `digest` (32 bytes) and returns r ‖ s ‖ v (65 bytes). */
export function signDigest(digest: Uint8Array, privateKey: Uint8Array): Uint8Array {
  const { signature, recid } = secp.ecdsaSign(digest, privateKey);
  const out = new Uint8Array(65);
  out.set(signature, 0);
  out[64] = 27 + recid;
  return out;
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
