import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/core/errors.ts';
import {
  decodeAccountOrdersPage,
  decodeAccountTradesPage,
  decodeActivity,
  decodeClosedPositions,
  decodeEvents,
  decodeFeeRate,
  decodeHolderGroups,
  decodeMetadataMarket,
  decodeNegRisk,
  decodeOk,
  decodeOrderBook,
  decodeOrderBooks,
  decodeOrderBooksText,
  decodeTickSize,
  decodeTokenPrices,
  decodeTradeFills,
  decodeTradingMarket,
  decodeTradingMarketsPage,
  decodeServerTime,
  decodePricesHistory,
  decodeBatchPricesHistory,
  decodeComments,
  decodeAccountOrder,
  decodeAccountTrade,
  decodeOrderPostResult,
} from '../../src/venue/decode.ts';
import { TRADE_STATUSES, VENUE_ORDER_STATUSES } from '../../src/venue/domain/statuses.ts';

const VENUE = new URL('../../../shared/fixtures/venue/', import.meta.url);
const NAUTILUS = new URL('../../../shared/fixtures/nautilus-polymarket/', import.meta.url);
const text = (dir: URL, file: string): string => readFileSync(new URL(file, dir), 'utf8');
const json = (dir: URL, file: string): unknown => JSON.parse(text(dir, file));

function decodeError(fn: () => unknown): DecodeError {
  try {
    fn();
  } catch (err) {
    if (err instanceof DecodeError) return err;
    throw err;
  }
  throw new Error('expected a DecodeError');
}

