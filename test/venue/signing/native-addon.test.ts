import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { packageSignDigest, signDigest, signingBackend } from '../../../src/venue/signing/ecdsa.ts';
import { keccak256 } from '../../../src/venue/signing/keccak256.ts';
import { NATIVE_ADDON_PATH, nativeAddon, type NativeAddon } from '../../../src/venue/signing/native-addon.ts';
import { skipAbsentPart } from '../../optional-part.ts';

// Two libsecp256k1 builds can sign (see src/venue/signing/ecdsa.ts): clobot's addon over the
// system library when `npm install` built it, else the npm package. CI builds the addon and runs
// with CLOBOT_NATIVE_SIGNER=1, so there both are exercised: the addon through signDigest (and
// every signing test), the package here directly. Where the addon is not built (no
// libsecp256k1-dev), its own tests skip with one line saying so.

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const keyArb = fc.uint8Array({ minLength: 32, maxLength: 32 }).filter((k) => secp256k1.utils.isValidSecretKey(k));
const digestArb = fc.uint8Array({ minLength: 32, maxLength: 32 });
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const be32 = (v: bigint): Uint8Array => Uint8Array.from(Buffer.from(v.toString(16).padStart(64, '0'), 'hex'));

/** Runs an ES module snippet in a fresh node with tsx, from the repository root. */
function node(code: string, env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: REPO, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
}

