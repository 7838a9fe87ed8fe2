// Helper thread of the digest signer (digest-signer.ts, which explains the protocol). Plain
// JavaScript, so it starts in a few milliseconds without a TypeScript loader. The shared layout
// below mirrors digest-signer.ts.
//
// This thread must never be terminated from outside while it is inside the secp256k1 package's
// addon: its C++ wrapper then throws during the forced unwind and aborts the whole process. So
// it leaves on its own: it checks the CLOSED word before it loads a signer and after every
// wake-up, and clears its `alive` flag (which the owner waits on) once it makes no more native call.
import { getRandomValues } from 'node:crypto';
import { createRequire } from 'node:module';
import { workerData } from 'node:worker_threads';

const SLOTS = 256;
const CLAIM = 0;
const COUNT = 1;
const WAKE = 2;
const CLOSED = 3;
const INDEX_BITS = 9;
const INDEX_MASK = (1 << INDEX_BITS) - 1;
const HELPER_BITS = 6;
const DONE_OFFSET = 4 * 4;
const DIGESTS_OFFSET = DONE_OFFSET + SLOTS * 4;
const SIGS_OFFSET = DIGESTS_OFFSET + SLOTS * 32;

const { shared, alive, helper, privateKey, spinMs, nativeAddonPath } = workerData;
const control = new Int32Array(shared, 0, 4);
const done = new Int32Array(shared, DONE_OFFSET, SLOTS);
const digests = new Uint8Array(shared, DIGESTS_OFFSET, SLOTS * 32);
// this helper's own signature area (see digest-signer.ts)
const sigs = new Uint8Array(shared, SIGS_OFFSET + helper * SLOTS * 65, SLOTS * 65);
const digest = new Uint8Array(32);
const signature = new Uint8Array(65);

try {
  if (Atomics.load(control, CLOSED) !== 1) serve(await loadSigner());
} finally {
  Atomics.store(alive, helper, 0);
  Atomics.notify(alive, helper);
}

/**
 * The same libsecp256k1 as the owner's thread (native-addon.ts decided): clobot's addon when the owner
 * passed its path, else the npm package. Returns sign(digest) -> r ‖ s ‖ v in `signature`.
 */
async function loadSigner() {
  if (nativeAddonPath !== undefined) {
    const addon = createRequire(import.meta.url)(nativeAddonPath);
    addon.init(getRandomValues(new Uint8Array(32)));
    return (d) => addon.sign(d, privateKey, signature, 0);
  }
  const secp = (await import('secp256k1')).default;
  return (d) => {
    const { signature: rs, recid } = secp.ecdsaSign(d, privateKey);
    signature.set(rs, 0);
    signature[64] = 27 + recid;
  };
}

/** Signs what it claims, round after round, until the owner closes. */
function serve(sign) {
  let seen = Atomics.load(control, WAKE);
  for (;;) {
    // CLOSED is set before WAKE is bumped, so a close after this check ends the wait below at once
    if (Atomics.load(control, CLOSED) === 1) return;
    if (spinMs > 0) {
      // hot: poll for the next round on this core (no futex wake-up, see digest-signer.ts)
      const until = performance.now() + spinMs;
      while (Atomics.load(control, WAKE) === seen && performance.now() < until);
    }
    Atomics.wait(control, WAKE, seen);
    seen = Atomics.load(control, WAKE);
    if (Atomics.load(control, CLOSED) === 1) return;
    const round = Atomics.load(control, CLAIM) >>> INDEX_BITS;
    const count = Atomics.load(control, COUNT);
    for (;;) {
      const word = Atomics.load(control, CLAIM);
      if (word >>> INDEX_BITS !== round) break;
      const i = word & INDEX_MASK;
      if (i >= count) break;
      if (Atomics.compareExchange(control, CLAIM, word, word + 1) !== word) continue;
      // a private copy: the caller may start the next round (and rewrite the slot) if we are slow
      digest.set(digests.subarray(i * 32, i * 32 + 32));
      sign(digest);
      if (Atomics.load(control, CLAIM) >>> INDEX_BITS !== round) continue; // the caller took it back and moved on
      sigs.set(signature, i * 65);
      Atomics.store(done, i, (round << HELPER_BITS) | helper);
    }
  }
}
