import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.ts';
import { decodeWsMarketText, type WsMarketMessage } from '../../src/data/ws-messages.ts';

const VENUE = '/work/shared/fixtures/venue';
const NAUTILUS = '/work/shared/fixtures/nautilus-polymarket';
const TS = 1_800_000_000_000;

/** Every server -> client message of the market channel among the fixtures. */
const FIXTURES = [
  ...readdirSync(VENUE)
    .filter((f) => f.startsWith('ws_market_') && f !== 'ws_market_subscribe.json')
    .map((f) => join(VENUE, f)),
  ...readdirSync(NAUTILUS)
    .filter((f) => f.startsWith('ws_messages_'))
    .map((f) => join(NAUTILUS, f)),
];

const KIND: Record<string, WsMarketMessage['kind']> = {
  book: 'book',
  price_change: 'priceChange',
  last_trade_price: 'lastTrade',
  tick_size_change: 'tickSize',
  best_bid_ask: 'bestBidAsk',
  new_market: 'newMarket',
  market_resolved: 'marketResolved',
};

function one(file: string): WsMarketMessage {
  const messages = decodeWsMarketText(readFileSync(file, 'utf8'), TS);
  expect(messages).toHaveLength(1);
  return messages[0] as WsMarketMessage;
}

function isSorted(levels: readonly { price: number }[], descending: boolean): boolean {
  return levels.every((l, i) => i === 0 || (descending ? levels[i - 1]!.price > l.price : levels[i - 1]!.price < l.price));
}

