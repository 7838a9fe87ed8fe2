import { keccak_256 } from '@noble/hashes/sha3.js';
import { pathToFileURL } from 'node:url';
import { nativeAddon } from '../src/venue/signing/native-addon.ts';
import { packageKeccak256 } from '../src/venue/signing/keccak-native.ts';
import { keccak256 } from '../src/venue/signing/keccak256.ts';
import createKeccak from 'keccak';
import { printTable, type BenchTable } from './table.ts';

/**
 * What a native keccak256 can save on the order path (issue 11 point 8: a native part stays only
 * where it saves at least 10% of tick-to-trade for 15 orders), against clobot's own JavaScript
 * keccak256 (src/venue/signing/keccak256.ts), which the order path uses. A batch of 15 orders hashes 15
 * order structs (384 bytes) and 15 EIP-712 digest inputs (66 bytes); each implementation hashes
 * the same 30 buffers, interleaved round by round, and the table gives the median per batch.
 */

/** Tick-to-trade of 15 orders, p50 with the defaults and no store (`npm run bench -- engine-live`, issue 11). */
const TICK_TO_TRADE_15_US = 1870;
const BATCH = 15;
const ROUNDS = 2_000;

interface Hasher {
  readonly name: string;
  readonly hash: (data: Uint8Array) => Uint8Array;
  readonly samples: number[];
}

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
    { name: '@noble/hashes keccak_256 (JavaScript)', hash: keccak_256, samples: [] },
    { name: 'clobot keccak256.ts (JavaScript, unrolled)', hash: keccak256, samples: [] },
  ];
  if (nativeAddon !== undefined) {
    const addon = nativeAddon;
    hashers.push({
      name: 'clobot addon keccak256 (C, one call)',
      hash: (d) => {
        const out = new Uint8Array(32);
        addon.keccak256(d, out, 0);
        return out;
      },
      samples: [],
    });
  }
  hashers.push({ name: 'keccak package, its native sponge reused', hash: packageKeccak256, samples: [] });
  hashers.push({ name: 'keccak package, public createKeccak()', hash: (d) => createKeccak('keccak256').update(Buffer.from(d)).digest(), samples: [] });
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
  const base = median((hashers[1] as Hasher).samples); // what the order path uses
  const rows = hashers.map((h) => {
    const us = median(h.samples);
    return [h.name, us, `${((us / TICK_TO_TRADE_15_US) * 100).toFixed(1)}%`, `${(((base - us) / TICK_TO_TRADE_15_US) * 100).toFixed(1)}%`];
  });
  return {
    title: `keccak256 of ${BATCH} orders (${BATCH} structs of 384 B + ${BATCH} digests of 66 B)`,
    columns: ['implementation', 'µs per batch', 'of tick-to-trade', 'saves vs keccak256.ts'],
    rows,
    notes: [
      `median of ${ROUNDS} interleaved batches; tick-to-trade of 15 orders taken as ${TICK_TO_TRADE_15_US / 1000} ms (engine-live p50, defaults, no store)`,
      'a native part stays only where it saves at least 10% of tick-to-trade (issue 11 point 8)',
    ],
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await run());
}
