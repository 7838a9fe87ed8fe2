/**
 * keccak256 (the pre-SHA-3 padding Ethereum uses) in plain JavaScript, fast enough for the order
 * path. The 25 lanes of keccak-f[1600] are held bit-interleaved (each 64-bit lane as its even
 * bits and its odd bits, two 32-bit words), so a 64-bit rotation is two 32-bit rotations, which
 * V8 compiles to single instructions; they live in 50 local integers for all 24 rounds, and each
 * round is written out in full (θ, ρ and π, χ, ι from FIPS 202, lane (x, y) named a{x + 5y}, its
 * halves e and o). About 3 times the rate of @noble/hashes' keccak_256, which loops over a typed
 * array of plain halves. The order path hashes through the signing addon's keccak256 in C when
 * the addon is built (eip712.ts; about 3 times this rate on an order struct, issue 27 point 1);
 * this one is the reference the addon is checked against at load, and the fallback without it.
 * Pinned against @noble/hashes in test/venue/signing.
 */

/** Bytes absorbed per permutation (1088-bit rate, 512-bit capacity). */
const RATE = 136;

/** The even bits of `x` in the low 16 bits. */
function evenBits(x: number): number {
  x &= 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  return (x | (x >>> 8)) & 0x0000ffff;
}

/** The low 16 bits of `x` spread to the even bits. */
function spreadBits(x: number): number {
  x &= 0x0000ffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  return (x | (x << 1)) & 0x55555555;
}

/** The 24 round constants of ι, interleaved, from the LFSR of FIPS 202 (rc(t)). */
const RC_EVEN = new Int32Array(24);
const RC_ODD = new Int32Array(24);
for (let round = 0, r = 1; round < 24; round++) {
  let lo = 0;
  let hi = 0;
  for (let j = 0; j < 7; j++) {
    if ((r & 1) === 1) {
      const bit = (1 << j) - 1; // bit 2^j - 1 of the 64-bit constant
      if (bit < 32) lo |= 1 << bit;
      else hi |= 1 << (bit - 32);
    }
    r = (r & 0x80) !== 0 ? ((r << 1) ^ 0x71) & 0xff : r << 1;
  }
  RC_EVEN[round] = evenBits(lo) | (evenBits(hi) << 16);
  RC_ODD[round] = evenBits(lo >>> 1) | (evenBits(hi >>> 1) << 16);
}

/** The state: lane i is s[2i] (its even bits) and s[2i + 1] (its odd bits). */
const state = new Int32Array(50);
const lastBlock = new Uint8Array(RATE);

/**
 * keccak256 of `data`: 32 bytes, written into `out` at `offset` (a new array by default) and
 * returned in `out` (the EIP-712 digest writes a struct hash straight into its input).
 */
export function keccak256(data: Uint8Array, out: Uint8Array = new Uint8Array(32), offset = 0): Uint8Array {
  const s = state;
  s.fill(0);
  const whole = data.length - (data.length % RATE);
  for (let p = 0; p < whole; p += RATE) absorb(s, data, p);
  const last = lastBlock;
  last.fill(0);
  last.set(data.subarray(whole), 0);
  last[data.length - whole] = 0x01; // keccak's domain bit (SHA-3 would put 0x06)
  last[RATE - 1] = (last[RATE - 1] as number) | 0x80;
  absorb(s, last, 0);
  for (let i = 0; i < 4; i++) {
    const e = s[2 * i] as number;
    const o = s[2 * i + 1] as number;
    putWord(out, offset + 8 * i, spreadBits(e) | (spreadBits(o) << 1));
    putWord(out, offset + 8 * i + 4, spreadBits(e >>> 16) | (spreadBits(o >>> 16) << 1));
  }
  return out;
}

function putWord(out: Uint8Array, at: number, w: number): void {
  out[at] = w;
  out[at + 1] = w >>> 8;
  out[at + 2] = w >>> 16;
  out[at + 3] = w >>> 24;
}