describe('ws market message decoders', () => {
  it('decode every fixture message of the market channel to its kind', () => {
    expect(FIXTURES.length).toBeGreaterThanOrEqual(13);
    for (const file of FIXTURES) {
      const raw = JSON.parse(readFileSync(file, 'utf8')) as { event_type: string };
      expect(one(file).kind, file).toBe(KIND[raw.event_type]);
    }
  });

  it('decode book snapshots exactly, levels in book order', () => {
    const m = one(join(VENUE, 'ws_market_book.json'));
    if (m.kind !== 'book') throw new Error(m.kind);
    const b = m.book;
    expect(b.tokenId).toBe('350977769852917329387037893294763093471844346281449484439085576212613048126');
    expect(b.conditionId).toBe('0x6bd56627aa21311850825edb27e53434a0e17a4f782be0086bc07f71eee00d0d');
    expect([b.tsEvent, b.tsInit, b.hash]).toEqual([1786604072222, TS, 'ed47eb91f3c7985fac1cb18cb7c19535eddd3c0a']);
    expect([b.tickSize, b.lastTradePrice]).toEqual([10_000, 920_000]);
    expect(b.bids).toHaveLength(7);
    expect(b.asks).toHaveLength(57);
    expect(b.bids[0]).toEqual({ price: 70_000, size: 182_528_550_000 });
    expect(b.asks[0]).toEqual({ price: 80_000, size: 228_198_280_000 });
    expect(isSorted(b.bids, true) && isSorted(b.asks, false)).toBe(true);

    for (const file of [join(VENUE, 'ws_market_book_2024.json'), join(NAUTILUS, 'ws_messages_book.json')]) {
      const old = one(file);
      if (old.kind !== 'book') throw new Error(old.kind);
      expect(old.book.tickSize).toBeUndefined();
      expect(old.book.bids).toHaveLength(76);
      expect(old.book.asks).toHaveLength(86);
      expect(old.book.bids[0]).toEqual({ price: 511_000, size: 1_304_720_000 });
      expect(old.book.asks[0]).toEqual({ price: 514_000, size: 20_230_870_000 });
      expect(isSorted(old.book.bids, true) && isSorted(old.book.asks, false)).toBe(true);
    }
  });

  it('decode both price_change forms', () => {
    const v2 = one(join(VENUE, 'ws_market_price_change.json'));
    if (v2.kind !== 'priceChange') throw new Error(v2.kind);
    expect(v2.tsEvent).toBe(1729084877448);
    expect(v2.changes).toHaveLength(3);
    expect(v2.changes[0]).toEqual({
      tokenId: '52114319501245915516055106046884209969926127482827954674443846427813813222426',
      side: 'BUY',
      price: 600_000,
      size: 3_300_000_000,
      hash: 'bf32b3746fff40c76c98021b7f3f07261169dd26',
      bestBid: 600_000,
      bestAsk: 700_000,
    });
    const legacy = one(join(NAUTILUS, 'ws_messages_price_change.json'));
    if (legacy.kind !== 'priceChange') throw new Error(legacy.kind);
    expect(legacy.changes).toEqual([
      {
        tokenId: '48331043336612883890938759509493159234755048973500640148014422747788308965732',
        side: 'SELL',
        price: 514_000,
        size: 21_574_080_000,
        hash: 'bf32b3746fff40c76c98021b7f3f07261169dd26',
        bestBid: undefined,
        bestAsk: undefined,
      },
    ]);
  });

  it('decode trades, tick changes and the custom-feature messages', () => {
    expect(one(join(VENUE, 'ws_market_last_trade_price.json'))).toEqual({
      kind: 'lastTrade',
      tokenId: '21742633143463906290569050155826241533067272736897614950488156847949938836455',
      conditionId: '0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917',
      price: 491_000,
      size: 85_360_000,
      side: 'SELL',
      feeRateBps: 0,
      tsEvent: 1724564136087,
    });
    expect(one(join(VENUE, 'ws_market_tick_size_change.json'))).toMatchObject({ kind: 'tickSize', oldTickSize: 10_000, newTickSize: 1_000, tsEvent: 1739068041853 });
    expect(one(join(VENUE, 'ws_market_best_bid_ask.json'))).toMatchObject({ kind: 'bestBidAsk', bestBid: 730_000, bestAsk: 770_000 });
    const created = one(join(VENUE, 'ws_market_new_market.json'));
    expect(created).toMatchObject({ kind: 'newMarket', conditionId: '0x311d0c4b6671ab54af4970c06fcf58662516f5168997bdda209ec3db5aa6b0c1' });
    expect(created.kind === 'newMarket' && created.tokenIds).toHaveLength(2);
    expect(one(join(VENUE, 'ws_market_resolved.json'))).toMatchObject({
      kind: 'marketResolved',
      winningTokenId: '76043073756653678226373981964075571318267289248134717369284518995922789326425',
    });
  });

  it('read frames holding an array of messages, and PONG as no message', () => {
    const book = readFileSync(join(VENUE, 'ws_market_book.json'), 'utf8');
    const trade = readFileSync(join(VENUE, 'ws_market_last_trade_price.json'), 'utf8');
    expect(decodeWsMarketText(`[${book},${trade}]`, TS).map((m) => m.kind)).toEqual(['book', 'lastTrade']);
    expect(decodeWsMarketText('PONG', TS)).toEqual([]);
    expect(decodeWsMarketText('{"event_type":"something_new","x":1}', TS)).toEqual([{ kind: 'other', eventType: 'something_new' }]);
  });

  it('name the bad field in a DecodeError', () => {
    const pc = JSON.parse(readFileSync(join(VENUE, 'ws_market_price_change.json'), 'utf8'));
    pc.price_changes[1].price = '0.5x';
    expect(() => decodeWsMarketText(JSON.stringify(pc), TS)).toThrow(DecodeError);
    expect(() => decodeWsMarketText(JSON.stringify(pc), TS)).toThrow(/^message\.price_changes\[1\]\.price: expected/);
    const book = JSON.parse(readFileSync(join(VENUE, 'ws_market_book.json'), 'utf8'));
    book.asks[3].size = 12;
    expect(() => decodeWsMarketText(JSON.stringify([{ event_type: 'tick_size_change' }, book]), TS)).toThrow(/^message\[0\]\.asset_id/);
    expect(() => decodeWsMarketText(JSON.stringify([book]), TS)).toThrow(/^message\[0\]\.asks\[3\]\.size/);
    expect(() => decodeWsMarketText('{"market":"0x1"}', TS)).toThrow(/^message\.event_type/);
    expect(() => decodeWsMarketText('INVALID OPERATION', TS)).toThrow(DecodeError);
    const trade = JSON.parse(readFileSync(join(VENUE, 'ws_market_last_trade_price.json'), 'utf8'));
    trade.side = 'sell';
    expect(() => decodeWsMarketText(JSON.stringify(trade), TS)).toThrow(/^message\.side/);
    trade.side = 'SELL';
    trade.timestamp = '17245.64';
    expect(() => decodeWsMarketText(JSON.stringify(trade), TS)).toThrow(/^message\.timestamp/);
  });
});
