import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MarketEvent } from '../../../src/core/events.ts';
import type { RecordedMarket, RecordingHeader } from '../../../src/data/recording/format.ts';
import { decodeWsMarketMessage } from '../../../src/data/ws-messages.ts';
import { decodeOrderBook, decodeOrderBooks, decodeTokenPrices } from '../../../src/venue/decode.ts';

const FIXTURES = '/work/shared/fixtures/venue';

export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, name), 'utf8'));
}

/** A temporary folder, removed by `done()`. */
export function tempDir(): { dir: string; path(name: string): string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-rec-'));
  return { dir, path: (name) => join(dir, name), done: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * One event of every kind, from the venue's real payloads where there is one (books with
 * levels out of order, 2024 shape, prices, a trade print, a tick change), plus edge cases the
 * fixtures lack (empty sides, no optional fields, neg-risk, a hash that is not hex, a non-ASCII
 * hash), the market lifecycle, and a market that joins later with events of its tokens, in
 * tsInit order. The header lists every token seen before the joining market, not its tokens.
 */
export function fixtureEvents(): { header: RecordingHeader; events: MarketEvent[] } {
  let t = 1_785_000_000_000;
  const next = () => (t += 7);
  const events: MarketEvent[] = [];
  const book = (b: ReturnType<typeof decodeOrderBook>) => events.push({ type: 'book', book: b, tsEvent: b.tsEvent, tsInit: b.tsInit });

  book(decodeOrderBook(fixture('book.json'), next()));
  book(decodeOrderBook(fixture('book_2024.json'), next()));
  for (const b of decodeOrderBooks(fixture('books.json'), next())) book(b);
  const pricesAt = next();
  events.push({ type: 'prices', prices: decodeTokenPrices(fixture('prices.json'), pricesAt), tsEvent: pricesAt, tsInit: pricesAt });
  const trade = decodeWsMarketMessage(fixture('ws_market_last_trade_price.json'), next());
  if (trade.kind !== 'lastTrade') throw new Error('fixture is not a last trade');
  events.push({ type: 'trade', tokenId: trade.tokenId, price: trade.price, size: trade.size, side: trade.side, tsEvent: trade.tsEvent, tsInit: t });
  const tick = decodeWsMarketMessage(fixture('ws_market_tick_size_change.json'), next());
  if (tick.kind !== 'tickSize') throw new Error('fixture is not a tick change');
  events.push({ type: 'tickSize', tokenId: tick.tokenId, tickSize: tick.newTickSize, tsEvent: tick.tsEvent, tsInit: t });

  const edge = (tokenId: string, patch: Partial<ReturnType<typeof decodeOrderBook>>) => {
    const at = next();
    book({
      tokenId,
      conditionId: '0xedge',
      tsEvent: at - 3,
      tsInit: at,
      hash: 'abc123',
      bids: [],
      asks: [],
      tickSize: undefined,
      minOrderSize: undefined,
      negRisk: undefined,
      lastTradePrice: undefined,
      ...patch,
    });
  };
  edge('1001', {}); // empty book, no optional field
  edge('1001', { bids: [{ price: 10_000, size: 1 }], negRisk: true, tickSize: 1_000, hash: 'not hex: Ünïcode ✓' });
  edge('1002', { asks: [{ price: 999_000, size: 123_456_789_012 }], negRisk: false, hash: '', lastTradePrice: 0 });
  edge('1002', { asks: [{ price: 999_000, size: 123_456_789_012 }], negRisk: false, hash: '', lastTradePrice: 0 }); // same hash again
  const p2 = next();
  events.push({
    type: 'prices',
    prices: [
      { tokenId: '1001', buy: 1, sell: undefined, tsInit: p2 },
      { tokenId: '1002', buy: undefined, sell: undefined, tsInit: p2 },
    ],
    tsEvent: p2 - 1,
    tsInit: p2,
  });
  const p3 = next();
  events.push({ type: 'trade', tokenId: '1001', price: 500_000, size: 5_000_000, side: 'BUY', tsEvent: p3, tsInit: p3 });
  // followed wallets' trades (version 3): two fills of one transaction, one in a market outside the header
  const w1 = next();
  const leader = '0x00000000000000000000000000000000000000a1';
  events.push({ type: 'walletTrade', trade: { wallet: leader, txHash: '0xfeed01', tokenId: '1001', conditionId: '0xedge', side: 'BUY', price: 510_000, size: 12_000_000, ts: w1 - 900 }, tsEvent: w1 - 900, tsInit: w1 });
  events.push({ type: 'walletTrade', trade: { wallet: leader, txHash: '0xfeed01', tokenId: '1001', conditionId: '0xedge', side: 'BUY', price: 520_000, size: 1, ts: w1 - 900 }, tsEvent: w1 - 900, tsInit: w1 });
  const w2 = next();
  events.push({ type: 'walletTrade', trade: { wallet: leader, txHash: '0xfeed02', tokenId: '9999', conditionId: '0xelsewhere', side: 'SELL', price: 1_000_000, size: 0, ts: w2 }, tsEvent: w2, tsInit: w2 });
  // the market lifecycle (version 2): a close, a resolution with a winner and one without
  const c1 = next();
  events.push({ type: 'marketClosed', conditionId: '0xedge', tokenIds: ['1001', '1002'], tsEvent: c1 - 2, tsInit: c1 });
  const c2 = next();
  events.push({ type: 'marketResolved', conditionId: '0xedge', tokenIds: ['1001', '1002'], winnerTokenId: '1002', tsEvent: c2, tsInit: c2 });
  const c3 = next();
  events.push({ type: 'marketResolved', conditionId: '0xedge', tokenIds: ['1001', '1002'], winnerTokenId: undefined, tsEvent: c3, tsInit: c3 });
  // the venue's own events (version 3): a fee change and a game start's clear
  const f1 = next();
  events.push({ type: 'feeRate', tokenId: '1001', takerBps: 150, makerBps: 0, tsEvent: f1 - 1, tsInit: f1 });
  const f2 = next();
  events.push({ type: 'marketCleared', conditionId: '0xedge', tokenIds: ['1001', '1002'], tsEvent: f2 - 1000, tsInit: f2 });
  // a market that joins after the start (version 2), then events of its tokens
  const late: RecordedMarket = {
    conditionId: '0xlate',
    question: 'Joined later? «ünïcode»',
    slug: 'joined-later',
    negRisk: true,
    negRiskMarketId: '0xnrlate',
    tickSize: '0.001',
    minOrderSize: '2.5',
    makerBaseFeeBps: 0,
    takerBaseFeeBps: 20,
    secondsDelay: 3,
    gameStartTime: 1_785_000_100_000,
    endDate: 1_785_086_400_000,
    tokens: [
      { tokenId: '3001', outcome: 'Yes' },
      { tokenId: '3002', outcome: 'No' },
    ],
    rewards: { dailyRate: 25, minSize: '50', maxSpreadCents: 3.5 },
  };
  const a1 = next();
  events.push({ type: 'marketAdded', market: late, tsEvent: a1 - 4, tsInit: a1 });
  edge('3001', { conditionId: '0xlate', bids: [{ price: 412_000, size: 10_000_000 }], asks: [{ price: 415_000, size: 3_000_000 }], hash: 'ab12' });
  const a2 = next();
  events.push({ type: 'prices', prices: [{ tokenId: '3002', buy: 585_000, sell: 588_000, tsInit: a2 }, { tokenId: '1001', buy: 1, sell: undefined, tsInit: a2 }], tsEvent: a2, tsInit: a2 });
  const a3 = next();
  events.push({ type: 'trade', tokenId: '3002', price: 588_000, size: 2_500_000, side: 'SELL', tsEvent: a3, tsInit: a3 });
  const a4 = next();
  events.push({ type: 'tickSize', tokenId: '3001', tickSize: 10_000, tsEvent: a4, tsInit: a4 });
  const a5 = next();
  events.push({ type: 'marketResolved', conditionId: '0xlate', tokenIds: ['3001', '3002'], winnerTokenId: '3001', tsEvent: a5, tsInit: a5 });

  const tokens = new Map<string, string>(); // token -> condition
  const note = (tokenId: string, conditionId: string) => {
    if (!tokens.has(tokenId)) tokens.set(tokenId, conditionId);
  };
  const joined = new Set(late.tokens.map((t) => t.tokenId));
  for (const e of events) {
    if (e.type === 'marketAdded') break; // the tokens after it are the joined market's (and the header's, seen before)
    if (e.type === 'walletTrade') continue; // a followed wallet may trade outside the header's markets
    if (e.type === 'book') note(e.book.tokenId, e.book.conditionId);
    else if (e.type === 'prices') for (const p of e.prices) note(p.tokenId, '0xother');
    else if (e.type === 'marketClosed' || e.type === 'marketResolved' || e.type === 'marketCleared') for (const id of e.tokenIds) note(id, e.conditionId);
    else note(e.tokenId, '0xother');
  }
  for (const id of joined) if (tokens.has(id)) throw new Error(`fixture: joined token ${id} is in the header`);
  const byCondition = new Map<string, string[]>();
  for (const [token, condition] of tokens) byCondition.set(condition, [...(byCondition.get(condition) ?? []), token]);
  const markets: RecordedMarket[] = [...byCondition].map(([conditionId, ids], i) => ({
    conditionId,
    question: `Question ${i}?`,
    slug: `market-${i}`,
    negRisk: i === 1,
    ...(i === 1 ? { negRiskMarketId: '0xnr' } : {}),
    tickSize: '0.01',
    minOrderSize: '5',
    makerBaseFeeBps: 0,
    takerBaseFeeBps: 10,
    tokens: ids.map((tokenId, k) => ({ tokenId, outcome: k === 0 ? 'Yes' : 'No' })),
    // a market paying liquidity rewards (docs/rewards.md): they round-trip in both forms
    ...(i === 0 ? { rewards: { dailyRate: 750, minSize: '200', maxSpreadCents: 1.5 } } : {}),
  }));
  const header: RecordingHeader = { format: 'clobot-recording', version: 1, createdAt: 1_785_000_000_000, source: 'test:fixtures', markets };
  return { header, events };
}

/** A header for hand-written lines: one market with tokens `11` and `22`. */
export const SMALL_HEADER: RecordingHeader = {
  format: 'clobot-recording',
  version: 1,
  createdAt: 1,
  source: 'test',
  markets: [
    {
      conditionId: '0xc1',
      question: 'Q?',
      slug: 'q',
      negRisk: false,
      tickSize: '0.01',
      minOrderSize: '5',
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 0,
      tokens: [
        { tokenId: '11', outcome: 'Yes' },
        { tokenId: '22', outcome: 'No' },
      ],
    },
  ],
};