/** XORs the block at data[p..p + RATE) into the state, lane by lane (little-endian), then permutes. */
function absorb(s: Int32Array, data: Uint8Array, p: number): void {
  for (let i = 0; i < RATE / 4; i += 2, p += 8) {
    const lo = (data[p] as number) | ((data[p + 1] as number) << 8) | ((data[p + 2] as number) << 16) | ((data[p + 3] as number) << 24);
    const hi = (data[p + 4] as number) | ((data[p + 5] as number) << 8) | ((data[p + 6] as number) << 16) | ((data[p + 7] as number) << 24);
    s[i] = (s[i] as number) ^ (evenBits(lo) | (evenBits(hi) << 16));
    s[i + 1] = (s[i + 1] as number) ^ (evenBits(lo >>> 1) | (evenBits(hi >>> 1) << 16));
  }
  permute(s);
}

/** keccak-f[1600] on the interleaved state `s`. */
function permute(s: Int32Array): void {
  let a0e = s[0] as number, a0o = s[1] as number, a1e = s[2] as number, a1o = s[3] as number, a2e = s[4] as number, a2o = s[5] as number,
    a3e = s[6] as number, a3o = s[7] as number, a4e = s[8] as number, a4o = s[9] as number, a5e = s[10] as number, a5o = s[11] as number,
    a6e = s[12] as number, a6o = s[13] as number, a7e = s[14] as number, a7o = s[15] as number, a8e = s[16] as number, a8o = s[17] as number,
    a9e = s[18] as number, a9o = s[19] as number, a10e = s[20] as number, a10o = s[21] as number, a11e = s[22] as number, a11o = s[23] as number,
    a12e = s[24] as number, a12o = s[25] as number, a13e = s[26] as number, a13o = s[27] as number, a14e = s[28] as number, a14o = s[29] as number,
    a15e = s[30] as number, a15o = s[31] as number, a16e = s[32] as number, a16o = s[33] as number, a17e = s[34] as number, a17o = s[35] as number,
    a18e = s[36] as number, a18o = s[37] as number, a19e = s[38] as number, a19o = s[39] as number, a20e = s[40] as number, a20o = s[41] as number,
    a21e = s[42] as number, a21o = s[43] as number, a22e = s[44] as number, a22o = s[45] as number, a23e = s[46] as number, a23o = s[47] as number,
    a24e = s[48] as number, a24o = s[49] as number;
  for (let round = 0; round < 24; round++) {
    // θ: each lane takes the parities of its two neighbouring columns
    const c0e = a0e ^ a5e ^ a10e ^ a15e ^ a20e; const c0o = a0o ^ a5o ^ a10o ^ a15o ^ a20o;
    const c1e = a1e ^ a6e ^ a11e ^ a16e ^ a21e; const c1o = a1o ^ a6o ^ a11o ^ a16o ^ a21o;
    const c2e = a2e ^ a7e ^ a12e ^ a17e ^ a22e; const c2o = a2o ^ a7o ^ a12o ^ a17o ^ a22o;
    const c3e = a3e ^ a8e ^ a13e ^ a18e ^ a23e; const c3o = a3o ^ a8o ^ a13o ^ a18o ^ a23o;
    const c4e = a4e ^ a9e ^ a14e ^ a19e ^ a24e; const c4o = a4o ^ a9o ^ a14o ^ a19o ^ a24o;
    const d0e = c4e ^ ((c1o << 1) | (c1o >>> 31)); const d0o = c4o ^ c1e;
    const d1e = c0e ^ ((c2o << 1) | (c2o >>> 31)); const d1o = c0o ^ c2e;
    const d2e = c1e ^ ((c3o << 1) | (c3o >>> 31)); const d2o = c1o ^ c3e;
    const d3e = c2e ^ ((c4o << 1) | (c4o >>> 31)); const d3o = c2o ^ c4e;
    const d4e = c3e ^ ((c0o << 1) | (c0o >>> 31)); const d4o = c3o ^ c0e;
    a0e ^= d0e; a0o ^= d0o; a1e ^= d1e; a1o ^= d1o; a2e ^= d2e; a2o ^= d2o; a3e ^= d3e; a3o ^= d3o; a4e ^= d4e; a4o ^= d4o;
    a5e ^= d0e; a5o ^= d0o; a6e ^= d1e; a6o ^= d1o; a7e ^= d2e; a7o ^= d2o; a8e ^= d3e; a8o ^= d3o; a9e ^= d4e; a9o ^= d4o;
    a10e ^= d0e; a10o ^= d0o; a11e ^= d1e; a11o ^= d1o; a12e ^= d2e; a12o ^= d2o; a13e ^= d3e; a13o ^= d3o; a14e ^= d4e; a14o ^= d4o;
    a15e ^= d0e; a15o ^= d0o; a16e ^= d1e; a16o ^= d1o; a17e ^= d2e; a17o ^= d2o; a18e ^= d3e; a18o ^= d3o; a19e ^= d4e; a19o ^= d4o;
    a20e ^= d0e; a20o ^= d0o; a21e ^= d1e; a21o ^= d1o; a22e ^= d2e; a22o ^= d2o; a23e ^= d3e; a23o ^= d3o; a24e ^= d4e; a24o ^= d4o;
    // ρ and π: b[y, 2x + 3y] = a[x, y] rotated left by its offset (an odd offset swaps the halves)
    const b0e = a0e; const b0o = a0o;
    const b16e = ((a5e << 18) | (a5e >>> 14)); const b16o = ((a5o << 18) | (a5o >>> 14));
    const b7e = ((a10o << 2) | (a10o >>> 30)); const b7o = ((a10e << 1) | (a10e >>> 31));
    const b23e = ((a15o << 21) | (a15o >>> 11)); const b23o = ((a15e << 20) | (a15e >>> 12));
    const b14e = ((a20e << 9) | (a20e >>> 23)); const b14o = ((a20o << 9) | (a20o >>> 23));
    const b10e = ((a1o << 1) | (a1o >>> 31)); const b10o = a1e;
    const b1e = ((a6e << 22) | (a6e >>> 10)); const b1o = ((a6o << 22) | (a6o >>> 10));
    const b17e = ((a11e << 5) | (a11e >>> 27)); const b17o = ((a11o << 5) | (a11o >>> 27));
    const b8e = ((a16o << 23) | (a16o >>> 9)); const b8o = ((a16e << 22) | (a16e >>> 10));
    const b24e = ((a21e << 1) | (a21e >>> 31)); const b24o = ((a21o << 1) | (a21o >>> 31));
    const b20e = ((a2e << 31) | (a2e >>> 1)); const b20o = ((a2o << 31) | (a2o >>> 1));
    const b11e = ((a7e << 3) | (a7e >>> 29)); const b11o = ((a7o << 3) | (a7o >>> 29));
    const b2e = ((a12o << 22) | (a12o >>> 10)); const b2o = ((a12e << 21) | (a12e >>> 11));
    const b18e = ((a17o << 8) | (a17o >>> 24)); const b18o = ((a17e << 7) | (a17e >>> 25));
    const b9e = ((a22o << 31) | (a22o >>> 1)); const b9o = ((a22e << 30) | (a22e >>> 2));
    const b5e = ((a3e << 14) | (a3e >>> 18)); const b5o = ((a3o << 14) | (a3o >>> 18));
    const b21e = ((a8o << 28) | (a8o >>> 4)); const b21o = ((a8e << 27) | (a8e >>> 5));
    const b12e = ((a13o << 13) | (a13o >>> 19)); const b12o = ((a13e << 12) | (a13e >>> 20));
    const b3e = ((a18o << 11) | (a18o >>> 21)); const b3o = ((a18e << 10) | (a18e >>> 22));
    const b19e = ((a23e << 28) | (a23e >>> 4)); const b19o = ((a23o << 28) | (a23o >>> 4));
    const b15e = ((a4o << 14) | (a4o >>> 18)); const b15o = ((a4e << 13) | (a4e >>> 19));
    const b6e = ((a9e << 10) | (a9e >>> 22)); const b6o = ((a9o << 10) | (a9o >>> 22));
    const b22e = ((a14o << 20) | (a14o >>> 12)); const b22o = ((a14e << 19) | (a14e >>> 13));
    const b13e = ((a19e << 4) | (a19e >>> 28)); const b13o = ((a19o << 4) | (a19o >>> 28));
    const b4e = ((a24e << 7) | (a24e >>> 25)); const b4o = ((a24o << 7) | (a24o >>> 25));
    // χ: a[x, y] = b[x, y] ^ (~b[x + 1, y] & b[x + 2, y])
    a0e = b0e ^ (~b1e & b2e); a0o = b0o ^ (~b1o & b2o);
    a1e = b1e ^ (~b2e & b3e); a1o = b1o ^ (~b2o & b3o);
    a2e = b2e ^ (~b3e & b4e); a2o = b2o ^ (~b3o & b4o);
    a3e = b3e ^ (~b4e & b0e); a3o = b3o ^ (~b4o & b0o);
    a4e = b4e ^ (~b0e & b1e); a4o = b4o ^ (~b0o & b1o);
    a5e = b5e ^ (~b6e & b7e); a5o = b5o ^ (~b6o & b7o);
    a6e = b6e ^ (~b7e & b8e); a6o = b6o ^ (~b7o & b8o);
    a7e = b7e ^ (~b8e & b9e); a7o = b7o ^ (~b8o & b9o);
    a8e = b8e ^ (~b9e & b5e); a8o = b8o ^ (~b9o & b5o);
    a9e = b9e ^ (~b5e & b6e); a9o = b9o ^ (~b5o & b6o);
    a10e = b10e ^ (~b11e & b12e); a10o = b10o ^ (~b11o & b12o);
    a11e = b11e ^ (~b12e & b13e); a11o = b11o ^ (~b12o & b13o);
    a12e = b12e ^ (~b13e & b14e); a12o = b12o ^ (~b13o & b14o);
    a13e = b13e ^ (~b14e & b10e); a13o = b13o ^ (~b14o & b10o);
    a14e = b14e ^ (~b10e & b11e); a14o = b14o ^ (~b10o & b11o);
    a15e = b15e ^ (~b16e & b17e); a15o = b15o ^ (~b16o & b17o);
    a16e = b16e ^ (~b17e & b18e); a16o = b16o ^ (~b17o & b18o);
    a17e = b17e ^ (~b18e & b19e); a17o = b17o ^ (~b18o & b19o);
    a18e = b18e ^ (~b19e & b15e); a18o = b18o ^ (~b19o & b15o);
    a19e = b19e ^ (~b15e & b16e); a19o = b19o ^ (~b15o & b16o);
    a20e = b20e ^ (~b21e & b22e); a20o = b20o ^ (~b21o & b22o);
    a21e = b21e ^ (~b22e & b23e); a21o = b21o ^ (~b22o & b23o);
    a22e = b22e ^ (~b23e & b24e); a22o = b22o ^ (~b23o & b24o);
    a23e = b23e ^ (~b24e & b20e); a23o = b23o ^ (~b24o & b20o);
    a24e = b24e ^ (~b20e & b21e); a24o = b24o ^ (~b20o & b21o);
    // ι
    a0e ^= RC_EVEN[round] as number; a0o ^= RC_ODD[round] as number;
  }
  s[0] = a0e; s[1] = a0o; s[2] = a1e; s[3] = a1o; s[4] = a2e; s[5] = a2o; s[6] = a3e; s[7] = a3o; s[8] = a4e; s[9] = a4o;
  s[10] = a5e; s[11] = a5o; s[12] = a6e; s[13] = a6o; s[14] = a7e; s[15] = a7o; s[16] = a8e; s[17] = a8o; s[18] = a9e; s[19] = a9o;
  s[20] = a10e; s[21] = a10o; s[22] = a11e; s[23] = a11o; s[24] = a12e; s[25] = a12o; s[26] = a13e; s[27] = a13o; s[28] = a14e; s[29] = a14o;
  s[30] = a15e; s[31] = a15o; s[32] = a16e; s[33] = a16o; s[34] = a17e; s[35] = a17o; s[36] = a18e; s[37] = a18o; s[38] = a19e; s[39] = a19o;
  s[40] = a20e; s[41] = a20o; s[42] = a21e; s[43] = a21o; s[44] = a22e; s[45] = a22o; s[46] = a23e; s[47] = a23o; s[48] = a24e; s[49] = a24o;
}
