import { Worker } from 'node:worker_threads';
import { ConfigError } from '../../core/errors.ts';
import { signDigest } from './ecdsa.ts';
import { NATIVE_ADDON_PATH, nativeAddon } from './native-addon.ts';

/**
 * Signs many 32-byte digests at once, on the calling thread and on helper threads together.
 *
 * Why: one secp256k1 signature is the largest single cost between a book and an order post (about
 * 45 µs native); a batch of 15 is most of the tick-to-trade budget. Helper threads halve it on two
 * cores, but only if handing work over costs less than the signatures it saves: a message per
 * batch (postMessage, structured clone, an event-loop turn on each side) costs about as much as
 * it saves at 15 orders. So the hand-over here is shared memory:
 *
 * - the caller writes the digests into a SharedArrayBuffer, opens a new round and wakes the
 *   helpers (Atomics.notify on a futex word; an idle helper sleeps in Atomics.wait, using no CPU);
 * - caller and helpers claim digests one at a time with a compare-and-swap on one word (round
 *   number and next index together), sign what they claim, and a helper marks each slot done;
 * - the caller never waits for a helper that has not claimed anything: a helper that wakes late
 *   finds the round finished. It only waits for a digest a helper is signing right now, and when
 *   that takes longer than `stealAfterMs` (the helper was descheduled) it signs that digest
 *   itself; RFC 6979 signatures are deterministic, so either copy is the same bytes.
 *
 * So the call is synchronous, its result is exactly what in-thread signing gives, and its worst
 * case is in-thread signing plus `stealAfterMs`.
 *
 * Sleeping or spinning. A helper asleep in Atomics.wait is woken by the caller's notify, and on
 * the 2-vCPU machines we measured on (KVM guests) the kernel runs the woken helper on the
 * caller's own CPU: the caller is preempted while the helper signs its share, so the round takes
 * about as long as signing alone (15 digests: 0.89 ms alone, 0.81 ms with a sleeping helper).
 * A helper that keeps polling on its own core for `spinMs` after each round needs no wake-up
 * and really halves the round (0.47 ms), at the price of that core while it spins. So `spinMs`
 * (default 0) is the latency-for-CPU trade a deployment makes on purpose: a dedicated core during
 * active trading, nothing when idle. A helper that fails to start or dies only stops
 * helping. The private key is copied to each helper once, at start, in its workerData; it is never
 * logged and never put in an error.
 */
export interface DigestSigner {
  /** Helper threads (0 = in-thread only). */
  readonly helpers: number;
  /** Signs each digest (32 bytes) into r ‖ s ‖ v (65 bytes, v = 27 + recovery id), same index. */
  signAll(digests: readonly Uint8Array[]): Uint8Array[];
  readonly counters: DigestSignerCounters;
  /**
   * Stops the helpers and waits (blocking, at most `waitMs`, default 5 s; in practice one
   * signature or a helper's start-up) until none of them is inside the native addon any more.
   * The in-thread path keeps working. Helpers are never terminated from outside: a thread
   * terminated inside the secp256k1 addon aborts the whole process. A signer still open when the
   * process exits is closed the same way on the way out.
   */
  close(waitMs?: number): void;
}

export interface DigestSignerCounters {
  /** Calls of signAll that used the helpers. */
  rounds: number;
  /** Digests signed by the calling thread. */
  byCaller: number;
  /** Digests signed by helpers (and used). */
  byHelpers: number;
  /** Digests the caller signed again because a helper was too slow. */
  stolen: number;
}

export interface DigestSignerOptions {
  /** Helper threads; default 1. 0 signs in the calling thread only. */
  readonly helpers?: number;
  /**
   * How long the caller waits (spinning) for a digest a helper is signing before signing it
   * itself. Default 0.2 ms: a signature takes about 30-60 µs, so a helper still busy after that
   * was descheduled, and waiting longer only adds to the tail.
   */
  readonly stealAfterMs?: number;
  /** Batches smaller than this are signed in the calling thread. Default 2. */
  readonly minBatch?: number;
  /** How long a helper keeps polling on its core after a round before it sleeps. Default 0 (sleeps at once). */
  readonly spinMs?: number;
}

