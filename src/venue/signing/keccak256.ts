/**
 * keccak256 (the pre-SHA-3 padding Ethereum uses) in plain JavaScript, fast enough for the order
 * path: the 25 lanes of keccak-f[1600] live in 50 local 32-bit integers for all 24 rounds, and
 * each round is written out in full (θ, ρ and π, χ, ι from FIPS 202, with lane (x, y) named
 * a{x + 5y}, its low and high halves l and h). About 2.5 times the rate of @noble/hashes'
 * keccak_256, which loops over a typed array; the 30 hashes of a batch of 15 orders cost about
 * 8% of tick-to-trade here even under load, so no native keccak is kept (issue 11 point 8,
 * `npm run bench -- order-hashing`). Pinned against @noble/hashes in test/venue/signing.
 */

/** Bytes absorbed per permutation (1088-bit rate, 512-bit capacity). */
const RATE = 136;

/** The 24 round constants of ι, as low and high halves, from the LFSR of FIPS 202 (rc(t)). */
const RC_LO = new Int32Array(24);
const RC_HI = new Int32Array(24);
for (let round = 0, r = 1; round < 24; round++) {
  for (let j = 0; j < 7; j++) {
    if ((r & 1) === 1) {
      const bit = (1 << j) - 1; // bit position 2^j - 1 of the 64-bit constant
      if (bit < 32) RC_LO[round] = (RC_LO[round] as number) | (1 << bit);
      else RC_HI[round] = (RC_HI[round] as number) | (1 << (bit - 32));
    }
    r = (r & 0x80) !== 0 ? ((r << 1) ^ 0x71) & 0xff : r << 1;
  }
}

const state = new Int32Array(50);
const lastBlock = new Uint8Array(RATE);

/** keccak256 of `data`: 32 bytes. */
export function keccak256(data: Uint8Array): Uint8Array {
  const s = state;
  s.fill(0);
  const whole = data.length - (data.length % RATE);
  for (let p = 0; p < whole; p += RATE) absorb(s, data, p);
  const tail = data.length - whole;
  const last = lastBlock;
  last.fill(0);
  last.set(data.subarray(whole), 0);
  last[tail] = 0x01; // keccak's domain bit (SHA-3 would put 0x06)
  last[RATE - 1] = (last[RATE - 1] as number) | 0x80;
  absorb(s, last, 0);
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const w = s[i] as number;
    out[4 * i] = w;
    out[4 * i + 1] = w >>> 8;
    out[4 * i + 2] = w >>> 16;
    out[4 * i + 3] = w >>> 24;
  }
  return out;
}

/** XORs the block at data[p..p + RATE) into the state (little-endian words), then permutes. */
function absorb(s: Int32Array, data: Uint8Array, p: number): void {
  for (let i = 0; i < RATE / 4; i++, p += 4) {
    s[i] = (s[i] as number) ^ ((data[p] as number) | ((data[p + 1] as number) << 8) | ((data[p + 2] as number) << 16) | ((data[p + 3] as number) << 24));
  }
  permute(s);
}

