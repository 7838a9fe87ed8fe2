import { keccak_256 } from '@noble/hashes/sha3.js';
import { pathToFileURL } from 'node:url';
import { keccak256 } from '../src/venue/signing/keccak256.ts';
import { nativeAddon } from '../src/venue/signing/native-addon.ts';
import { printTable, type BenchTable } from './table.ts';

/**
 * What keccak256 costs the order path, and so what a native keccak could save at most (issue 11
 * point 8: a native part stays only where it saves at least 10% of tick-to-trade for 15 orders).
 * A batch of 15 orders hashes 15 order structs (384 bytes) and 15 EIP-712 digest inputs (66
 * bytes); each implementation hashes the same 30 buffers, interleaved batch by batch, and the
 * table gives the median per batch. The row in use is clobot's own JavaScript keccak256
 * (src/venue/signing/keccak256.ts): a native one would save less than that row's whole share.
 *
 * Measured here against the native ones before they were removed (median per batch): a C
 * keccak in clobot's addon (of commit 29ac16e, built aside) 38-57 µs against 121-144 for
 * keccak256.ts in the same runs, so it saved 80-91 µs, 4.3-4.9% of tick-to-trade, under the 10%
 * that would keep it; the keccak package's private native sponge 89 µs and its public API 141
 * (one earlier run, against 156 for a first keccak256.ts without bit interleaving).
 *
 * Issue 27 point 1 brought a C keccak back into the addon: the tick is about half as long from
 * dist/ now (engine-live's CPU p50 for 15 orders about 1 ms), so the same saving is about twice
 * the share, and the goal of 1.5x the signatures alone needs every cost off the tick. The row
 * "signing addon" is the one eip712.ts hashes the order path with when the addon is loaded.
 */

/** Tick-to-trade of 15 orders, CPU p50 with the defaults and the store (`npm run bench:dist -- engine-live`, issue 27). */
const TICK_TO_TRADE_15_US = 1000;
const BATCH = 15;
const ROUNDS = 2_000;

interface Hasher {
  readonly name: string;
  readonly hash: (data: Uint8Array) => Uint8Array;
  readonly samples: number[];
}

const out32 = new Uint8Array(32);

function buffers(): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < BATCH; i++) {
    out.push(new Uint8Array(384).map((_, j) => (i * 31 + j * 7) & 0xff));
    out.push(new Uint8Array(66).map((_, j) => (i * 13 + j * 3) & 0xff));
  }
  return out;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export async function run(): Promise<BenchTable> {
  const data = buffers();
  const hashers: Hasher[] = [
    { name: `clobot keccak256.ts (JavaScript, bit-interleaved${nativeAddon?.keccak256 ? '; the fallback' : '; in use'})`, hash: keccak256, samples: [] },
    { name: '@noble/hashes keccak_256 (JavaScript)', hash: keccak_256, samples: [] },
  ];
  const native = nativeAddon?.keccak256;
  if (native !== undefined) {
    hashers.push({ name: 'signing addon keccak256 (C; in use)', hash: (d) => (native(d, out32, 0), out32), samples: [] });
  }
  for (const h of hashers) {
    const expected = Buffer.from(keccak_256(data[0] as Uint8Array)).toString('hex');
    if (Buffer.from(h.hash(data[0] as Uint8Array)).toString('hex') !== expected) throw new Error(`${h.name}: wrong hash`);
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const h of hashers) {
      const t0 = performance.now();
      for (const d of data) h.hash(d);
      h.samples.push((performance.now() - t0) * 1000);
    }
  }
  await Promise.resolve();
  const base = median((hashers[0] as Hasher).samples); // the JavaScript one
  const rows = hashers.map((h) => {
    const us = median(h.samples);
    return [h.name, us, `${((us / TICK_TO_TRADE_15_US) * 100).toFixed(1)}%`, `${(us / base).toFixed(2)}x the time`];
  });
  return {
    title: `keccak256 of ${BATCH} orders (${BATCH} structs of 384 B + ${BATCH} digests of 66 B)`,
    columns: ['implementation', 'µs per batch', 'of tick-to-trade', 'vs keccak256.ts'],
    rows,
    notes: [
      `median of ${ROUNDS} interleaved batches; tick-to-trade of 15 orders taken as ${TICK_TO_TRADE_15_US / 1000} ms (engine-live CPU p50 from dist/, defaults, store on)`,
      nativeAddon?.keccak256 ? 'the order path hashes with the addon (eip712.ts); keccak256.ts is the fallback without it' : `the addon's keccak is not in use here (native addon: not loaded or built before it hashed)`,
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await run());
}
