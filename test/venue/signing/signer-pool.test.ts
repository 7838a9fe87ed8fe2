import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClobotError } from '../../../src/core/errors.ts';
import { Secret } from '../../../src/core/secret.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import type { OrderParams } from '../../../src/venue/signing/order-builder.ts';
import { OrderBuildError } from '../../../src/venue/signing/order-build-error.ts';
import { createOrderSigner, type SignedOrder, type SigningAccount } from '../../../src/venue/signing/order-signer.ts';
import { createSignerPool, type SignerPool } from '../../../src/venue/signing/signer-pool.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const key = new Uint8Array(32).fill(0x22);
const account: SigningAccount = {
  privateKey: new Secret('0x' + '22'.repeat(32)),
  signerAddress: privateKeyToAddress(key),
  signatureType: 0,
};

function makeParams(n: number): OrderParams[] {
  return Array.from({ length: n }, (_, i) => ({
    tokenId: String(7_000_000 + (i % 5)),
    conditionId: '0x' + 'ef'.repeat(32),
    price: 1_000 * (1 + (i % 998)),
    size: 5_000_000 + i * 12_345,
    side: i % 3 === 0 ? 'SELL' : 'BUY',
    tick: 1_000,
    negRisk: i % 4 === 0,
    orderType: i % 10 === 0 ? 'GTD' : 'GTC',
    expiration: i % 10 === 0 ? 1_800_000_000 : undefined,
    postOnly: i % 6 === 1,
    clientOrderId: `pool-${i}`,
    salt: 9_000 + i,
    timestamp: 1_700_000_000_000 + i * 7,
  }));
}

describe('signer pool', () => {
  let pool: SignerPool;
  beforeAll(async () => {
    pool = await createSignerPool({ account, signer: { profile: 'interface' }, size: 2, minChunk: 8 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('signs exactly what in-thread signing gives, in order', async () => {
    const params = makeParams(101);
    const local = createOrderSigner(account, { profile: 'interface' });
    const expected: SignedOrder[] = params.map((p) => local.sign(p));
    const got = await pool.signBatch(params);
    expect(got).toEqual(expected);
  });

  it('handles concurrent batches of every small size, and the empty batch', async () => {
    const params = makeParams(60);
    const local = createOrderSigner(account, { profile: 'interface' });
    const batches = [0, 1, 2, 7, 8, 15, 16, 17].map((n, k) => params.slice(k, k + n));
    const results = await Promise.all(batches.map((b) => pool.signBatch(b)));
    results.forEach((r, k) => expect(r).toEqual(batches[k]!.map((p) => local.sign(p))));
  });

  it('reports a bad order with its index in the batch', async () => {
    const params = makeParams(40);
    params[29] = { ...params[29]!, price: 1_500 }; // off the 0.001 grid
    let caught: unknown;
    try {
      await pool.signBatch(params);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(OrderBuildError);
    expect((caught as OrderBuildError).param).toBe('[29].price');
    // the pool keeps working after a refusal
    expect(await pool.signBatch(makeParams(3))).toHaveLength(3);
  });

  it('refuses work once closed', async () => {
    const p = await createSignerPool({ account, signer: { profile: 'polymarket' }, size: 1 });
    expect(p.size).toBe(1);
    await p.close();
    await expect(p.signBatch(makeParams(1))).rejects.toBeInstanceOf(ClobotError);
  });

  it('works from a fresh node process, with the same signatures as in-thread', async () => {
    const { stdout } = await run(
      process.execPath,
      ['bin/run-ts.mjs', 'test/venue/signing/fixtures/pool-child.ts', account.signerAddress],
      { cwd: ROOT, timeout: 60_000 },
    );
    const out = JSON.parse(stdout) as { pooled: SignedOrder[]; inThread: SignedOrder[] };
    expect(out.pooled).toHaveLength(40);
    expect(out.pooled).toEqual(out.inThread);
    // and they are the signatures this process makes too
    const local = createOrderSigner(account, { profile: 'interface' });
    const first = out.pooled[0]!;
    expect(first.order.signer).toBe(account.signerAddress);
    expect(
      local.sign({
        tokenId: '1000',
        conditionId: '0x' + 'ab'.repeat(32),
        price: 10_000,
        size: 5_000_000,
        side: 'BUY',
        tick: 10_000,
        negRisk: true,
        orderType: 'GTC',
        clientOrderId: 'child-0',
        salt: 1000,
        timestamp: 1_700_000_000_000,
      }),
    ).toEqual(first);
  });
});
