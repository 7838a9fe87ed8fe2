/*
 * clobot's signing addon, over N-API in plain C: secp256k1 ECDSA (RFC 6979 nonces, low-s,
 * recovery id) through the system's libsecp256k1 (Debian: libsecp256k1-dev).
 *
 * Why it exists: the `secp256k1` npm package bundles a 2019 libsecp256k1; a current release (0.2
 * and later: safegcd inverses, static precomputed tables) signs in about two thirds of the time,
 * and a batch of 15 signatures is most of clobot's tick-to-trade budget. It also hashes: keccak256
 * here (64-bit lanes) takes the order path's two hashes per order (struct hash and digest, four
 * permutations) off the JavaScript one in ../keccak256.ts, which stays the reference and the
 * fallback (issue 27: keccak in JS was about 11% of a 15-order tick from dist/). See
 * ../native-addon.ts, which loads this addon when it was built and checks both against the
 * packages; without it, clobot uses the npm package and the JavaScript keccak.
 *
 * One context per JavaScript environment (main thread, each worker), made at load and randomized
 * with the seed the loader passes (blinding only: signatures are deterministic either way). Plain
 * C, no exceptions: a failed N-API call becomes a JavaScript exception, never an abort, so a
 * worker terminated in the middle of a call cannot take the process down.
 *
 * JavaScript API:
 *   init(seed: Uint8Array(32)): void
 *   sign(digest: Uint8Array(32), privateKey: Uint8Array(32), out: Uint8Array(>= offset + 65), offset: number): void
 *     writes r (32) ‖ s (32) ‖ v (1, 27 + recovery id) at out[offset..offset+65)
 *   keccak256(data: Uint8Array, out: Uint8Array(>= offset + 32), offset: number): void
 *     writes keccak256(data) (Ethereum's: pad 0x01 .. 0x80, not SHA-3's 0x06) at out[offset..offset+32)
 */
#include <node_api.h>
#include <pthread.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static napi_value throw_error(napi_env env, const char *kind, const char *message) {
  if (kind[0] == 'T') napi_throw_type_error(env, NULL, message);
  else if (kind[0] == 'R') napi_throw_range_error(env, NULL, message);
  else napi_throw_error(env, NULL, message);
  return NULL;
}

/*
 * The bytes of a Uint8Array argument into *bytes (never NULL: an empty array gives a pointer to
 * no bytes), or false with a TypeError thrown.
 */
static bool bytes_of(napi_env env, napi_value value, uint8_t **bytes, size_t *length, const char *message) {
  static uint8_t no_bytes[1];
  bool is_typed = false;
  napi_typedarray_type type;
  void *data = NULL;
  size_t offset = 0;
  if (napi_is_typedarray(env, value, &is_typed) != napi_ok || !is_typed ||
      napi_get_typedarray_info(env, value, &type, length, &data, NULL, &offset) != napi_ok || type != napi_uint8_array) {
    throw_error(env, "TypeError", message);
    return false;
  }
  *bytes = data != NULL ? (uint8_t *)data : no_bytes;
  return true;
}

static void destroy_context(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  secp256k1_context_destroy((secp256k1_context *)data);
}

static secp256k1_context *context_of(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok) return NULL;
  return (secp256k1_context *)data;
}

static napi_value init(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1) return throw_error(env, "TypeError", "init(seed): seed is missing");
  size_t length = 0;
  uint8_t *seed = NULL;
  if (!bytes_of(env, argv[0], &seed, &length, "init(seed): seed must be a Uint8Array")) return NULL;
  if (length != 32) return throw_error(env, "RangeError", "init(seed): seed must be 32 bytes");
  if (context_of(env) != NULL) return NULL;
  secp256k1_context *ctx = secp256k1_context_create(SECP256K1_CONTEXT_SIGN);
  if (ctx == NULL) return throw_error(env, "Error", "libsecp256k1: could not create a context");
  if (!secp256k1_context_randomize(ctx, seed)) {
    secp256k1_context_destroy(ctx);
    return throw_error(env, "Error", "libsecp256k1: could not randomize the context");
  }
  if (napi_set_instance_data(env, ctx, destroy_context, NULL) != napi_ok) {
    secp256k1_context_destroy(ctx);
    return throw_error(env, "Error", "could not keep the libsecp256k1 context");
  }
  return NULL;
}

static napi_value sign(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4) return throw_error(env, "TypeError", "sign(digest, privateKey, out, offset): 4 arguments expected");
  secp256k1_context *ctx = context_of(env);
  if (ctx == NULL) return throw_error(env, "Error", "sign: init(seed) was not called");
  size_t digest_length = 0, key_length = 0, out_length = 0;
  uint8_t *digest = NULL, *key = NULL, *out = NULL;
  if (!bytes_of(env, argv[0], &digest, &digest_length, "sign: digest must be a Uint8Array")) return NULL;
  if (!bytes_of(env, argv[1], &key, &key_length, "sign: privateKey must be a Uint8Array")) return NULL;
  if (!bytes_of(env, argv[2], &out, &out_length, "sign: out must be a Uint8Array")) return NULL;
  uint32_t offset = 0;
  if (napi_get_value_uint32(env, argv[3], &offset) != napi_ok) return throw_error(env, "TypeError", "sign: offset must be a number");
  if (digest_length != 32) return throw_error(env, "RangeError", "sign: digest must be 32 bytes");
  if (key_length != 32) return throw_error(env, "RangeError", "sign: privateKey must be 32 bytes");
  if (out_length < 65 || offset > out_length - 65) return throw_error(env, "RangeError", "sign: out has no room for 65 bytes at offset");
  secp256k1_ecdsa_recoverable_signature signature;
  if (!secp256k1_ecdsa_sign_recoverable(ctx, &signature, digest, key, NULL, NULL)) return throw_error(env, "RangeError", "sign: the private key is out of range");
  int recid = 0;
  secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, out + offset, &recid, &signature);
  out[offset + 64] = (uint8_t)(27 + recid);
  return NULL;
}

