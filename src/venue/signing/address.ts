import { keccak_256 } from '@noble/hashes/sha3.js';
import { publicKeyOf } from './ecdsa.ts';

/**
 * Ethereum addresses: from keys, and EIP-55 mixed-case checksums.
 */

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const encoder = new TextEncoder();

/** The EIP-55 checksummed form of a 20-byte hex address (any case). Throws on malformed input. */
export function toChecksumAddress(address: string): string {
  if (!ADDRESS_RE.test(address)) throw new RangeError('address must be 0x and 20 bytes of hex');
  const lower = address.slice(2).toLowerCase();
  const hash = keccak_256(encoder.encode(lower));
  let out = '0x';
  for (let i = 0; i < 40; i++) {
    const c = lower[i] as string;
    const nibble = ((hash[i >> 1] ?? 0) >> (i % 2 === 0 ? 4 : 0)) & 0x0f;
    out += nibble >= 8 && c > '9' ? c.toUpperCase() : c;
  }
  return out;
}

/** True when `address` is well formed and its mixed case is the EIP-55 checksum. */
export function isChecksumAddress(address: string): boolean {
  return ADDRESS_RE.test(address) && toChecksumAddress(address) === address;
}

/**
 * True for a well-formed address: all lowercase, all uppercase (no checksum to check), or a
 * valid EIP-55 mixed case. A mixed-case string with a wrong checksum is refused.
 */
export function isAddress(address: string): boolean {
  if (!ADDRESS_RE.test(address)) return false;
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(address) === address;
}

/** True when two addresses name the same account (case-insensitive). */
export function sameAddress(a: string, b: string): boolean {
  return a.length === 42 && b.length === 42 && a.toLowerCase() === b.toLowerCase();
}

/** Checksummed address of an uncompressed public key (65 bytes starting 0x04). */
export function publicKeyToAddress(publicKey: Uint8Array): string {
  if (publicKey.length !== 65 || publicKey[0] !== 4) throw new RangeError('public key must be 65 bytes, uncompressed');
  const hash = keccak_256(publicKey.subarray(1));
  return toChecksumAddress('0x' + Buffer.from(hash.buffer, hash.byteOffset + 12, 20).toString('hex'));
}

/** Checksummed address of a private key (32 bytes). */
export function privateKeyToAddress(privateKey: Uint8Array): string {
  return publicKeyToAddress(publicKeyOf(privateKey));
}
