import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import type { OrderRequest } from '../../src/core/intents.ts';
import { FeeRate } from '../../src/core/money.ts';
import type { OrderType, Side } from '../../src/core/types.ts';
import type { SubmitResult as EdgeResult } from '../../src/execution/execution-client.ts';
import { buyEntryRequirement, checkTerms, disposition, entryFeeRate, restingBuyReserve, submitStatus } from '../../src/sim/admission.ts';
import { SimulatedExecutionClient } from '../../src/sim/edge/simulated-execution.ts';
import { constantLatency } from '../../src/sim/edge/latency-model.ts';
import { queueModel } from '../../src/sim/edge/queue-model.ts';
import {
  ERR_BALANCE,
  ERR_FAK_NO_MATCH,
  ERR_FOK_UNFILLED,
  ERR_INVALID_PAYLOAD,
  ERR_POST_ONLY_CROSSES,
  ERR_PRICE_TICK,
  ERR_SIZE_MINIMUM,
} from '../../src/sim/venue-messages.ts';
import { bookEvent } from '../backtest/helpers.ts';
import { COND, m, newEngine, T0, YES } from './helpers.ts';

const RULES = { tickSize: m('0.01'), minOrderSize: m('5'), sizeLot: m('0.01') };
const terms = (over: Partial<Parameters<typeof checkTerms>[0]> = {}) => ({
  side: 'BUY',
  type: 'GTC',
  price: m('0.5'),
  size: m('10'),
  postOnly: false,
  expiration: undefined,
  ...over,
});

describe('admission rules', () => {
  it.each([
    ['a good GTC', {}, undefined],
    ['an unknown side', { side: 'HOLD' }, ERR_INVALID_PAYLOAD],
    ['an unknown type', { type: 'IOC' }, ERR_INVALID_PAYLOAD],
    ['post-only FOK', { type: 'FOK', postOnly: true }, ERR_INVALID_PAYLOAD],
    ['a GTD without expiration', { type: 'GTD' }, ERR_INVALID_PAYLOAD],
    ['a GTD expiring now', { type: 'GTD', expiration: T0 }, ERR_INVALID_PAYLOAD],
    ['a GTD that never expires', { type: 'GTD', expiration: Infinity }, ERR_INVALID_PAYLOAD],
    ['a GTD expiring later', { type: 'GTD', expiration: T0 + 1 }, undefined],
    ['a price off the tick', { price: m('0.505') }, ERR_PRICE_TICK],
    ['a price of 1', { price: m('1') }, ERR_PRICE_TICK],
    ['a fractional size', { size: 10.5 }, ERR_INVALID_PAYLOAD],
    ['a size under the minimum', { size: m('4.99') }, ERR_SIZE_MINIMUM],
    ['a size off the lot', { size: m('10.005') }, ERR_INVALID_PAYLOAD],
  ] as const)('checkTerms: %s', (_name, over, expected) => {
    expect(checkTerms(terms(over), RULES, T0)).toBe(expected);
  });

  it('bounds the fee by the rate the order can pay at min(limit, 0.5)', () => {
    const fees = { maker: new FeeRate(100), taker: new FeeRate(200) };
    expect(entryFeeRate('FAK', false, fees)).toBe(fees.taker);
    expect(entryFeeRate('GTC', true, fees)).toBe(fees.maker);
    expect(entryFeeRate('GTC', false, fees)).toBe(fees.taker);
    expect(entryFeeRate('GTC', false, { maker: fees.taker, taker: fees.maker })).toBe(fees.taker);
    // 100 @ 0.6: notional 60 + 2% × 0.5 × 100 = 61
    expect(buyEntryRequirement(m('0.6'), m('100'), fees.taker)).toBe(m('61'));
    // resting: notional 60 + 1% × min(0.6, 0.4) × 100 = 60.4
    expect(restingBuyReserve(m('0.6'), m('100'), fees.maker)).toBe(m('60.4'));
  });

  it('says what becomes of the rest and what the venue answers', () => {
    expect(disposition('GTC', 0)).toBe('FILLED');
    expect(disposition('GTD', 5)).toBe('REST');
    expect(disposition('FAK', 5)).toBe('KILL');
    expect([submitStatus('REST', 0), submitStatus('REST', 1), submitStatus('KILL', 1), submitStatus('FILLED', 5)]).toEqual(['LIVE', 'MATCHED', 'MATCHED', 'MATCHED']);
  });
});

/**
 * The same orders against the sandbox's matching engine and the paper/backtest edge, both showing
 * one ask of 40 at 0.52 and holding 100 collateral and no tokens: the same answers.
 */