/** keccak-f[1600] on `s` (lane i is s[2i] low half, s[2i + 1] high half). */
function permute(s: Int32Array): void {
  let a0l = s[0] as number, a0h = s[1] as number, a1l = s[2] as number, a1h = s[3] as number, a2l = s[4] as number, a2h = s[5] as number,
    a3l = s[6] as number, a3h = s[7] as number, a4l = s[8] as number, a4h = s[9] as number, a5l = s[10] as number, a5h = s[11] as number,
    a6l = s[12] as number, a6h = s[13] as number, a7l = s[14] as number, a7h = s[15] as number, a8l = s[16] as number, a8h = s[17] as number,
    a9l = s[18] as number, a9h = s[19] as number, a10l = s[20] as number, a10h = s[21] as number, a11l = s[22] as number, a11h = s[23] as number,
    a12l = s[24] as number, a12h = s[25] as number, a13l = s[26] as number, a13h = s[27] as number, a14l = s[28] as number, a14h = s[29] as number,
    a15l = s[30] as number, a15h = s[31] as number, a16l = s[32] as number, a16h = s[33] as number, a17l = s[34] as number, a17h = s[35] as number,
    a18l = s[36] as number, a18h = s[37] as number, a19l = s[38] as number, a19h = s[39] as number, a20l = s[40] as number, a20h = s[41] as number,
    a21l = s[42] as number, a21h = s[43] as number, a22l = s[44] as number, a22h = s[45] as number, a23l = s[46] as number, a23h = s[47] as number,
    a24l = s[48] as number, a24h = s[49] as number;
  for (let round = 0; round < 24; round++) {
    // θ: each lane takes the parities of its two neighbouring columns
    const c0l = a0l ^ a5l ^ a10l ^ a15l ^ a20l; const c0h = a0h ^ a5h ^ a10h ^ a15h ^ a20h;
    const c1l = a1l ^ a6l ^ a11l ^ a16l ^ a21l; const c1h = a1h ^ a6h ^ a11h ^ a16h ^ a21h;
    const c2l = a2l ^ a7l ^ a12l ^ a17l ^ a22l; const c2h = a2h ^ a7h ^ a12h ^ a17h ^ a22h;
    const c3l = a3l ^ a8l ^ a13l ^ a18l ^ a23l; const c3h = a3h ^ a8h ^ a13h ^ a18h ^ a23h;
    const c4l = a4l ^ a9l ^ a14l ^ a19l ^ a24l; const c4h = a4h ^ a9h ^ a14h ^ a19h ^ a24h;
    const d0l = c4l ^ ((c1l << 1) | (c1h >>> 31)); const d0h = c4h ^ ((c1h << 1) | (c1l >>> 31));
    const d1l = c0l ^ ((c2l << 1) | (c2h >>> 31)); const d1h = c0h ^ ((c2h << 1) | (c2l >>> 31));
    const d2l = c1l ^ ((c3l << 1) | (c3h >>> 31)); const d2h = c1h ^ ((c3h << 1) | (c3l >>> 31));
    const d3l = c2l ^ ((c4l << 1) | (c4h >>> 31)); const d3h = c2h ^ ((c4h << 1) | (c4l >>> 31));
    const d4l = c3l ^ ((c0l << 1) | (c0h >>> 31)); const d4h = c3h ^ ((c0h << 1) | (c0l >>> 31));
    a0l ^= d0l; a0h ^= d0h; a1l ^= d1l; a1h ^= d1h; a2l ^= d2l; a2h ^= d2h; a3l ^= d3l; a3h ^= d3h; a4l ^= d4l; a4h ^= d4h;
    a5l ^= d0l; a5h ^= d0h; a6l ^= d1l; a6h ^= d1h; a7l ^= d2l; a7h ^= d2h; a8l ^= d3l; a8h ^= d3h; a9l ^= d4l; a9h ^= d4h;
    a10l ^= d0l; a10h ^= d0h; a11l ^= d1l; a11h ^= d1h; a12l ^= d2l; a12h ^= d2h; a13l ^= d3l; a13h ^= d3h; a14l ^= d4l; a14h ^= d4h;
    a15l ^= d0l; a15h ^= d0h; a16l ^= d1l; a16h ^= d1h; a17l ^= d2l; a17h ^= d2h; a18l ^= d3l; a18h ^= d3h; a19l ^= d4l; a19h ^= d4h;
    a20l ^= d0l; a20h ^= d0h; a21l ^= d1l; a21h ^= d1h; a22l ^= d2l; a22h ^= d2h; a23l ^= d3l; a23h ^= d3h; a24l ^= d4l; a24h ^= d4h;
    // ρ and π: b[y, 2x + 3y] = a[x, y] rotated left by its offset
    const b0l = a0l; const b0h = a0h;
    const b16l = (a5h << 4) | (a5l >>> 28); const b16h = (a5l << 4) | (a5h >>> 28);
    const b7l = (a10l << 3) | (a10h >>> 29); const b7h = (a10h << 3) | (a10l >>> 29);
    const b23l = (a15h << 9) | (a15l >>> 23); const b23h = (a15l << 9) | (a15h >>> 23);
    const b14l = (a20l << 18) | (a20h >>> 14); const b14h = (a20h << 18) | (a20l >>> 14);
    const b10l = (a1l << 1) | (a1h >>> 31); const b10h = (a1h << 1) | (a1l >>> 31);
    const b1l = (a6h << 12) | (a6l >>> 20); const b1h = (a6l << 12) | (a6h >>> 20);
    const b17l = (a11l << 10) | (a11h >>> 22); const b17h = (a11h << 10) | (a11l >>> 22);
    const b8l = (a16h << 13) | (a16l >>> 19); const b8h = (a16l << 13) | (a16h >>> 19);
    const b24l = (a21l << 2) | (a21h >>> 30); const b24h = (a21h << 2) | (a21l >>> 30);
    const b20l = (a2h << 30) | (a2l >>> 2); const b20h = (a2l << 30) | (a2h >>> 2);
    const b11l = (a7l << 6) | (a7h >>> 26); const b11h = (a7h << 6) | (a7l >>> 26);
    const b2l = (a12h << 11) | (a12l >>> 21); const b2h = (a12l << 11) | (a12h >>> 21);
    const b18l = (a17l << 15) | (a17h >>> 17); const b18h = (a17h << 15) | (a17l >>> 17);
    const b9l = (a22h << 29) | (a22l >>> 3); const b9h = (a22l << 29) | (a22h >>> 3);
    const b5l = (a3l << 28) | (a3h >>> 4); const b5h = (a3h << 28) | (a3l >>> 4);
    const b21l = (a8h << 23) | (a8l >>> 9); const b21h = (a8l << 23) | (a8h >>> 9);
    const b12l = (a13l << 25) | (a13h >>> 7); const b12h = (a13h << 25) | (a13l >>> 7);
    const b3l = (a18l << 21) | (a18h >>> 11); const b3h = (a18h << 21) | (a18l >>> 11);
    const b19l = (a23h << 24) | (a23l >>> 8); const b19h = (a23l << 24) | (a23h >>> 8);
    const b15l = (a4l << 27) | (a4h >>> 5); const b15h = (a4h << 27) | (a4l >>> 5);
    const b6l = (a9l << 20) | (a9h >>> 12); const b6h = (a9h << 20) | (a9l >>> 12);
    const b22l = (a14h << 7) | (a14l >>> 25); const b22h = (a14l << 7) | (a14h >>> 25);
    const b13l = (a19l << 8) | (a19h >>> 24); const b13h = (a19h << 8) | (a19l >>> 24);
    const b4l = (a24l << 14) | (a24h >>> 18); const b4h = (a24h << 14) | (a24l >>> 18);
    // χ: a[x, y] = b[x, y] ^ (~b[x + 1, y] & b[x + 2, y])
    a0l = b0l ^ (~b1l & b2l); a0h = b0h ^ (~b1h & b2h);
    a1l = b1l ^ (~b2l & b3l); a1h = b1h ^ (~b2h & b3h);
    a2l = b2l ^ (~b3l & b4l); a2h = b2h ^ (~b3h & b4h);
    a3l = b3l ^ (~b4l & b0l); a3h = b3h ^ (~b4h & b0h);
    a4l = b4l ^ (~b0l & b1l); a4h = b4h ^ (~b0h & b1h);
    a5l = b5l ^ (~b6l & b7l); a5h = b5h ^ (~b6h & b7h);
    a6l = b6l ^ (~b7l & b8l); a6h = b6h ^ (~b7h & b8h);
    a7l = b7l ^ (~b8l & b9l); a7h = b7h ^ (~b8h & b9h);
    a8l = b8l ^ (~b9l & b5l); a8h = b8h ^ (~b9h & b5h);
    a9l = b9l ^ (~b5l & b6l); a9h = b9h ^ (~b5h & b6h);
    a10l = b10l ^ (~b11l & b12l); a10h = b10h ^ (~b11h & b12h);
    a11l = b11l ^ (~b12l & b13l); a11h = b11h ^ (~b12h & b13h);
    a12l = b12l ^ (~b13l & b14l); a12h = b12h ^ (~b13h & b14h);
    a13l = b13l ^ (~b14l & b10l); a13h = b13h ^ (~b14h & b10h);
    a14l = b14l ^ (~b10l & b11l); a14h = b14h ^ (~b10h & b11h);
    a15l = b15l ^ (~b16l & b17l); a15h = b15h ^ (~b16h & b17h);
    a16l = b16l ^ (~b17l & b18l); a16h = b16h ^ (~b17h & b18h);
    a17l = b17l ^ (~b18l & b19l); a17h = b17h ^ (~b18h & b19h);
    a18l = b18l ^ (~b19l & b15l); a18h = b18h ^ (~b19h & b15h);
    a19l = b19l ^ (~b15l & b16l); a19h = b19h ^ (~b15h & b16h);
    a20l = b20l ^ (~b21l & b22l); a20h = b20h ^ (~b21h & b22h);
    a21l = b21l ^ (~b22l & b23l); a21h = b21h ^ (~b22h & b23h);
    a22l = b22l ^ (~b23l & b24l); a22h = b22h ^ (~b23h & b24h);
    a23l = b23l ^ (~b24l & b20l); a23h = b23h ^ (~b24h & b20h);
    a24l = b24l ^ (~b20l & b21l); a24h = b24h ^ (~b20h & b21h);
    // ι
    a0l ^= RC_LO[round] as number; a0h ^= RC_HI[round] as number;
  }
  s[0] = a0l; s[1] = a0h; s[2] = a1l; s[3] = a1h; s[4] = a2l; s[5] = a2h; s[6] = a3l; s[7] = a3h; s[8] = a4l; s[9] = a4h;
  s[10] = a5l; s[11] = a5h; s[12] = a6l; s[13] = a6h; s[14] = a7l; s[15] = a7h; s[16] = a8l; s[17] = a8h; s[18] = a9l; s[19] = a9h;
  s[20] = a10l; s[21] = a10h; s[22] = a11l; s[23] = a11h; s[24] = a12l; s[25] = a12h; s[26] = a13l; s[27] = a13h; s[28] = a14l; s[29] = a14h;
  s[30] = a15l; s[31] = a15h; s[32] = a16l; s[33] = a16h; s[34] = a17l; s[35] = a17h; s[36] = a18l; s[37] = a18h; s[38] = a19l; s[39] = a19h;
  s[40] = a20l; s[41] = a20h; s[42] = a21l; s[43] = a21h; s[44] = a22l; s[45] = a22h; s[46] = a23l; s[47] = a23h; s[48] = a24l; s[49] = a24h;
}
