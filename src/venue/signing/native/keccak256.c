/*
 * keccak256 (the pre-SHA-3 padding Ethereum uses) for clobot's signing addon: one call per hash
 * from JavaScript instead of the four calls and the Buffer of the `keccak` package's sponge
 * (../keccak-native.ts). Written from the Keccak reference description (FIPS 202 section 3 for the
 * permutation; padding 0x01 ... 0x80, rate 136 bytes, 32 bytes out). Pinned in the tests against
 * @noble/hashes around every block boundary and by the order vectors.
 */
#include "keccak256.h"

#include <string.h>

static const uint64_t ROUND_CONSTANTS[24] = {
  0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
  0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
  0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
  0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
  0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
  0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* rho offsets, lane (x, y) at index x + 5y */
static const unsigned ROTATIONS[25] = {
  0, 1, 62, 28, 27,
  36, 44, 6, 55, 20,
  3, 10, 43, 25, 39,
  41, 45, 15, 21, 8,
  18, 2, 61, 56, 14,
};

static inline uint64_t rotate_left(uint64_t v, unsigned n) {
  return n == 0 ? v : (v << n) | (v >> (64 - n));
}

/* rho and pi together: lane i = x + 5y goes to (y, 2x + 3y), that is index PI_DESTINATION[i] */
static const unsigned char PI_DESTINATION[25] = {
  0, 10, 20, 5, 15,
  16, 1, 11, 21, 6,
  7, 17, 2, 12, 22,
  23, 8, 18, 3, 13,
  14, 24, 9, 19, 4,
};

static void keccak_f1600(uint64_t a[25]) {
  uint64_t c[5], d[5], b[25];
  for (int round = 0; round < 24; round++) {
    /* theta */
#pragma GCC unroll 5
    for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    d[0] = c[4] ^ rotate_left(c[1], 1);
    d[1] = c[0] ^ rotate_left(c[2], 1);
    d[2] = c[1] ^ rotate_left(c[3], 1);
    d[3] = c[2] ^ rotate_left(c[4], 1);
    d[4] = c[3] ^ rotate_left(c[0], 1);
    /* theta's column parity, then rho and pi */
#pragma GCC unroll 25
    for (int i = 0; i < 25; i++) b[PI_DESTINATION[i]] = rotate_left(a[i] ^ d[i % 5], ROTATIONS[i]);
    /* chi, row by row */
#pragma GCC unroll 5
    for (int y = 0; y < 25; y += 5) {
      a[y + 0] = b[y + 0] ^ (~b[y + 1] & b[y + 2]);
      a[y + 1] = b[y + 1] ^ (~b[y + 2] & b[y + 3]);
      a[y + 2] = b[y + 2] ^ (~b[y + 3] & b[y + 4]);
      a[y + 3] = b[y + 3] ^ (~b[y + 4] & b[y + 0]);
      a[y + 4] = b[y + 4] ^ (~b[y + 0] & b[y + 1]);
    }
    /* iota */
    a[0] ^= ROUND_CONSTANTS[round];
  }
}

#define RATE 136

/* lanes are little-endian */
static inline uint64_t load_lane(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t lane;
  memcpy(&lane, p, 8);
  return lane;
#else
  uint64_t lane = 0;
  for (int k = 7; k >= 0; k--) lane = (lane << 8) | p[k];
  return lane;
#endif
}

static void absorb_block(uint64_t a[25], const uint8_t *block) {
  for (int i = 0; i < RATE / 8; i++) a[i] ^= load_lane(block + 8 * i);
  keccak_f1600(a);
}

void clobot_keccak256(const uint8_t *data, size_t length, uint8_t out[32]) {
  uint64_t a[25] = {0};
  while (length >= RATE) {
    absorb_block(a, data);
    data += RATE;
    length -= RATE;
  }
  uint8_t last[RATE] = {0};
  if (length > 0) memcpy(last, data, length);
  last[length] ^= 0x01;
  last[RATE - 1] ^= 0x80;
  absorb_block(a, last);
  for (int i = 0; i < 4; i++) {
    for (int k = 0; k < 8; k++) out[8 * i + k] = (uint8_t)(a[i] >> (8 * k));
  }
}
