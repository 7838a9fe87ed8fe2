import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { LiveClock } from '../src/core/clock.ts';
import { Secret } from '../src/core/secret.ts';
import { LiveExecutionClient } from '../src/execution/live-execution-client.ts';
import { fillsOfTrade } from '../src/execution/live/trade-fills.ts';
import type { OrderRequest } from '../src/core/intents.ts';
import { apiCredentials } from '../src/venue/auth/api-credentials.ts';
import { createVenueClient } from '../src/venue/client.ts';
import type { AccountTrade } from '../src/venue/domain/account.ts';
import { createOrderSigner } from '../src/venue/signing/order-signer.ts';
import type { BenchTable } from './table.ts';

/**
 * The live order path over loopback: prepare (EIP-712 hash + secp256k1 signature per order) and
 * submit (L2 headers over the serialised batch, one HTTP round trip to a server that answers
 * every item accepted), in batches of 15; and mapping account trades to our fills.
 */
const KEY = '0x1111111111111111111111111111111111111111111111111111111111111111';
const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';
const CONDITION = '0x' + 'ab'.repeat(32);

export async function run(): Promise<BenchTable> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const items = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown[];
      const body = JSON.stringify(items.map((_, i) => ({ success: true, orderID: `0x${i}`, status: 'live', makingAmount: '', takingAmount: '', errorMsg: '' })));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const creds = apiCredentials('f4f247b7-4ac7-ff29-a152-04fda0a8755a', 'CzBVep_E6Q4zWH2ix-wRNluApcrvFDleg6jN8hc8YYY=', '0'.repeat(64));
  const live = new LiveExecutionClient({
    venue: createVenueClient({ baseUrl: url, clock: new LiveClock(), limits: { enabled: false } }),
    credentials: creds,
    signer: createOrderSigner({ privateKey: new Secret(KEY), signerAddress: ADDRESS, signatureType: 0 }, { profile: 'interface' }),
    markets: () => ({ conditionId: CONDITION, tickSize: 10_000, negRisk: false }),
  });
  let seq = 0;
  const batch = (): OrderRequest[] =>
    Array.from({ length: 15 }, (_, i) => ({
      kind: 'place',
      strategyId: 'b',
      clientOrderId: `b-${seq++}`,
      tokenId: TOKEN,
      conditionId: CONDITION,
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      price: 10_000 * (10 + (i % 80)),
      size: 10_000_000,
      createdAt: 0,
    }));

  const rows: (string | number)[][] = [];
  try {
    // warm-up
    for (let i = 0; i < 5; i++) await lastValueFrom(live.submit(await firstValueFrom(live.prepare(batch()))));
    const batches = 200;
    let prepareMs = 0;
    let submitMs = 0;
    for (let i = 0; i < batches; i++) {
      const reqs = batch();
      const t0 = performance.now();
      const prepared = await firstValueFrom(live.prepare(reqs));
      const t1 = performance.now();
      await lastValueFrom(live.submit(prepared));
      const t2 = performance.now();
      prepareMs += t1 - t0;
      submitMs += t2 - t1;
    }
    rows.push(['prepare 15 orders (build + hash + sign)', batches, prepareMs / batches, (batches * 15 * 1000) / prepareMs]);
    rows.push(['submit 15 orders (L2 + POST /orders, loopback)', batches, submitMs / batches, (batches * 15 * 1000) / submitMs]);
  } finally {
    live.close();
    await new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }

  const trades: AccountTrade[] = Array.from({ length: 20_000 }, (_, i) => ({
    id: `t${i}`,
    takerOrderId: i % 2 === 0 ? '0xours' : '0xtheirs',
    market: CONDITION,
    assetId: TOKEN,
    side: 'BUY',
    size: 5_000_000,
    feeRateBps: 100,
    price: 480_000,
    status: 'MATCHED',
    matchTime: 1_767_225_600_000 + i,
    lastUpdate: undefined,
    outcome: 'Yes',
    bucketIndex: 0,
    owner: i % 2 === 0 ? 'me' : 'them',
    makerAddress: ADDRESS,
    transactionHash: undefined,
    traderSide: 'TAKER',
    makerOrders: [
      { orderId: '0xm1', makerAddress: ADDRESS, owner: 'me', matchedAmount: 2_000_000, feeRateBps: 0, price: 480_000, assetId: TOKEN, outcome: 'Yes', side: 'SELL' },
      { orderId: '0xm2', makerAddress: ADDRESS, owner: 'them', matchedAmount: 3_000_000, feeRateBps: 0, price: 480_000, assetId: TOKEN, outcome: 'Yes', side: 'SELL' },
    ],
  }));
  const owner = { apiKey: 'me', makerAddress: ADDRESS };
  let fills = 0;
  const t0 = performance.now();
  for (const trade of trades) fills += fillsOfTrade(trade, owner, 0).length;
  const mapMs = performance.now() - t0;
  rows.push([`map ${trades.length.toLocaleString('en-US')} account trades to our fills (${fills.toLocaleString('en-US')})`, 1, mapMs, (trades.length * 1000) / mapMs]);

  return {
    title: 'live execution edge (loopback, batches of 15)',
    columns: ['step', 'runs', 'ms per run', 'items/s'],
    rows,
    notes: ['rate budgets off; the loopback server answers every item accepted', 'signing is in-thread (no helper threads)'],
  };
}