describe('one admission for both simulated venues', () => {
  interface Probe {
    side?: Side;
    type?: OrderType;
    price: string;
    size: string;
    postOnly?: boolean;
    expiration?: number;
  }

  function venues(takerBps = 0) {
    const engine = newEngine({ takerBaseFeeBps: takerBps }, { startingCollateral: m('100') });
    engine.ledger.deposit('addr-bob', m('100'));
    engine.split('addr-bob', COND, m('100'));
    engine.submit({ id: 'ask', owner: 'bob', address: 'addr-bob', tokenId: YES, side: 'SELL', price: m('0.52'), size: m('40'), type: 'GTC', createdAt: T0 }, T0);
    const clock = new SimulatedClock(T0);
    const edge = new SimulatedExecutionClient({
      clock,
      tokens: [{ tokenId: YES, conditionId: COND, tickSize: m('0.01'), minOrderSize: m('5'), fees: { maker: new FeeRate(0), taker: new FeeRate(takerBps) } }],
      latency: constantLatency(0),
      queue: queueModel('conservative'),
      balance: m('100'),
    });
    edge.onMarketEvent(bookEvent(T0, [], [['0.52', '40']], { tokenId: YES, conditionId: COND }));
    let seq = 0;
    return (p: Probe): [string, string] => {
      const id = `o${++seq}`;
      const side = p.side ?? 'BUY';
      const type = p.type ?? 'GTC';
      const r = engine.submit(
        { id, owner: 'alice', address: 'addr-alice', tokenId: YES, side, type, price: m(p.price), size: m(p.size), postOnly: p.postOnly, expiration: p.expiration, createdAt: T0 },
        T0,
      );
      const request: OrderRequest = {
        kind: 'place',
        tokenId: YES,
        conditionId: COND,
        side,
        price: m(p.price),
        size: m(p.size),
        orderType: type,
        postOnly: p.postOnly,
        expiresAt: p.expiration,
        strategyId: 's',
        clientOrderId: id,
        createdAt: T0,
      };
      let answer: EdgeResult | undefined;
      edge.submit([{ request, orderId: id, payload: undefined }]).subscribe((rs) => (answer = rs[0]));
      clock.advanceTo(clock.now());
      if (answer === undefined) throw new Error('the edge did not answer');
      const edgeSays = answer.ok ? answer.status : answer.errorMsg;
      return [r.status === 'REJECTED' ? r.errorMsg : r.status, edgeSays];
    };
  }

  it.each([
    ['off the tick', { price: '0.505', size: '10' }, ERR_PRICE_TICK],
    ['under the minimum', { price: '0.5', size: '4' }, ERR_SIZE_MINIMUM],
    ['off the lot', { price: '0.5', size: '10.005' }, ERR_INVALID_PAYLOAD],
    ['post-only FAK', { price: '0.5', size: '10', type: 'FAK', postOnly: true }, ERR_INVALID_PAYLOAD],
    ['a GTD in the past', { price: '0.5', size: '10', type: 'GTD', expiration: T0 - 1 }, ERR_INVALID_PAYLOAD],
    ['a BUY beyond the collateral', { price: '0.5', size: '500' }, ERR_BALANCE],
    ['a SELL without tokens', { side: 'SELL', price: '0.5', size: '10' }, ERR_BALANCE],
    ['a post-only BUY at the ask', { price: '0.52', size: '10', postOnly: true }, ERR_POST_ONLY_CROSSES],
    ['a FOK larger than the ask', { price: '0.52', size: '50', type: 'FOK' }, ERR_FOK_UNFILLED],
    ['a FAK below the ask', { price: '0.51', size: '10', type: 'FAK' }, ERR_FAK_NO_MATCH],
    ['a GTC under the ask', { price: '0.5', size: '10' }, 'LIVE'],
    ['a GTD under the ask', { price: '0.5', size: '10', type: 'GTD', expiration: T0 + 60_000 }, 'LIVE'],
    ['a FAK through the ask', { price: '0.53', size: '50', type: 'FAK' }, 'MATCHED'],
    ['a GTC through the ask', { price: '0.52', size: '50' }, 'MATCHED'],
  ] as const)('%s', (_name, probe, expected) => {
    const submit = venues();
    expect(submit(probe)).toEqual([expected, expected]);
  });

  it('both count the worst taker fee in the BUY check', () => {
    // 190 @ 0.52 = 98.8 notional; 2% × 0.5 × 190 = 1.9 of fee: 100.7 > 100
    expect(venues(200)({ price: '0.52', size: '190' })).toEqual([ERR_BALANCE, ERR_BALANCE]);
    expect(venues(0)({ price: '0.52', size: '190' })).toEqual(['MATCHED', 'MATCHED']);
  });
});
