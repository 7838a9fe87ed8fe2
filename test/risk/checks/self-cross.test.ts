import { describe } from 'vitest';
import { selfCross } from '../../../src/risk/checks/self-cross.ts';
import { m, resting, runTable } from '../fixtures.ts';

const with_ = (...orders: ReturnType<typeof resting>[]) => ({ openOrders: orders });

describe('selfCross', () => {
  runTable(selfCross, 'selfCross', [
    { name: 'nothing resting', code: undefined },
    { name: 'BUY at our SELL price', req: { side: 'BUY', price: m('0.5') }, state: with_(resting({ side: 'SELL', price: m('0.5'), clientOrderId: 'ask1' })), code: 'SELF_CROSS', message: 'BUY 0.5 would cross own SELL 0.5 (order ask1)' },
    { name: 'BUY above our SELL', req: { side: 'BUY', price: m('0.6') }, state: with_(resting({ side: 'SELL', price: m('0.5') })), code: 'SELF_CROSS' },
    { name: 'BUY one tick below our SELL', req: { side: 'BUY', price: m('0.49') }, state: with_(resting({ side: 'SELL', price: m('0.5') })), code: undefined },
    { name: 'SELL at our BUY price', req: { side: 'SELL', price: m('0.5') }, state: with_(resting({ side: 'BUY', price: m('0.5'), clientOrderId: 'bid1' })), code: 'SELF_CROSS', message: 'SELL 0.5 would cross own BUY 0.5 (order bid1)' },
    { name: 'SELL one tick above our BUY', req: { side: 'SELL', price: m('0.51') }, state: with_(resting({ side: 'BUY', price: m('0.5') })), code: undefined },
    { name: 'BUY under our BUY on the same token', req: { side: 'BUY', price: m('0.6') }, state: with_(resting({ side: 'BUY', price: m('0.5') })), code: undefined },
    { name: "another strategy's SELL counts", req: { side: 'BUY', price: m('0.5') }, state: with_(resting({ side: 'SELL', price: m('0.5'), strategyId: 'other' })), code: 'SELF_CROSS' },
    { name: 'a filled SELL (remaining 0) does not count', req: { side: 'BUY', price: m('0.5') }, state: with_(resting({ side: 'SELL', price: m('0.5'), remaining: 0 })), code: undefined },
    { name: 'BUY YES + our BUY NO summing to 1 (mint)', req: { side: 'BUY', price: m('0.5') }, state: with_(resting({ tokenId: 'N1', side: 'BUY', price: m('0.5'), clientOrderId: 'nobid' })), code: 'SELF_CROSS', message: 'BUY 0.5 + own complement BUY 0.5 >= 1 (order nobid)' },
    { name: 'BUY YES + our BUY NO above 1', req: { side: 'BUY', price: m('0.6') }, state: with_(resting({ tokenId: 'N1', side: 'BUY', price: m('0.45') })), code: 'SELF_CROSS' },
    { name: 'BUY YES + our BUY NO one micro under 1', req: { side: 'BUY', price: m('0.5') }, state: with_(resting({ tokenId: 'N1', side: 'BUY', price: m('0.499999') })), code: undefined },
    { name: 'SELL YES + our SELL NO summing to 1 (merge)', req: { side: 'SELL', price: m('0.4') }, state: with_(resting({ tokenId: 'N1', side: 'SELL', price: m('0.6') })), code: 'SELF_CROSS', message: /^SELL 0.4 \+ own complement SELL 0.6 <= 1/ },
    { name: 'SELL YES + our SELL NO above 1', req: { side: 'SELL', price: m('0.5') }, state: with_(resting({ tokenId: 'N1', side: 'SELL', price: m('0.500001') })), code: undefined },
    { name: 'BUY YES vs our SELL NO does not cross', req: { side: 'BUY', price: m('0.9') }, state: with_(resting({ tokenId: 'N1', side: 'SELL', price: m('0.05') })), code: undefined },
    { name: 'BUY NO + our BUY YES (order on the NO token)', req: { tokenId: 'N1', side: 'BUY', price: m('0.3') }, state: with_(resting({ tokenId: 'Y1', side: 'BUY', price: m('0.7') })), code: 'SELF_CROSS' },
    { name: 'orders on another condition do not count', req: { side: 'BUY', price: m('0.9') }, state: with_(resting({ tokenId: 'FX', side: 'SELL', price: m('0.1') }), resting({ tokenId: 'EA', side: 'BUY', price: m('0.9') })), code: undefined },
    {
      name: 'complement found by condition when the token is not in markets',
      req: { tokenId: 'Z1', conditionId: '0xz', side: 'BUY', price: m('0.4') },
      state: with_(resting({ tokenId: 'Z2', conditionId: '0xz', side: 'BUY', price: m('0.6') })),
      code: 'SELF_CROSS',
    },
    {
      name: 'an empty condition id matches no complement',
      req: { tokenId: 'Z1', conditionId: '', side: 'BUY', price: m('0.4') },
      state: with_(resting({ tokenId: 'Z2', conditionId: '', side: 'BUY', price: m('0.6') })),
      code: undefined,
    },
  ]);
});