/*
 * keccak-f[1600] (FIPS 202 section 3), lane (x, y) at s[x + 5y], written from the spec: the round
 * constants come from its LFSR rc(t) and the ρ offsets from its walk over (x, y), both made once
 * per process (the first load), so no table is typed in by hand.
 */
static uint64_t round_constants[24];
static unsigned rho_offsets[25];

static void keccak_tables(void) {
  unsigned r = 1; /* the LFSR's byte, as in ../keccak256.ts */
  for (int round = 0; round < 24; round++) {
    uint64_t rc = 0;
    for (int j = 0; j < 7; j++) {
      if (r & 1) rc |= (uint64_t)1 << ((1u << j) - 1);
      r = (r & 0x80) ? ((r << 1) ^ 0x71) & 0xff : r << 1;
    }
    round_constants[round] = rc;
  }
  rho_offsets[0] = 0;
  unsigned x = 1, y = 0;
  for (unsigned t = 0; t < 24; t++) {
    rho_offsets[x + 5 * y] = ((t + 1) * (t + 2) / 2) % 64;
    unsigned next_y = (2 * x + 3 * y) % 5;
    x = y;
    y = next_y;
  }
}

static inline uint64_t rotl64(uint64_t v, unsigned n) {
  return n == 0 ? v : (v << n) | (v >> (64 - n));
}

static void keccak_f1600(uint64_t s[25]) {
  uint64_t c[5], b[25];
  for (int round = 0; round < 24; round++) {
    for (int x = 0; x < 5; x++) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20]; /* θ */
    for (int x = 0; x < 5; x++) {
      uint64_t d = c[(x + 4) % 5] ^ rotl64(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) s[x + y] ^= d;
    }
    for (int x = 0; x < 5; x++) /* ρ and π: (x, y) goes to (y, 2x + 3y) */
      for (int y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl64(s[x + 5 * y], rho_offsets[x + 5 * y]);
    for (int y = 0; y < 25; y += 5) /* χ */
      for (int x = 0; x < 5; x++) s[x + y] = b[x + y] ^ (~b[(x + 1) % 5 + y] & b[(x + 2) % 5 + y]);
    s[0] ^= round_constants[round]; /* ι */
  }
}

#define KECCAK_RATE 136

static void absorb_block(uint64_t s[25], const uint8_t *block) {
  for (int i = 0; i < KECCAK_RATE / 8; i++) {
    uint64_t lane = 0;
    for (int k = 7; k >= 0; k--) lane = (lane << 8) | block[8 * i + k]; /* little-endian lanes */
    s[i] ^= lane;
  }
  keccak_f1600(s);
}

static void keccak256_into(const uint8_t *data, size_t length, uint8_t *out) {
  uint64_t s[25] = {0};
  size_t whole = length - length % KECCAK_RATE;
  for (size_t p = 0; p < whole; p += KECCAK_RATE) absorb_block(s, data + p);
  uint8_t last[KECCAK_RATE] = {0};
  for (size_t i = whole; i < length; i++) last[i - whole] = data[i];
  last[length - whole] = 0x01;
  last[KECCAK_RATE - 1] |= 0x80;
  absorb_block(s, last);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(s[i / 8] >> (8 * (i % 8)));
}

static napi_value keccak256(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3) return throw_error(env, "TypeError", "keccak256(data, out, offset): 3 arguments expected");
  size_t data_length = 0, out_length = 0;
  uint8_t *data = NULL, *out = NULL;
  if (!bytes_of(env, argv[0], &data, &data_length, "keccak256: data must be a Uint8Array")) return NULL;
  if (!bytes_of(env, argv[1], &out, &out_length, "keccak256: out must be a Uint8Array")) return NULL;
  uint32_t offset = 0;
  if (napi_get_value_uint32(env, argv[2], &offset) != napi_ok) return throw_error(env, "TypeError", "keccak256: offset must be a number");
  if (out_length < 32 || offset > out_length - 32) return throw_error(env, "RangeError", "keccak256: out has no room for 32 bytes at offset");
  keccak256_into(data, data_length, out + offset);
  return NULL;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "init", NAPI_AUTO_LENGTH, init, NULL, &fn) != napi_ok || napi_set_named_property(env, exports, "init", fn) != napi_ok) return NULL;
  if (napi_create_function(env, "sign", NAPI_AUTO_LENGTH, sign, NULL, &fn) != napi_ok || napi_set_named_property(env, exports, "sign", fn) != napi_ok) return NULL;
  if (napi_create_function(env, "keccak256", NAPI_AUTO_LENGTH, keccak256, NULL, &fn) != napi_ok || napi_set_named_property(env, exports, "keccak256", fn) != napi_ok) return NULL;
  static pthread_once_t tables_once = PTHREAD_ONCE_INIT; /* each worker loads the module again */
  if (pthread_once(&tables_once, keccak_tables) != 0) return NULL;
  return exports;
}
