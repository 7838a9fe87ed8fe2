import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Secret } from '../src/core/secret.ts';
import type { OrderParams } from '../src/venue/signing/order-builder.ts';
import { DEFAULT_EXCHANGE_ADDRESSES } from '../src/venue/signing/eip712.ts';
import { createOrderSigner, type SigningAccount } from '../src/venue/signing/order-signer.ts';
import { recoverOrderSigner } from '../src/venue/signing/recover.ts';
import { createSignerPool } from '../src/venue/signing/signer-pool.ts';
import { printTable, type BenchTable } from './table.ts';

/**
 * Orders built and signed per second: our signer on one thread, our worker pool on every core,
 * and the venue's official TypeScript SDK (@polymarket/clob-client-v2 OrderBuilder with a viem
 * local account, in-process, no network) on the same orders in the same run.
 */

const KEY = '0x' + '11'.repeat(32);
const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const TOKEN_ID = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const CONDITION_ID = '0x' + 'c1'.repeat(32);
const TICK = 10_000; // 0.01
const ORDERS = 4_000;
const TARGET_MS = 2_500;

function makeParams(n: number): OrderParams[] {
  return Array.from({ length: n }, (_, i) => ({
    tokenId: TOKEN_ID,
    conditionId: CONDITION_ID,
    price: TICK * (1 + (i % 98)),
    size: 5_000_000 + (i % 1000) * 10_000,
    side: i % 2 === 0 ? 'BUY' : 'SELL',
    tick: TICK,
    negRisk: i % 7 === 0,
    orderType: 'GTC',
    clientOrderId: `bench-${i}`,
    salt: 1_000_000 + i,
    timestamp: 1_700_000_000_000 + i,
  }));
}

/** Runs `round` (which signs `perRound` orders) until TARGET_MS has passed; returns orders/s. */
async function rate(perRound: number, round: () => unknown): Promise<number> {
  await round(); // warm-up
  let done = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < TARGET_MS) {
    await round();
    done += perRound;
    elapsed = performance.now() - start;
  }
  return (done * 1000) / elapsed;
}

async function sdkRate(params: OrderParams[]): Promise<{ rate: number } | { error: string }> {
  try {
    const sdk = await import('@polymarket/clob-client-v2');
    const { createWalletClient, http } = await import('viem');
    const { privateKeyToAccount } = await import('viem/accounts');
    const { polygon } = await import('viem/chains');
    // A local account signs in-process; the transport is never used for signTypedData.
    const wallet = createWalletClient({ account: privateKeyToAccount(KEY as `0x${string}`), chain: polygon, transport: http('http://127.0.0.1:9') });
    const builder = new sdk.OrderBuilder(wallet, sdk.Chain.POLYGON, sdk.SignatureTypeV2.EOA);
    const orders = params.map((p) => ({
      tokenID: p.tokenId,
      price: p.price / 1e6,
      size: p.size / 1e6,
      side: p.side === 'BUY' ? sdk.Side.BUY : sdk.Side.SELL,
    }));
    const n = 1_000;
    const r = await rate(n, async () => {
      for (let i = 0; i < n; i++) {
        const o = orders[i % orders.length] as (typeof orders)[number];
        const signed = await builder.buildOrder(o, { tickSize: '0.01', negRisk: i % 7 === 0 }, 2);
        sdk.orderToJsonV2(signed as Parameters<typeof sdk.orderToJsonV2>[0], 'owner', sdk.OrderType.GTC);
      }
    });
    return { rate: r };
  } catch (err) {
    return { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
  }
}

export async function run(): Promise<BenchTable> {
  const params = makeParams(ORDERS);
  const account: SigningAccount = { privateKey: new Secret(KEY), signerAddress: ADDRESS, signatureType: 0 };
  const signer = createOrderSigner(account, { profile: 'interface' });

  const single = await rate(ORDERS, () => {
    for (const p of params) signer.sign(p);
  });

  const cores = availableParallelism();
  const pool = await createSignerPool({ account, signer: { profile: 'interface' }, size: cores });
  let pooledLarge: number;
  let pooled15: number;
  try {
    pooledLarge = await rate(ORDERS, () => pool.signBatch(params));
    // Venue-sized batches of 15, several in flight, as a busy batcher would send them.
    const batches: OrderParams[][] = [];
    for (let i = 0; i < ORDERS; i += 15) batches.push(params.slice(i, i + 15));
    pooled15 = await rate(ORDERS, () => Promise.all(batches.map((b) => pool.signBatch(b))));
  } finally {
    await pool.close();
  }

  // The verifying side (the sandbox): hash a wire order and recover its signer.
  const toVerify = params.slice(0, 1_000).map((p) => ({
    order: signer.sign(p).order,
    contract: p.negRisk ? DEFAULT_EXCHANGE_ADDRESSES.negRisk : DEFAULT_EXCHANGE_ADDRESSES.standard,
  }));
  const recoverRate = await rate(toVerify.length, () => {
    for (const v of toVerify) {
      if (recoverOrderSigner(v.order, v.contract).recovered !== ADDRESS) throw new Error('recovery mismatch');
    }
  });

  const sdk = await sdkRate(params);
  const rows: (string | number)[][] = [
    ['clobot signer, 1 thread', Math.round(single), ratio(single, sdk)],
    [`clobot signer pool, ${cores} workers, batches of ${ORDERS}`, Math.round(pooledLarge), ratio(pooledLarge, sdk)],
    [`clobot signer pool, ${cores} workers, batches of 15`, Math.round(pooled15), ratio(pooled15, sdk)],
  ];
  rows.push(['recoverOrderSigner (sandbox check), 1 thread', Math.round(recoverRate), '-']);
  const notes = [
    'each order: amounts from exact micros, EIP-712 struct hash and digest (the order id), secp256k1 RFC 6979 signature, order JSON',
    'signing is libsecp256k1 (WebAssembly, tiny-secp256k1); hashing is @noble/hashes keccak_256',
  ];
  if ('rate' in sdk) {
    rows.push(['@polymarket/clob-client-v2 1.1.0 OrderBuilder + viem account, 1 thread', Math.round(sdk.rate), '1.00x']);
    notes.push('SDK: OrderBuilder.buildOrder(order, {tickSize, negRisk}, 2) + orderToJsonV2, awaited one by one, no network');
  } else {
    notes.push(`SDK not measured: ${sdk.error}`);
  }
  return { title: 'Order build + sign rate', columns: ['signer', 'orders/s', 'vs SDK'], rows, notes };
}

function ratio(ours: number, sdk: { rate: number } | { error: string }): string {
  return 'rate' in sdk ? `${(ours / sdk.rate).toFixed(2)}x` : 'n/a';
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printTable(await run());
}
