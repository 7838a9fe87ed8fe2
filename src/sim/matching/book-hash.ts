/**
 * An incremental content hash of a book. Each level (side, price, aggregate size) maps to two
 * 32-bit words; the book's state is the sum of its levels' words mod 2^32 in each lane, so a level
 * change updates the hash in O(1) and the same content always gives the same hash, whatever
 * sequence of orders produced it. Two lanes give a 64-bit hash: a collision between two
 * different books has odds near 2^-64.
 */

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;
const TWO_32 = 4294967296;

function step(h: number, k: number): number {
  k = Math.imul(k, C1);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, C2);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** murmur3's finaliser: a bijection on 32-bit words. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function levelWord(seed: number, isBid: boolean, price: number, size: number): number {
  let h = seed;
  h = step(h, price);
  h = step(h, size >>> 0);
  h = step(h, Math.floor(size / TWO_32));
  h = step(h, isBid ? 1 : 2);
  return fmix(h ^ 16);
}

export function levelHashA(isBid: boolean, price: number, size: number): number {
  return levelWord(0x3c6ef372, isBid, price, size);
}

export function levelHashB(isBid: boolean, price: number, size: number): number {
  return levelWord(0x9e3779b9, isBid, price, size);
}

/** A 32-bit hash of a string (the token id salts its book's hash). */
export function stringHash32(text: string): number {
  let h = 0x2f1b3c4d;
  for (let i = 0; i < text.length; i++) h = step(h, text.charCodeAt(i));
  return fmix(h ^ text.length);
}

/**
 * The hash string of one token's view of a market book: the lanes mixed with a salt of the
 * token's id and the tick size. For a fixed token and tick the mapping from lanes is a bijection,
 * so the string changes exactly when the lanes do. 16 hex digits.
 */
export function formatBookHash(laneA: number, laneB: number, tokenSalt: number, tickSize: number): string {
  const salt = fmix(step(step(0x85ebca6b, tokenSalt), tickSize));
  const a = fmix((laneA ^ salt) >>> 0);
  const b = fmix((laneB ^ fmix(salt ^ 0x27d4eb2f)) >>> 0);
  return hex8(a) + hex8(b);
}

const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 8 lowercase hex digits of a 32-bit word (Number#toString(16) is a slow path in V8). */
function hex8(w: number): string {
  return (HEX[w >>> 24] as string) + (HEX[(w >>> 16) & 255] as string) + (HEX[(w >>> 8) & 255] as string) + (HEX[w & 255] as string);
}
