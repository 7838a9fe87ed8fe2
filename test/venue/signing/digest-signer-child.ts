/**
 * A process for the digest signer's shutdown tests (run through bin/run-ts.mjs):
 *   close <n>  n times: start a signer with a busy helper, sign (checking every signature against
 *              this thread's), close while the helper signs
 *   exit       start a signer with a busy helper and exit the process without closing it
 * Prints "ok <rounds>" and exits 0 when it gets to the end; a helper torn down inside the native
 * addon aborts the process instead.
 */
import { randomBytes } from 'node:crypto';
import { createDigestSigner } from '../../../src/venue/signing/digest-signer.ts';
import { signDigest } from '../../../src/venue/signing/ecdsa.ts';

const KEY = new Uint8Array(32).fill(0x5a);
const [mode, count] = process.argv.slice(2);
const batch = Array.from({ length: 200 }, () => randomBytes(32));

/** Signs until the helper has taken part, so it is awake and claiming when we stop. */
function busySigner() {
  const signer = createDigestSigner(KEY, { helpers: 1, spinMs: 100, stealAfterMs: 0 });
  const deadline = Date.now() + 10_000;
  while (signer.counters.byHelpers === 0 && Date.now() < deadline) {
    signer.signAll(batch);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
  }
  if (signer.counters.byHelpers === 0) throw new Error('the helper never took part');
  return signer;
}

if (mode === 'close') {
  const n = Number(count);
  for (let i = 0; i < n; i++) {
    const signer = busySigner();
    // stealAfterMs 0: the caller leaves the helper mid-signature, then closes at once
    const got = signer.signAll(batch);
    signer.close();
    batch.forEach((d, k) => {
      if (Buffer.compare(got[k]!, signDigest(d, KEY)) !== 0) throw new Error(`digest ${k}: the helpers' signature differs from this thread's`);
    });
  }
  process.stdout.write(`ok ${n}\n`);
} else if (mode === 'exit') {
  const signer = busySigner();
  signer.signAll(batch);
  process.stdout.write('ok 1\n');
  process.exit(0);
} else {
  process.stderr.write('usage: digest-signer-child.ts close <n> | exit\n');
  process.exit(2);
}