/** Digests per round; larger calls run in several rounds. */
export const DIGEST_SLOTS = 256;

// Layout of the shared memory, as Int32 indexes and byte offsets (mirrored in digest-signer-worker.mjs).
const CLAIM = 0; // (round << 9) | next index: one word, so a claim is one compare-and-swap
const COUNT = 1; // digests in the current round
const WAKE = 2; // bumped (and notified) to wake the helpers
const CLOSED = 3; // 1 once closed
const CONTROL_INTS = 4;
const INDEX_BITS = 9; // DIGEST_SLOTS <= 2^9
const ROUND_LIMIT = 1 << 21; // rounds cycle 1..2^21-1 (the word stays a positive int32)
const HELPER_BITS = 6; // a done word is (round << 6) | helper
const DONE_OFFSET = CONTROL_INTS * 4; // Int32 per slot: the round and helper that finished it
const DIGESTS_OFFSET = DONE_OFFSET + DIGEST_SLOTS * 4;
/** Each helper writes signatures into its own area, so a late helper never overwrites another's. */
const SIGS_OFFSET = DIGESTS_OFFSET + DIGEST_SLOTS * 32;
const sharedBytes = (helpers: number): number => SIGS_OFFSET + helpers * DIGEST_SLOTS * 65;

const WORKER_URL = new URL('./digest-signer-worker.mjs', import.meta.url);

/** Signers with helpers that are not closed yet: closed on process exit (see DigestSigner.close). */
const openSigners = new Set<DigestSigner>();
let exitHookInstalled = false;
function closeOnExit(signer: DigestSigner): void {
  openSigners.add(signer);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const s of openSigners) s.close(1_000);
  });
}

/** Signs in the calling thread only. */
function inThreadDigestSigner(privateKey: Uint8Array): DigestSigner {
  const counters: DigestSignerCounters = { rounds: 0, byCaller: 0, byHelpers: 0, stolen: 0 };
  return {
    helpers: 0,
    counters,
    signAll(digests) {
      counters.byCaller += digests.length;
      return digests.map((d) => signDigest(d, privateKey));
    },
    close() {},
  };
}

/**
 * Starts the helpers and returns at once: until a helper is up (a few tens of ms), the calling
 * thread signs everything, so nothing waits for the start.
 */
