import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../../src/core/errors.ts';
import { fillsOfTrade } from '../../../src/execution/live/trade-fills.ts';
import { decodeUserChannelText } from '../../../src/execution/live/user-channel-messages.ts';
import { replayUserChannel } from '../../../src/execution/live/user-channel-replay.ts';

/** The venue's user-channel messages (docs examples and captured ones, /work/shared/fixtures/venue) decoded, owned, de-duplicated. */

const FIXTURES = '/work/shared/fixtures/venue';
const text = (name: string): string => readFileSync(`${FIXTURES}/${name}`, 'utf8');
/** The account of the captured messages (its orders' `owner`). */
const OURS = { apiKey: '3e2c94ca-8124-c4c1-c7ea-be1ea21b71fe', makerAddress: '0xa3D82Ed56F4c68d2328Fb8c29e568Ba2cAF7d7c8' };
const M = 1_000_000;

describe('user channel messages', () => {
  it('decodes a captured trade (type TRADE is the message kind, trader_side the role) into our one maker fill', () => {
    const [m] = decodeUserChannelText(text('ws_user_trade.json'));
    expect(m?.kind).toBe('trade');
    if (m?.kind !== 'trade') return;
    expect(m.trade).toMatchObject({ id: '83b5c849-620e-4c23-b63b-2e779c04a6e7', status: 'MINED', traderSide: 'MAKER', matchTime: 1725868859_000 });
    expect(m.ts).toBe(1725868885871);
    const fills = fillsOfTrade(m.trade, OURS, 1);
    expect(fills).toEqual([
      expect.objectContaining({ orderId: '0xab679e56242324e15e59cfd488cd0f12e4fd71b153b9bfb57518898b9983145e', liquidity: 'MAKER', price: 518_000, size: 5 * M, side: 'SELL', status: 'MINED' }),
    ]);
  });

  it('decodes the docs example trade and orders (PLACEMENT, CANCELLATION), seconds or ms timestamps', () => {
    const [trade] = decodeUserChannelText(text('ws_user_trade_docs.json'));
    expect(trade).toMatchObject({ kind: 'trade', ts: 1672290701_000, trade: { status: 'MATCHED', traderSide: 'TAKER', size: 10 * M } });
    const [placed] = decodeUserChannelText(text('ws_user_order_placement.json'));
    expect(placed).toMatchObject({ kind: 'order', event: 'PLACEMENT', ts: 1725842520990, order: { status: 'LIVE', side: 'BUY', originalSize: 5 * M, sizeMatched: 0, orderType: 'GTC' } });
    const [cancelled] = decodeUserChannelText(text('ws_user_order_cancellation.json'));
    expect(cancelled).toMatchObject({ kind: 'order', event: 'CANCELLATION', order: { status: 'CANCELED', sizeMatched: 5 * M } });
    const [docs] = decodeUserChannelText(text('ws_user_order_docs.json'));
    expect(docs).toMatchObject({ kind: 'order', event: 'PLACEMENT', order: { orderType: 'GTD', expiration: 1234567_000 } });
  });

  it('reads arrays, skips PONG and other kinds, and names the field of a bad message', () => {
    expect(decodeUserChannelText('PONG')).toEqual([]);
    const both = `[${text('ws_user_order_placement.json')},{"event_type":"something_new"},${text('ws_user_trade.json')}]`;
    expect(decodeUserChannelText(both).map((m) => m.kind)).toEqual(['order', 'trade']);
    const bad = JSON.stringify({ ...JSON.parse(text('ws_user_trade.json')), status: 'SETTLED' });
    expect(() => decodeUserChannelText(bad)).toThrow(DecodeError);
    expect(() => decodeUserChannelText(bad)).toThrow(/message\.status/);
    const badType = JSON.stringify({ ...JSON.parse(text('ws_user_order_placement.json')), type: 'MOVED' });
    expect(() => decodeUserChannelText(badType)).toThrow(/message\.type: expected one of PLACEMENT, UPDATE, CANCELLATION/);
    expect(() => decodeUserChannelText('{"event_type":')).toThrow(DecodeError);
  });

  it('replays recorded messages: a re-sent status counts once, a stale one is dropped, each later one kept', () => {
    const at = (status: string) => ({ text: JSON.stringify({ ...JSON.parse(text('ws_user_trade.json')), status }), at: 1 });
    const replay = replayUserChannel([at('MATCHED'), at('MATCHED'), at('MINED'), at('MATCHED'), at('CONFIRMED'), at('MINED'), { text: text('ws_user_order_cancellation.json'), at: 2 }], OURS);
    expect(replay.fills.map((f) => f.status)).toEqual(['MATCHED', 'MINED', 'CONFIRMED']);
    expect(replay.duplicates).toBe(3);
    expect([...replay.finalStatus.values()]).toEqual(['CONFIRMED']);
    expect(replay.cancelled).toEqual(['0xc6e99c14f1c7cae9e0538eb2d45a4d8b93ffd743e850edd1502a8c85700be5d3']);
  });
});
