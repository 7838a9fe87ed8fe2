import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Prng } from './prng.ts';

/** Identifier shapes of the venue, drawn from a seeded stream. */

/** `0x` + 64 lowercase hex digits (condition ids, question ids, neg-risk ids, tx hashes). */
export function hex32(rng: Prng): string {
  return '0x' + rng.hex(32);
}

/** A uint256 token id as a decimal string, 76 to 78 digits like the venue's. */
export function tokenId(rng: Prng): string {
  const bytes = rng.bytes(32);
  bytes[0] = 0x10 + ((bytes[0] ?? 0) % 0xe0); // keep the top byte away from zero
  let value = 0n;
  for (const b of bytes) value = (value << 8n) | BigInt(b);
  return value.toString(10);
}

/** A random EIP-55 checksummed address. */
export function address(rng: Prng): string {
  return checksumAddress(rng.hex(20));
}

/** EIP-55: hex digits upper-cased where the keccak-256 of the lowercase address has a nibble >= 8. */
export function checksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase().replace(/^0x/, '');
  const hash = keccak_256(new TextEncoder().encode(lower));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const ch = lower[i] as string;
    const byte = hash[i >> 1] ?? 0;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    out += nibble >= 8 ? ch.toUpperCase() : ch;
  }
  return out;
}

/** `"Will Ada win the 2027 Cup?"` -> `"will-ada-win-the-2027-cup"`. */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** ISO 8601 date-time in UTC with milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

export const DAY_MS = 86_400_000;
