/*
 * clobot's signing addon, over N-API in plain C: secp256k1 ECDSA (RFC 6979 nonces, low-s,
 * recovery id) through the system's libsecp256k1 (Debian: libsecp256k1-dev).
 *
 * Why it exists: the `secp256k1` npm package bundles a 2019 libsecp256k1; a current release (0.2
 * and later: safegcd inverses, static precomputed tables) signs in about two thirds of the time,
 * and a batch of 15 signatures is most of clobot's tick-to-trade budget. (Hashing stays in
 * JavaScript, ../keccak256.ts: a C keccak saved under 5% of tick-to-trade against it, `npm run
 * bench -- order-hashing`.) See ../native-addon.ts, which loads this addon when it was built; without it,
 * clobot uses the npm package.
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
 */
#include <node_api.h>
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

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "init", NAPI_AUTO_LENGTH, init, NULL, &fn) != napi_ok || napi_set_named_property(env, exports, "init", fn) != napi_ok) return NULL;
  if (napi_create_function(env, "sign", NAPI_AUTO_LENGTH, sign, NULL, &fn) != napi_ok || napi_set_named_property(env, exports, "sign", fn) != napi_ok) return NULL;
  return exports;
}
