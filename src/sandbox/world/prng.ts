/**
 * The sandbox's own seeded PRNG: sfc32 (a small, fast, well-tested 128-bit-state generator),
 * seeded through a 32-bit mixing hash of the world seed and a label path. Every part of the
 * world draws from its own labelled stream (`Prng.from(seed, 'book', tokenIndex)`), so what one
 * part draws never shifts another, and lazily built parts come out the same whatever the order
 * of first use.
 */
export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  private constructor(a: number, b: number, c: number, d: number) {
    this.#a = a;
    this.#b = b;
    this.#c = c;
    this.#d = d;
    for (let i = 0; i < 12; i++) this.uint32(); // warm up away from the seed
  }

  /** A stream for `seed` and a label path: the same inputs always give the same stream. */
  static from(seed: number, ...labels: readonly (string | number)[]): Prng {
    let h = mix32((seed >>> 0) ^ 0x9e3779b9);
    let h2 = mix32(Math.floor(seed / 0x1_0000_0000) ^ 0x85ebca6b);
    for (const label of labels) {
      const text = String(label);
      for (let i = 0; i < text.length; i++) {
        h = mix32(h ^ text.charCodeAt(i));
        h2 = mix32(h2 + Math.imul(text.charCodeAt(i), 0x27d4eb2d));
      }
      h = mix32(h ^ 0x2f);
      h2 = mix32(h2 ^ 0x3c);
    }
    return new Prng(h, h2, mix32(h ^ 0x68e31da4), mix32(h2 ^ 0xb5297a4d) | 1);
  }

  /** Next unsigned 32-bit integer. */
  uint32(): number {
    const a = this.#a;
    const b = this.#b;
    const c = this.#c;
    const d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    this.#c = ((c << 21) | (c >>> 11)) + t | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.uint32() / 0x1_0000_0000;
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.float() * items.length)] as T;
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(choices: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of choices) total += weight;
    let r = this.float() * total;
    for (const [value, weight] of choices) {
      r -= weight;
      if (r < 0) return value;
    }
    return (choices[choices.length - 1] as readonly [T, number])[0];
  }

  /** A shuffled copy (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      const tmp = out[i] as T;
      out[i] = out[j] as T;
      out[j] = tmp;
    }
    return out;
  }

  /** `bytes` random bytes as lowercase hex (no prefix). */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) {
      out += this.uint32().toString(16).padStart(8, '0');
    }
    return out.slice(0, bytes * 2);
  }

  /** Random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i += 4) {
      const v = this.uint32();
      out[i] = v & 0xff;
      if (i + 1 < n) out[i + 1] = (v >>> 8) & 0xff;
      if (i + 2 < n) out[i + 2] = (v >>> 16) & 0xff;
      if (i + 3 < n) out[i + 3] = (v >>> 24) & 0xff;
    }
    return out;
  }
}

/** murmur3's 32-bit finaliser: a cheap full-avalanche mix. */
function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
