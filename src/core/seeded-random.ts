/**
 * mulberry32: a small seeded generator, uniform in [0, 1). For synthetic data that must come out
 * the same on every run (generated recordings, benchmark inputs); not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` decimal digits, the first non-zero (token ids and the like). */
export function randomDigits(rand: () => number, n: number): string {
  let s = String(1 + Math.floor(rand() * 9));
  while (s.length < n) s += String(Math.floor(rand() * 10));
  return s;
}

/** `n` lowercase hex digits. */
export function randomHex(rand: () => number, n: number): string {
  let s = '';
  while (s.length < n) s += Math.floor(rand() * 16).toString(16);
  return s;
}