describe('every fixture of a covered route decodes', () => {
  it('venue/book.json (GET /book, CLOB V2 capture)', () => {
    const book = decodeOrderBook(json(VENUE, 'book.json'), 7);
    expect(book.tokenId).toBe('72610532355343625199299853218161700546393390326785971247545541945337255643692');
    expect(book.conditionId).toBe('0x9d839bf0aa31324b9848f5b89841b779238a7c07dee2f7fca675d934e8ab5bf2');
    expect(book.tsEvent).toBe(1785734468581);
    expect(book.tsInit).toBe(7);
    expect(book.bids).toEqual([
      { price: 2_000, size: 6_990_000 },
      { price: 1_000, size: 667_120_000 },
    ]);
    expect(book.asks).toEqual([]);
    expect(book.tickSize).toBe(1_000);
    expect(book.minOrderSize).toBe(5_000_000);
    expect(book.negRisk).toBe(true);
    expect(book.lastTradePrice).toBeUndefined(); // "" = never traded
  });

  it('venue/book_2024.json and nautilus-polymarket/http_responses_book.json (older shape, levels worst-first)', () => {
    for (const [dir, file] of [
      [VENUE, 'book_2024.json'],
      [NAUTILUS, 'http_responses_book.json'],
    ] as const) {
      const book = decodeOrderBook(json(dir, file), 0);
      expect(book.bids.map((l) => l.price)).toEqual([100_000, 90_000, 80_000, 60_000, 10_000]);
      expect(book.asks.map((l) => l.price)).toEqual([140_000, 200_000, 380_000, 460_000, 470_000, 500_000, 980_000]);
      expect(book.asks[2]?.size).toBe(192_300_000);
      expect(book.tickSize).toBeUndefined();
      expect(book.negRisk).toBeUndefined();
    }
  });

  it('venue/books.json (POST /books, docs example) through both paths', () => {
    const t = text(VENUE, 'books.json');
    const fast = decodeOrderBooksText(t, 3);
    expect(fast).toEqual(decodeOrderBooks(JSON.parse(t), 3));
    expect(fast).toHaveLength(1);
    expect(fast[0]).toMatchObject({ tokenId: '0xabc123def456...', tickSize: 10_000, minOrderSize: 1_000_000, lastTradePrice: 450_000 });
    expect(fast[0]?.bids).toEqual([{ price: 450_000, size: 100_000_000 }]);
  });

  it('venue/prices.json (POST /prices, docs example with numbers)', () => {
    const prices = decodeTokenPrices(json(VENUE, 'prices.json'), 5);
    expect(prices).toEqual([
      { tokenId: '0xabc123def456...', buy: 450_000, sell: undefined, tsInit: 5 },
      { tokenId: '0xdef456abc123...', buy: undefined, sell: 520_000, tsInit: 5 },
    ]);
    // The venue's own form: decimal strings.
    expect(decodeTokenPrices({ t1: { BUY: '0.52', SELL: '0.48' } }, 1)[0]).toMatchObject({ buy: 520_000, sell: 480_000 });
  });

  it('venue/tick_size.json, neg_risk.json, fee_rate.json', () => {
    expect(decodeTickSize(json(VENUE, 'tick_size.json'))).toBe(10_000);
    expect(decodeNegRisk(json(VENUE, 'neg_risk.json'))).toBe(false);
    expect(decodeFeeRate(json(VENUE, 'fee_rate.json'))).toBe(30);
  });

  it('venue/clob_markets.json and nautilus-polymarket/http_responses_markets.json (GET /markets page, 100 markets)', () => {
    for (const [dir, file] of [
      [VENUE, 'clob_markets.json'],
      [NAUTILUS, 'http_responses_markets.json'],
    ] as const) {
      const page = decodeTradingMarketsPage(json(dir, file));
      expect(page.items).toHaveLength(100);
      expect(page.nextCursor).toBe('MTAw');
      expect(page.done).toBe(false);
      expect(page.limit).toBe(100);
      const odd = page.items.find((m) => m.minOrderSize === 14_970_000);
      expect(odd).toBeDefined(); // minimum_order_size 14.97 as exact Micros
      expect(page.items.every((m) => m.tickSize === 10_000 || m.tickSize === 1_000)).toBe(true);
      expect(page.items.some((m) => m.rewards === undefined)).toBe(true); // rates: null: pays no rewards
    }
  });

  it('venue/clob_market.json (GET /markets/{condition_id})', () => {
    const m = decodeTradingMarket(json(VENUE, 'clob_market.json'));
    expect(m.conditionId).toBe('0xdd22472e552920b8438158ea7238bfadfa4f736aa4cee91a6b86c39ead110917');
    expect(m.tickSize).toBe(1_000);
    expect(m.minOrderSize).toBe(5_000_000);
    expect(m.negRisk).toBe(true);
    expect(m.acceptingOrderTimestamp).toBeUndefined(); // null on the wire
    expect(m.endDate).toBe(Date.UTC(2024, 10, 5));
    expect(m.tokens.map((t) => t.price)).toEqual([486_500, 513_500]);
    expect(m.rewards?.rates[0]).toEqual({ assetAddress: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', rewardsDailyRate: 750 });
    // the scoring model's rules (core/rewards.ts): min_size 200 shares, max_spread 1.5 cents
    expect(m.rewards).toMatchObject({ dailyRate: 750, minSize: 200_000_000, maxSpreadCents: 1.5 });
  });

  it('venue/gamma_market.json (GET /markets/slug/{slug}, metadata form)', () => {
    const m = decodeMetadataMarket(json(VENUE, 'gamma_market.json'));
    expect(m.id).toBe('1557558');
    expect(m.outcomes).toEqual(['Up', 'Down']);
    expect(m.clobTokenIds).toHaveLength(2);
    expect(m.clobTokenIds[0]).toBe('104239898038807136052399800151408521467737075933964991162589336683346093173875');
    expect(m.startDate).toBe(Date.parse('2026-03-11T09:29:01.328Z'));
    expect(m.tickSize).toBe(10_000);
    expect(m.events?.[0]?.slug).toBe('btc-updown-5m-1773307200');
  });

  it('venue/gamma_events.json (GET /events)', () => {
    const events = decodeEvents(json(VENUE, 'gamma_events.json'));
    expect(events).toHaveLength(1);
    expect(events[0]?.markets).toHaveLength(2);
    expect(events[0]?.tags.length).toBeGreaterThan(0);
    expect(events[0]?.series).toEqual([]); // absent in this capture
    expect(events[0]?.markets[0]?.outcomes).toEqual(['Yes', 'No']);
  });

  it('venue/data_api_trades.json (GET /trades, camelCase) and data_api_trades_v2.json (snake_case envelope)', () => {
    const legacy = decodeTradeFills(json(VENUE, 'data_api_trades.json'));
    expect(legacy).toHaveLength(4);
    expect(legacy[0]).toMatchObject({ side: 'SELL', size: 5.4, price: 0.998, tsEvent: 1729000180_000 });
    const v2 = decodeTradeFills(json(VENUE, 'data_api_trades_v2.json'));
    expect(v2).toHaveLength(3);
    expect(v2[0]).toMatchObject({ proxyWallet: '0x1111111111111111111111111111111111111111', eventSlug: 'sanitized-event', outcomeIndex: 0 });
  });

  it('venue/data_api_activity.json (GET /activity)', () => {
    const activity = decodeActivity(json(VENUE, 'data_api_activity.json'));
    expect(activity).toHaveLength(2);
    expect(activity[0]).toMatchObject({ type: 'TRADE', side: 'BUY', usdcSize: 9.604, tsEvent: 1773601939_000 });
  });

  it('venue/data_api_holders.json (GET /holders)', () => {
    const groups = decodeHolderGroups(json(VENUE, 'data_api_holders.json'));
    expect(groups).toHaveLength(2);
    expect(groups[0]?.holders).toHaveLength(3);
    expect(groups[0]?.holders[0]?.amount).toBe(10265.02456);
  });

  it('venue/data_api_v2_positions_closed.json (GET /closed-positions, newer envelope)', () => {
    const positions = decodeClosedPositions(json(VENUE, 'data_api_v2_positions_closed.json'));
    expect(positions).toHaveLength(2);
    expect(positions[0]).toMatchObject({ avgPrice: 0.3748, realizedPnl: 281.1088, curPrice: 1, outcome: 'Yes', endDate: Date.UTC(2026, 7, 22) });
  });

  it('venue/data_orders.json and data_trades.json (account data, snake_case docs examples)', () => {
    const orders = decodeAccountOrdersPage(json(VENUE, 'data_orders.json'));
    expect(orders.items).toHaveLength(2);
    expect(orders.items[1]).toMatchObject({ status: 'LIVE', side: 'SELL', price: 750_000, associateTrades: ['trade-123'], orderType: 'GTC' });
    const trades = decodeAccountTradesPage(json(VENUE, 'data_trades.json'));
    expect(trades.items[0]).toMatchObject({ status: 'CONFIRMED', traderSide: 'TAKER', price: 500_000, feeRateBps: 30 });
    // The interface's camelCase spelling decodes to the same order.
    const camel = decodeAccountOrdersPage({
      data: [
        {
          id: '0x01',
          status: 'LIVE',
          market: '0xm',
          originalSize: '10',
          outcome: 'Yes',
          makerAddress: '0xa',
          owner: 'k',
          price: '0.5',
          side: 'BUY',
          sizeMatched: '2.5',
          assetId: '123',
          type: 'GTC',
          createdAt: '2026-01-02T03:04:05Z',
          associateTrades: null,
        },
      ],
      next_cursor: '',
    });
    expect(camel.done).toBe(true);
    expect(camel.items[0]).toMatchObject({ originalSize: 10_000_000, sizeMatched: 2_500_000, createdAt: Date.UTC(2026, 0, 2, 3, 4, 5) });
  });
});

describe('decode errors name the field', () => {
  const level = (price: string, size = '10'): string => `{"price":"${price}","size":"${size}"}`;
  const book = (bids: string[]): string =>
    `{"market":"0xm","asset_id":"1","timestamp":"1700000000000","hash":"h","bids":[${bids.join(',')}],"asks":[]}`;

  it('a bad price deep in POST /books: books[3].bids[7].price', () => {
    const good = book([level('0.5')]);
    const bids = Array.from({ length: 8 }, (_, i) => level(i === 7 ? 'NaN' : `0.${i + 1}`));
    const payload = `[${good},${good},${good},${book(bids)}]`;
    const err = decodeError(() => decodeOrderBooksText(payload, 0));
    expect(err.path).toBe('books[3].bids[7].price');
    expect(err.message).toContain('books[3].bids[7].price');
  });

  it('a number where a decimal string belongs, and too many decimals, are refused', () => {
    expect(decodeError(() => decodeOrderBooksText(`[${book(['{"price":0.5,"size":"1"}'])}]`, 0)).path).toBe('books[0].bids[0].price');
    expect(decodeError(() => decodeOrderBooksText(`[${book([level('0.5', '1.0000001')])}]`, 0)).path).toBe('books[0].bids[0].size');
    expect(decodeError(() => decodeOrderBooksText(`[${book([level('-0.5')])}]`, 0)).path).toBe('books[0].bids[0].price');
  });

  it('missing fields and wrong types name their path', () => {
    expect(decodeError(() => decodeOrderBook({ asset_id: '1', timestamp: '1', hash: 'h', bids: [], asks: [] }, 0)).path).toBe('book.market');
    expect(decodeError(() => decodeTradingMarketsPage({ data: [{}], next_cursor: 'LTE=' })).path).toBe('data[0].minimum_tick_size');
    expect(decodeError(() => decodeMetadataMarket({ id: '1', question: 'q', conditionId: '0x', slug: 's', outcomes: '[1]' })).path).toBe(
      'market.outcomes[0]',
    );
    expect(decodeError(() => decodeMetadataMarket({ id: '1', question: 'q', conditionId: '0x', slug: 's', createdAt: 'soon' })).path).toBe(
      'market.createdAt',
    );
    expect(decodeError(() => decodeTradeFills([{ proxyWallet: 'w', side: 'HOLD' }])).path).toBe('trades[0].side');
    expect(decodeError(() => decodeOrderBooksText('{"not":"an array"}', 0)).path).toBe('books');
    expect(decodeError(() => decodeOrderBooksText('<html>oops</html>', 0)).expected).toBe('JSON');
  });
});

describe('POST /books: the single-pass scanner agrees with the generic path', () => {
  it('on key order, whitespace, unknown keys, empty sides and sorting', () => {
    const payload = `[
      { "asks" : [ {"size":"3","price":"0.7"}, {"price":"0.6","size":"2", "extra": [1, {"a": null}]} ],
        "bids":[{"price":"0.3","size":"1"},{"price":"0.5","size":"4"},{"price":"0.4","size":"5"}],
        "hash":"abc", "new_field": {"x": [true, false, -1.5e3]}, "timestamp":"1700000000123",
        "asset_id":"42", "market":"0xmm", "neg_risk": false, "tick_size":"0.01", "last_trade_price":"0.55" },
      {"market":"0xm2","asset_id":"43","timestamp":"1","hash":"h2","bids":[],"asks":[]}
    ]`;
    const fast = decodeOrderBooksText(payload, 9);
    expect(fast).toEqual(decodeOrderBooks(JSON.parse(payload), 9));
    expect(fast[0]?.bids.map((l) => l.price)).toEqual([500_000, 400_000, 300_000]);
    expect(fast[0]?.asks.map((l) => l.price)).toEqual([600_000, 700_000]);
    expect(fast[0]?.lastTradePrice).toBe(550_000);
    expect(fast[1]?.tickSize).toBeUndefined();
    expect(decodeOrderBooksText('[]', 0)).toEqual([]);
  });

  it('falls back to the generic path on escapes and numeric timestamps', () => {
    const escaped = '[{"market":"0x\\u0041","asset_id":"1","timestamp":1700000000000,"hash":"h","bids":[],"asks":[]}]';
    const books = decodeOrderBooksText(escaped, 0);
    expect(books[0]?.conditionId).toBe('0xA');
    expect(books[0]?.tsEvent).toBe(1700000000000);
  });
});

describe('other trading answers', () => {
  it('time, prices history, batch history, comments, ok', () => {
    expect(decodeServerTime(1_786_000_000, 5)).toEqual({ serverTimeMs: 1_786_000_000_000, tsInit: 5 });
    expect(decodePricesHistory({ history: [{ t: 1_700_000_000, p: 0.505 }] })).toEqual([{ tsEvent: 1_700_000_000_000, price: 505_000 }]);
    expect(decodeBatchPricesHistory({ history: { a: [{ t: 1, p: 1 }], b: [] } })).toEqual({ a: [{ tsEvent: 1000, price: 1_000_000 }], b: [] });
    expect(decodeOk('"OK"')).toBe('OK');
    expect(decodeOk('OK')).toBe('OK');
    const comments = decodeComments([
      {
        id: '1',
        body: 'hi',
        parentEntityType: 'Event',
        parentEntityID: 12,
        userAddress: '0xu',
        createdAt: '2026-01-01T00:00:00Z',
        profile: { name: 'n', positions: [{ tokenId: '7', positionSize: '12.5' }], profileImageOptimized: {} },
        reactions: [{ id: 'r', reactionType: 'HEART' }],
        reportCount: 0,
        reactionCount: 1,
        replyCount: 1,
        replies: [{ id: '2', body: 'yo', replies: null }],
      },
    ]);
    expect(comments[0]).toMatchObject({ parentEntityId: '12', createdAt: Date.UTC(2026, 0, 1) });
    expect(comments[0]?.profile?.positions).toEqual([{ tokenId: '7', positionSize: '12.5' }]);
    expect(comments[0]?.replies[0]?.replies).toEqual([]);
  });
});

describe('statuses decode once into closed unions', () => {
  const order = (status: unknown) => ({ id: '0x01', status, market: '0xm', asset_id: '1', side: 'BUY', original_size: '10', price: '0.5' });
  const trade = (status: unknown) => ({ id: 't1', market: '0xm', asset_id: '1', side: 'BUY', size: '5', price: '0.5', status });

  it('reads every order status in both profiles (bare and ORDER_STATUS_-prefixed, any case)', () => {
    for (const status of VENUE_ORDER_STATUSES) {
      expect(decodeAccountOrder(order(status)).status).toBe(status);
      expect(decodeAccountOrder(order(`ORDER_STATUS_${status}`)).status).toBe(status);
      expect(decodeAccountOrder(order(status.toLowerCase())).status).toBe(status);
    }
  });

  it('reads every trade status in both profiles (bare and TRADE_STATUS_-prefixed)', () => {
    for (const status of TRADE_STATUSES) {
      expect(decodeAccountTrade(trade(status)).status).toBe(status);
      expect(decodeAccountTrade(trade(`TRADE_STATUS_${status}`)).status).toBe(status);
    }
  });

  it('an unknown status is a DecodeError naming the field', () => {
    const o = decodeError(() => decodeAccountOrder(order('ORDER_STATUS_SLEEPING'), 'data[2]'));
    expect(o.path).toBe('data[2].status');
    expect(o.message).toContain('ORDER_STATUS_SLEEPING');
    // a trade prefix on an order (and the other way round) is not a status of it
    expect(decodeError(() => decodeAccountOrder(order('TRADE_STATUS_MATCHED'))).path).toBe('order.status');
    expect(decodeError(() => decodeAccountTrade(trade('ORDER_STATUS_CONFIRMED'))).path).toBe('trade.status');
    expect(decodeError(() => decodeAccountTrade(trade('SETTLED'))).path).toBe('trade.status');
    expect(decodeError(() => decodeAccountTrade(trade(7))).path).toBe('trade.status');
  });

  it('a POST /orders result status: upper-cased into the union, LIVE when absent, refused when unknown', () => {
    expect(decodeOrderPostResult({ success: true, orderID: '0x1', status: 'matched' })).toMatchObject({ kind: 'accepted', status: 'MATCHED' });
    expect(decodeOrderPostResult({ success: true, orderID: '0x1' })).toMatchObject({ kind: 'accepted', status: 'LIVE' });
    expect(decodeOrderPostResult({ success: false, errorMsg: 'no', status: '' })).toMatchObject({ kind: 'failed', status: undefined });
    expect(decodeError(() => decodeOrderPostResult({ success: true, orderID: '0x1', status: 'QUEUED' }, 'results[4]')).path).toBe('results[4].status');
  });
});