describe('signing backends: clobot\'s addon and the npm packages', () => {
  it('the npm package and signDigest agree with each other and with @noble/curves', () => {
    fc.assert(
      fc.property(keyArb, digestArb, (key, digest) => {
        const noble = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' }); // recovery ‖ r ‖ s
        const expected = hex(noble.subarray(1)) + (27 + (noble[0] as number)).toString(16);
        expect(hex(packageSignDigest(digest, key))).toBe(expected);
        expect(hex(signDigest(digest, key))).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('CLOBOT_NATIVE_SIGNER=0 signs through the npm package, with the same bytes', () => {
    const code = `import { signDigest, signingBackend } from './src/venue/signing/ecdsa.ts';
      const s = signDigest(new Uint8Array(32).fill(7), new Uint8Array(32).fill(0x42));
      console.log(JSON.stringify({ name: signingBackend.name, sig: Buffer.from(s).toString('hex') }));`;
    const r = node(code, { CLOBOT_NATIVE_SIGNER: '0' });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ name: 'secp256k1 npm package', sig: hex(signDigest(new Uint8Array(32).fill(7), new Uint8Array(32).fill(0x42))) });
  });

  const skipAddon = skipAbsentPart({
    name: 'the native signing addon (src/venue/signing/native)',
    present: existsSync(NATIVE_ADDON_PATH),
    requiredBy: 'CLOBOT_NATIVE_SIGNER',
    install: 'apt-get install libsecp256k1-dev, then node bin/build-native.mjs',
  });

  describe.skipIf(skipAddon)('the addon (built here)', () => {
    let addon: NativeAddon;
    beforeAll(() => {
      addon = createRequire(import.meta.url)(NATIVE_ADDON_PATH) as NativeAddon;
      addon.init(new Uint8Array(32).fill(1));
    });

    it('is the backend in use', () => {
      expect(signingBackend.name).toBe('system libsecp256k1');
    });

    it('writes at an offset and refuses bad input with one clear error each', () => {
      const key = new Uint8Array(32).fill(0x42);
      const digest = new Uint8Array(32).fill(9);
      const out = new Uint8Array(200);
      addon.sign(digest, key, out, 100);
      expect(hex(out.subarray(100, 165))).toBe(hex(packageSignDigest(digest, key)));
      expect(out.subarray(0, 100).every((b) => b === 0) && out.subarray(165).every((b) => b === 0)).toBe(true);
      expect(() => addon.sign(new Uint8Array(31), key, out, 0)).toThrow(/digest must be 32 bytes/);
      expect(() => addon.sign(new Uint8Array(0), key, out, 0)).toThrow(/digest must be 32 bytes/);
      expect(() => addon.sign(digest, new Uint8Array(33), out, 0)).toThrow(/privateKey must be 32 bytes/);
      expect(() => addon.sign(digest, be32(0n), out, 0)).toThrow(/private key is out of range/);
      expect(() => addon.sign(digest, be32(N), out, 0)).toThrow(/private key is out of range/);
      expect(() => addon.sign(digest, key, out, 136)).toThrow(/no room for 65 bytes/);
      expect(() => addon.sign(digest, key, new Uint8Array(64), 0)).toThrow(/no room for 65 bytes/);
      expect(() => addon.sign([1, 2] as unknown as Uint8Array, key, out, 0)).toThrow(TypeError);
      expect(() => addon.sign(digest, key, new Uint16Array(65) as unknown as Uint8Array, 0)).toThrow(TypeError);
      expect(() => addon.init(new Uint8Array(3))).toThrow(/seed must be 32 bytes/);
      // a key one below the order is valid
      addon.sign(digest, be32(N - 1n), out, 0);
      expect(hex(out.subarray(0, 65))).toBe(hex(packageSignDigest(digest, be32(N - 1n))));
    });

    it('its keccak256 equals keccak256.ts and @noble/hashes for every length to past three blocks, and is in use', () => {
      expect(nativeAddon?.keccak256).toBeTypeOf('function');
      const out = new Uint8Array(40);
      for (let length = 0; length <= 3 * 136 + 1; length++) {
        const data = Uint8Array.from({ length }, (_, i) => (i * 37 + length * 11) & 0xff);
        addon.keccak256?.(data, out, 3);
        const got = hex(out.subarray(3, 35));
        expect(got, `length ${length}`).toBe(hex(keccak256(data)));
        expect(got, `length ${length}`).toBe(hex(keccak_256(data)));
      }
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 1200 }), (data) => {
          addon.keccak256?.(data, out, 0);
          expect(hex(out.subarray(0, 32))).toBe(hex(keccak_256(data)));
        }),
        { numRuns: 300 },
      );
      // a Buffer cut from the middle of a pool hashes its own bytes, not the pool's
      const pooled = Buffer.from('xx' + 'ab'.repeat(100), 'utf8').subarray(2);
      addon.keccak256?.(pooled, out, 0);
      expect(hex(out.subarray(0, 32))).toBe(hex(keccak_256(Uint8Array.from(pooled))));
      expect(() => addon.keccak256?.(new Uint8Array(1), new Uint8Array(31), 0)).toThrow(/no room for 32 bytes/);
      expect(() => addon.keccak256?.(new Uint8Array(1), out, 9)).toThrow(/no room for 32 bytes/);
      expect(() => addon.keccak256?.([1] as unknown as Uint8Array, out, 0)).toThrow(/data must be a Uint8Array/);
    });

    it('a worker terminated while it signs does not take the process down', () => {
      // the npm package's C++ addon aborts the process in this case (digest-signer.ts); ours is plain C
      const code = `import { Worker } from 'node:worker_threads';
        const src = "const a = require(process.argv[2]); a.init(new Uint8Array(32).fill(3)); const o = new Uint8Array(65), d = new Uint8Array(32), k = new Uint8Array(32).fill(0x42); require('worker_threads').parentPort.postMessage('go'); for (;;) a.sign(d, k, o, 0);";
        for (let i = 0; i < 60; i++) {
          const w = new Worker(src, { eval: true, execArgv: [], argv: [${JSON.stringify(NATIVE_ADDON_PATH)}] });
          await new Promise((r) => w.once('message', r));
          await new Promise((r) => setTimeout(r, i % 5));
          await w.terminate();
        }
        console.log('survived');`;
      const r = node(code);
      expect({ status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr }).toEqual({ status: 0, signal: null, stdout: 'survived\n', stderr: '' });
      // 60 threads started and terminated in a child: seconds quiet, over 30 s at load 16 (a hang's bound)
    }, 120_000);
  });
});
