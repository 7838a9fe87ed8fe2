import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createDigestSigner, DIGEST_SLOTS, type DigestSigner } from '../../../src/venue/signing/digest-signer.ts';
import { signDigest } from '../../../src/venue/signing/ecdsa.ts';
import { ConfigError } from '../../../src/core/errors.ts';

const KEY = new Uint8Array(32).fill(0x5a);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
let signer: DigestSigner | undefined;

afterEach(() => {
  signer?.close();
  signer = undefined;
});

/**
 * Signs rounds until the helpers have taken part: they start in the background, and on a loaded
 * machine a helper thread can take seconds to load before it claims its first digest (no deadline
 * of its own: the test's time limit bounds a helper that never comes).
 */
async function untilHelped(s: DigestSigner, digests: Uint8Array[]): Promise<void> {
  while (s.counters.byHelpers === 0) {
    s.signAll(digests);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('digest signer', () => {
  it('gives exactly the in-thread signatures, round after round, with helpers sharing the work', async () => {
    signer = createDigestSigner(KEY, { helpers: 2, spinMs: 20 });
    await untilHelped(signer, Array.from({ length: 15 }, () => randomBytes(32)));
    expect(signer.counters.byHelpers).toBeGreaterThan(0);
    for (let round = 0; round < 200; round++) {
      const digests = Array.from({ length: 1 + (round % 40) }, () => randomBytes(32));
      const got = signer.signAll(digests);
      expect(got.map(hex)).toEqual(digests.map((d) => hex(signDigest(d, KEY))));
    }
  });

  it('signs more digests than one round holds', () => {
    signer = createDigestSigner(KEY, { helpers: 1, spinMs: 20 });
    const digests = Array.from({ length: DIGEST_SLOTS * 2 + 7 }, () => randomBytes(32));
    expect(signer.signAll(digests).map(hex)).toEqual(digests.map((d) => hex(signDigest(d, KEY))));
  });

  it('takes a digest back when a helper is too slow, with the same result', async () => {
    // a steal window of 0: any digest a helper holds when the caller runs out is signed again here
    signer = createDigestSigner(KEY, { helpers: 1, spinMs: 50, stealAfterMs: 0 });
    // first the helper is up (it spins for 50 ms after each round, so back-to-back rounds find it
    // claiming); counted from the creation, the rounds could all end before its thread had loaded
    await untilHelped(signer, Array.from({ length: 15 }, () => randomBytes(32)));
    expect(signer.counters.byHelpers).toBeGreaterThan(0);
    // batches of rounds back to back until one steals, each checked after it: signing the expected
    // values in this thread between two rounds, slow on a loaded machine, could outlast the
    // helper's spin and let it sleep, and a helper asleep claims nothing, so nothing is stolen.
    // No count of batches: a turn between them lets the test's time limit end a run that never steals.
    while (signer.counters.stolen === 0) {
      const rounds: { digests: Uint8Array[]; got: Uint8Array[] }[] = [];
      for (let i = 0; i < 50 && signer.counters.stolen === 0; i++) {
        const digests = Array.from({ length: 15 }, () => randomBytes(32));
        rounds.push({ digests, got: signer.signAll(digests) });
      }
      for (const { digests, got } of rounds) expect(got.map(hex)).toEqual(digests.map((d) => hex(signDigest(d, KEY))));
      await new Promise((r) => setImmediate(r));
    }
    expect(signer.counters.stolen).toBeGreaterThan(0);
  });

  it('keeps signing in the calling thread after close, and refuses malformed input and options', () => {
    signer = createDigestSigner(KEY, { helpers: 1 });
    signer.close();
    const digests = Array.from({ length: 5 }, () => randomBytes(32));
    expect(signer.signAll(digests).map(hex)).toEqual(digests.map((d) => hex(signDigest(d, KEY))));
    expect(() => signer!.signAll([new Uint8Array(31)])).toThrow(/32 bytes/);
    expect(() => createDigestSigner(KEY, { helpers: -1 })).toThrow(ConfigError);
    expect(() => createDigestSigner(KEY, { helpers: 1, spinMs: Number.NaN })).toThrow(ConfigError);
  });

  // A helper terminated from outside while it is inside the secp256k1 addon aborts the whole
  // process ("terminate called after throwing an instance of 'Napi::Error'"). Before the helpers
  // left on their own, each of these children died that way more often than not.
  describe('shutdown while a helper is signing', () => {
    const REPO = fileURLToPath(new URL('../../../', import.meta.url));
    /** Each test runs a Node child that starts and closes tens of threads: seconds quiet, more under load (a hang's bound). */
    const CHILD_TIMEOUT_MS = 120_000;
    const child = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['bin/run-ts.mjs', 'test/venue/signing/digest-signer-child.ts', ...args], { cwd: REPO, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } });

    it('close waits for the helper to leave the addon: 40 closes, the process lives', () => {
      const r = child(['close', '40']);
      expect({ status: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout }).toEqual({ status: 0, signal: null, stderr: '', stdout: 'ok 40\n' });
    }, CHILD_TIMEOUT_MS);

    it('the same through the npm packages (CLOBOT_NATIVE_SIGNER=0): helpers sign with the same library as the caller', () => {
      const r = child(['close', '10'], { CLOBOT_NATIVE_SIGNER: '0' });
      expect({ status: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout }).toEqual({ status: 0, signal: null, stderr: '', stdout: 'ok 10\n' });
    }, CHILD_TIMEOUT_MS);

    it('a process that exits with an open signer exits cleanly, three times in a row', () => {
      for (let i = 0; i < 3; i++) {
        const r = child(['exit']);
        expect({ status: r.status, signal: r.signal, stderr: r.stderr, stdout: r.stdout }).toEqual({ status: 0, signal: null, stderr: '', stdout: 'ok 1\n' });
      }
    }, CHILD_TIMEOUT_MS);
  });
});
