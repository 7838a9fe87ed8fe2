// Profiling aid (not a benchmark): the in-process tick-to-trade path for 15 orders with a local fetch
// stand-in (no network, no sandbox). Run: node --cpu-prof bin/run-ts.mjs bench/children/tick-to-trade-profile.ts
import { Subject } from 'rxjs';
import { LiveClock } from '../../src/core/clock.ts';
import { Secret } from '../../src/core/secret.ts';
import type { MarketEvent } from '../../src/data/market-events.ts';
import { TradingEngine, type EngineLogger } from '../../src/engine/trading-engine.ts';
import { LiveExecutionClient } from '../../src/execution/live-execution-client.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { apiCredentials } from '../../src/venue/auth/api-credentials.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import { decodeOrderBooksText } from '../../src/venue/decode.ts';
import { privateKeyToAddress } from '../../src/venue/signing/address.ts';
import { createOrderSigner } from '../../src/venue/signing/order-signer.ts';

const KEY = '0x' + '42'.repeat(32);
const silent: EngineLogger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };
const clock = new LiveClock();
let t0 = 0;
const samples: number[] = [];
globalThis.fetch = (async (_input: unknown, init?: RequestInit) => {
  if (t0 > 0) { samples.push(performance.now() - t0); t0 = 0; }
  const n = (JSON.parse(String(init?.body)) as unknown[]).length;
  return new Response(JSON.stringify(Array.from({ length: n }, () => ({ success: false, errorMsg: 'no orders found to match with FAK order', orderID: '', status: '' }))), { status: 200, headers: { 'content-type': 'application/json' } });
}) as typeof fetch;
const venue = createVenueClient({ baseUrl: 'http://127.0.0.1:9', clock, limits: { enabled: false } });
const address = privateKeyToAddress(Buffer.from(KEY.slice(2), 'hex'));
const signer = createOrderSigner({ privateKey: new Secret(KEY), signerAddress: address, signatureType: 0 }, { profile: 'interface' });
const token = { tokenId: '123456789', conditionId: '0x' + 'ab'.repeat(32), outcome: 'Yes', outcomeIndex: 0 as const, complementTokenId: undefined, question: 'q', negRiskMarketId: undefined, rules: { conditionId: '0x' + 'ab'.repeat(32), tickSize: 10_000, minOrderSize: 5_000_000, negRisk: false, makerBaseFeeBps: 0, takerBaseFeeBps: 0, acceptingOrders: true } };
const execution = new LiveExecutionClient({ venue, credentials: apiCredentials('00000000-0000-0000-0000-000000000001', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', 'aa'.repeat(32)), signer, markets: () => ({ conditionId: token.conditionId, tickSize: 10_000, negRisk: false }) });
const events = new Subject<MarketEvent>();
const engine = new TradingEngine({
  clock, execution, marketEvents$: events, tokens: [token],
  strategies: [{ id: 'b', params: {}, tokenIds: [token.tokenId], definition: defineStrategy({ name: 'b', onBook: ({ market }) => Array.from({ length: 15 }, () => ({ kind: 'place' as const, tokenId: market.tokenId, side: 'BUY' as const, price: 10_000, size: 5_000_000, orderType: 'FAK' as const })) }) }],
  risk: { checks: ['tickGrid', 'priceBounds', 'minSize'], limits: {} },
  settings: { maxBatchWaitMs: 0, maxBatchSize: 15, quoteTolerance: { priceTicks: 0, sizeShare: 0 }, reconcileDelayMs: 1000, syncIntervalMs: 0, maxInFlightBatches: 4 },
  startingBalance: 0, runId: 'prof0001', log: silent,
});
engine.start();
const bookText = JSON.stringify([{ market: token.conditionId, asset_id: token.tokenId, timestamp: '1', hash: 'h', bids: Array.from({ length: 20 }, (_, i) => ({ price: (0.4 - i * 0.01).toFixed(2), size: '100' })), asks: Array.from({ length: 20 }, (_, i) => ({ price: (0.5 + i * 0.01).toFixed(2), size: '100' })), min_order_size: '5', tick_size: '0.01', neg_risk: false, last_trade_price: '' }]);
for (let i = 0; i < 600; i++) {
  const text = bookText.replace('"hash":"h"', `"hash":"h${i}"`);
  t0 = performance.now();
  const [book] = decodeOrderBooksText(text, clock.now());
  engine.onMarketEvent({ type: 'book', book: book!, tsEvent: book!.tsEvent, tsInit: book!.tsInit });
  await new Promise((r) => setTimeout(r, 5));
}
const s = samples.slice(50).sort((a, b) => a - b);
console.log('n', s.length, 'p50', s[Math.floor(s.length / 2)]!.toFixed(3), 'p99', s[Math.floor(s.length * 0.99)]!.toFixed(3));
process.exit(0);