export function createDigestSigner(privateKey: Uint8Array, options: DigestSignerOptions = {}): DigestSigner {
  const helpers = options.helpers ?? 1;
  if (!Number.isInteger(helpers) || helpers < 0 || helpers > 64) throw new ConfigError(`signing helpers: must be an integer from 0 to 64, was ${helpers}`);
  if (helpers === 0) return inThreadDigestSigner(privateKey);
  const stealAfterMs = options.stealAfterMs ?? 0.2;
  const spinMs = options.spinMs ?? 0;
  if (!(Number.isFinite(spinMs) && spinMs >= 0)) throw new ConfigError(`signing helper spin: must be a finite number of ms >= 0, was ${spinMs}`);
  const minBatch = Math.max(2, options.minBatch ?? 2);
  const shared = new SharedArrayBuffer(sharedBytes(helpers));
  const control = new Int32Array(shared, 0, CONTROL_INTS);
  const done = new Int32Array(shared, DONE_OFFSET, DIGEST_SLOTS);
  const digestArea = new Uint8Array(shared, DIGESTS_OFFSET, DIGEST_SLOTS * 32);
  const sigArea = new Uint8Array(shared, SIGS_OFFSET, helpers * DIGEST_SLOTS * 65);
  /** One flag per helper: 1 until it will make no more native call (set here, cleared by the helper or its exit). */
  const alive = new Int32Array(new SharedArrayBuffer(helpers * 4));
  // helpers sign with the same libsecp256k1 as this thread
  const nativeAddonPath = nativeAddon ? NATIVE_ADDON_PATH : undefined;
  const counters: DigestSignerCounters = { rounds: 0, byCaller: 0, byHelpers: 0, stolen: 0 };
  let live = 0;
  let round = 0;
  for (let i = 0; i < helpers; i++) {
    Atomics.store(alive, i, 1);
    const worker = new Worker(WORKER_URL, { workerData: { shared, alive, helper: i, spinMs, privateKey: Uint8Array.from(privateKey), nativeAddonPath } });
    live++;
    let gone = false;
    const leave = (): void => {
      Atomics.store(alive, i, 0);
      if (!gone) {
        gone = true;
        live--;
      }
    };
    worker.on('error', leave);
    worker.on('exit', leave);
    worker.unref();
  }

  /** Claims the next index of `r`, or -1 when the round is over (or another round began). */
  const claim = (r: number, count: number): number => {
    for (;;) {
      const word = Atomics.load(control, CLAIM);
      if (word >>> INDEX_BITS !== r) return -1;
      const next = word & ((1 << INDEX_BITS) - 1);
      if (next >= count) return -1;
      if (Atomics.compareExchange(control, CLAIM, word, word + 1) === word) return next;
    }
  };

  const signRound = (digests: readonly Uint8Array[], from: number, count: number, out: Uint8Array[]): void => {
    round = round + 1 >= ROUND_LIMIT ? 1 : round + 1;
    const r = round;
    for (let i = 0; i < count; i++) digestArea.set(digests[from + i] as Uint8Array, i * 32);
    Atomics.store(control, COUNT, count);
    Atomics.store(control, CLAIM, r << INDEX_BITS);
    Atomics.add(control, WAKE, 1);
    Atomics.notify(control, WAKE);
    const mine = new Uint8Array(count);
    for (let i = claim(r, count); i >= 0; i = claim(r, count)) {
      out[from + i] = signDigest(digests[from + i] as Uint8Array, privateKey);
      mine[i] = 1;
      counters.byCaller++;
    }
    for (let i = 0; i < count; i++) {
      if (mine[i] === 1) continue;
      // spin, not Atomics.wait: the wait is a fraction of a signature, and a thread that sleeps
      // on a futex gives its vCPU back (a slower wake-up than the signature it waits for)
      const started = performance.now();
      let word = Atomics.load(done, i);
      while (word >>> HELPER_BITS !== r && performance.now() - started < stealAfterMs) word = Atomics.load(done, i);
      if (word >>> HELPER_BITS === r) {
        const at = ((word & ((1 << HELPER_BITS) - 1)) * DIGEST_SLOTS + i) * 65;
        out[from + i] = sigArea.slice(at, at + 65);
        counters.byHelpers++;
      } else {
        out[from + i] = signDigest(digests[from + i] as Uint8Array, privateKey);
        counters.stolen++;
        counters.byCaller++;
      }
    }
  };

  let closed = false;
  const signer: DigestSigner = {
    helpers,
    counters,
    signAll(digests) {
      const n = digests.length;
      for (const d of digests) if (d.length !== 32) throw new RangeError(`digest must be 32 bytes, was ${d.length}`);
      if (closed || live === 0 || n < minBatch) {
        counters.byCaller += n;
        return digests.map((d) => signDigest(d, privateKey));
      }
      const out = new Array<Uint8Array>(n);
      counters.rounds++;
      for (let from = 0; from < n; from += DIGEST_SLOTS) signRound(digests, from, Math.min(DIGEST_SLOTS, n - from), out);
      return out;
    },
    close(waitMs = 5_000) {
      if (closed) return;
      closed = true;
      openSigners.delete(signer);
      Atomics.store(control, CLOSED, 1);
      Atomics.add(control, WAKE, 1);
      Atomics.notify(control, WAKE);
      const until = performance.now() + waitMs;
      for (let i = 0; i < helpers; i++) {
        for (let left = waitMs; Atomics.load(alive, i) === 1 && left > 0; left = until - performance.now()) Atomics.wait(alive, i, 1, left);
      }
    },
  };
  closeOnExit(signer);
  return signer;
}
