import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrderType, Side } from '../../../src/core/types.ts';
import { MatchingEngine } from '../../../src/sim/matching/matching-engine.ts';
import type { SimMarketConfig, SubmitResult } from '../../../src/sim/types.ts';
import { ERR_BALANCE, ERR_FOK_UNFILLED } from '../../../src/sim/venue-messages.ts';
import { m, T0 } from '../helpers.ts';

/**
 * Random order flow over two markets, checked after every step against laws computed here,
 * independently of the engine's own arithmetic (BigInt, from the returned trades):
 *
 * - collateral is conserved: Σ accounts (free + reserved) + fees + Σ completeSets = deposited;
 * - each token's supply equals its market's complete sets (every YES or NO in existence came
 *   from a mint and is destroyed by a merge);
 * - each account's collateral (free + reserved) and positions move exactly by the cash flows of
 *   its trades: notional at the fill price plus the fee for a buyer, minus the fee for a seller;
 * - reserves equal what open orders need; nothing is negative; the book never stays crossed; the
 *   book's levels are the open orders aggregated; FOK never fills partly; fills respect limits;
 * - equal book content has equal hashes and different content different hashes.
 */

const ONE = 1_000_000n;
const MARKETS: SimMarketConfig[] = [
  {
    conditionId: '0xaa',
    tokenIds: ['A-YES', 'A-NO'],
    tickSize: m('0.01'),
    minOrderSize: m('5'),
    makerBaseFeeBps: 20,
    takerBaseFeeBps: 150,
    acceptingOrders: true,
    negRisk: false,
  },
  {
    conditionId: '0xbb',
    tokenIds: ['B-YES', 'B-NO'],
    tickSize: m('0.001'),
    minOrderSize: m('5'),
    makerBaseFeeBps: 50,
    takerBaseFeeBps: 0,
    acceptingOrders: true,
    negRisk: true,
  },
];
/** Owners and their wallets: o4 trades from o1's wallet. */
const OWNERS = ['o1', 'o2', 'o3', 'o4'];
const WALLET: Record<string, string> = { o1: 'w1', o2: 'w2', o3: 'w3', o4: 'w1' };

type Command =
  | {
      kind: 'submit';
      owner: number;
      market: number;
      token: 0 | 1;
      side: Side;
      thousandths: number;
      lots: number;
      type: OrderType;
      postOnly: boolean;
      ttlMs: number;
    }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelAll'; owner: number }
  | { kind: 'cancelMarket'; owner: number; market: number; token: 0 | 1 | undefined }
  | { kind: 'advance'; ms: number }
  | { kind: 'tick'; coarse: boolean };

const command: fc.Arbitrary<Command> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      kind: fc.constant('submit' as const),
      owner: fc.integer({ min: 0, max: 3 }),
      market: fc.integer({ min: 0, max: 1 }),
      token: fc.constantFrom(0 as const, 1 as const),
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      thousandths: fc.integer({ min: 300, max: 700 }),
      lots: fc.integer({ min: 400, max: 4000 }),
      type: fc.constantFrom<OrderType>('GTC', 'GTC', 'GTD', 'FOK', 'FAK'),
      postOnly: fc.boolean(),
      ttlMs: fc.integer({ min: 1, max: 5000 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), owner: fc.integer({ min: 0, max: 3 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('cancelMarket' as const),
      owner: fc.integer({ min: 0, max: 3 }),
      market: fc.integer({ min: 0, max: 1 }),
      token: fc.constantFrom(0 as const, 1 as const, undefined),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 3000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tick' as const), coarse: fc.boolean() }) },
);

/** What the random runs exercised, summed over all runs (asserted non-zero at the end). */
const seen = { TRANSFER: 0, MINT: 0, MERGE: 0, fees: 0, expired: 0, fokKilled: 0, fakPartial: 0, rested: 0, restedAfterFill: 0, noTaker: 0, balance: 0 };

function feeOf(rateBps: number, price: number, size: number): bigint {
  const p = BigInt(price);
  const factor = p < ONE - p ? p : ONE - p;
  return (BigInt(rateBps) * factor * BigInt(size)) / (10_000n * ONE);
}

function notionalOf(price: number, size: number): bigint {
  const v = BigInt(price) * BigInt(size);
  expect(v % ONE).toBe(0n); // on-lot sizes: no rounding in notional
  return v / ONE;
}

class Model {
  readonly collateral = new Map<string, bigint>();
  readonly position = new Map<string, bigint>();
  constructor(readonly start: bigint) {}
  addCollateral(wallet: string, delta: bigint): void {
    this.collateral.set(wallet, (this.collateral.get(wallet) ?? this.start) + delta);
  }
  addPosition(wallet: string, token: string, delta: bigint): void {
    const k = `${wallet}|${token}`;
    this.position.set(k, (this.position.get(k) ?? 0n) + delta);
  }
}

function run(commands: Command[]): void {
  const start = m('300');
  const e = new MatchingEngine({ startingCollateral: start });
  for (const mk of MARKETS) e.addMarket(mk);
  const model = new Model(BigInt(start));
  for (const w of ['w1', 'w2', 'w3']) {
    for (const mk of MARKETS) {
      e.split(w, mk.conditionId, m('100'));
      model.addCollateral(w, -BigInt(m('100')));
      model.addPosition(w, mk.tokenIds[0], BigInt(m('100')));
      model.addPosition(w, mk.tokenIds[1], BigInt(m('100')));
    }
  }
  // A replica of every token's book built only from BookChanged events, as a stream client would.
  const replica = new Map<string, Map<string, number>>();
  const lastHash = new Map<string, string>();
  e.onEvent((ev) => {
    if (ev.type === 'BookChanged') {
      for (const ch of ev.changes) {
        const book = replica.get(ch.tokenId) ?? new Map<string, number>();
        replica.set(ch.tokenId, book);
        const key = `${ch.side}|${ch.price}`;
        if (ch.size === 0) book.delete(key);
        else book.set(key, ch.size);
      }
      for (const top of ev.tops) lastHash.set(top.tokenId, top.hash);
    } else if (ev.type === 'TickSizeChanged') {
      for (const top of ev.tops) lastHash.set(top.tokenId, top.hash);
    }
  });
  let now = T0;
  let seq = 0;
  const ids: { id: string; owner: string }[] = [];
  const hashOf = new Map<string, string>();
  const contentOf = new Map<string, string>();

  for (const c of commands) {
    switch (c.kind) {
      case 'submit': {
        const mk = MARKETS[c.market] as SimMarketConfig;
        const tick = e.market(mk.conditionId)?.tickSize as number;
        const raw = Math.round((c.thousandths * 1000) / tick) * tick;
        const price = Math.min(Math.max(raw, tick), 1_000_000 - tick);
        const owner = OWNERS[c.owner] as string;
        const id = `ord-${++seq}`;
        const size = c.lots * 10_000;
        const r = e.submit(
          {
            id,
            owner,
            address: WALLET[owner] as string,
            tokenId: mk.tokenIds[c.token],
            side: c.side,
            price,
            size,
            type: c.type,
            postOnly: c.postOnly && (c.type === 'GTC' || c.type === 'GTD'),
            expiration: c.type === 'GTD' ? now + c.ttlMs : undefined,
            createdAt: now,
          },
          now,
        );
        checkSubmit(r, c, price, size, mk, model);
        if (r.status !== 'REJECTED') ids.push({ id, owner });
        break;
      }
      case 'cancel': {
        if (ids.length === 0) break;
        const { id, owner } = ids[c.pick % ids.length] as { id: string; owner: string };
        const before = e.order(id);
        const r = e.cancel(id, owner, now);
        expect(r.canceled.length === 1).toBe(before?.status === 'LIVE');
        break;
      }
      case 'cancelAll': {
        const owner = OWNERS[c.owner] as string;
        const open = e.openOrders({ owner }).map((o) => o.id);
        expect(e.cancelAll(owner, now).canceled).toEqual(open);
        break;
      }
      case 'cancelMarket': {
        const mk = MARKETS[c.market] as SimMarketConfig;
        const owner = OWNERS[c.owner] as string;
        const tokenId = c.token === undefined ? undefined : mk.tokenIds[c.token];
        e.cancelMarket(owner, { conditionId: mk.conditionId, tokenId }, now);
        expect(e.openOrders({ owner, conditionId: mk.conditionId, tokenId })).toEqual([]);
        break;
      }
      case 'advance':
        now += c.ms;
        if (c.ms % 2 === 0) seen.expired += e.expire(now).length;
        break;
      case 'tick':
        e.setTickSize('0xbb', c.coarse ? m('0.01') : m('0.001'), now);
        break;
    }
    checkInvariants(e, model, now, hashOf, contentOf);
    for (const mk of MARKETS) {
      for (const tokenId of mk.tokenIds) {
        const book = e.book(tokenId, now);
        const fromEvents = [...(replica.get(tokenId) ?? new Map<string, number>())].map(([k, size]) => `${k}|${size}`).sort();
        const actual = [...book.bids.map((l) => `BUY|${l.price}|${l.size}`), ...book.asks.map((l) => `SELL|${l.price}|${l.size}`)].sort();
        expect(fromEvents).toEqual(actual);
        if (lastHash.has(tokenId)) expect(lastHash.get(tokenId)).toBe(book.hash);
      }
    }
  }
}

function checkSubmit(r: SubmitResult, c: Extract<Command, { kind: 'submit' }>, price: number, size: number, mk: SimMarketConfig, model: Model): void {
  const filled = r.trades.reduce((s, t) => s + t.size, 0);
  if (r.status === 'REJECTED') {
    expect(r.trades).toEqual([]);
    if (c.type === 'FOK' && r.errorMsg === ERR_FOK_UNFILLED) seen.fokKilled++;
    if (r.errorMsg === ERR_BALANCE) seen.balance++;
    return;
  }
  if (c.type === 'FAK' && filled < size) seen.fakPartial++;
  if (r.status === 'LIVE') seen.rested++;
  if ((c.type === 'GTC' || c.type === 'GTD') && filled > 0 && filled < size) seen.restedAfterFill++;
  if (c.side === 'SELL' && c.token === 1) seen.noTaker++;
  if (c.type === 'FOK') expect(filled).toBe(size);
  if (c.type === 'FAK') expect(filled).toBeGreaterThan(0);
  expect(filled).toBeLessThanOrEqual(size);
  expect(r.status).toBe(filled > 0 ? 'MATCHED' : 'LIVE');
  let making = 0n;
  let taking = 0n;
  for (const t of r.trades) {
    expect(t.makerOrders.reduce((s, f) => s + f.matchedAmount, 0)).toBe(t.size);
    // Never worse than the limit.
    if (c.side === 'BUY') expect(t.price).toBeLessThanOrEqual(price);
    else expect(t.price).toBeGreaterThanOrEqual(price);
    let takerFee = 0n;
    for (const f of t.makerOrders) {
      // Maker price and taker price are the same YES price.
      const makerYes = f.outcomeIndex === 0 ? f.price : 1_000_000 - f.price;
      const takerYes = t.outcomeIndex === 0 ? t.price : 1_000_000 - t.price;
      expect(makerYes).toBe(takerYes);
      const q = f.matchedAmount;
      const makerFee = feeOf(mk.makerBaseFeeBps, f.price, q);
      expect(BigInt(f.fee)).toBe(makerFee);
      seen[f.settlement]++;
      if (f.fee > 0) seen.fees++;
      const mNotional = notionalOf(f.price, q);
      model.addCollateral(f.address, f.side === 'BUY' ? -(mNotional + makerFee) : mNotional - makerFee);
      model.addPosition(f.address, f.tokenId, f.side === 'BUY' ? BigInt(q) : -BigInt(q));
      const tFee = feeOf(mk.takerBaseFeeBps, t.price, q);
      takerFee += tFee;
      const tNotional = notionalOf(t.price, q);
      model.addCollateral(t.address, c.side === 'BUY' ? -(tNotional + tFee) : tNotional - tFee);
      model.addPosition(t.address, t.tokenId, c.side === 'BUY' ? BigInt(q) : -BigInt(q));
      making += c.side === 'BUY' ? tNotional : BigInt(q);
      taking += c.side === 'BUY' ? BigInt(q) : tNotional;
    }
    expect(BigInt(t.fee)).toBe(takerFee);
  }
  expect(BigInt(r.makingAmount)).toBe(making);
  expect(BigInt(r.takingAmount)).toBe(taking);
}

function checkInvariants(e: MatchingEngine, model: Model, now: number, hashOf: Map<string, string>, contentOf: Map<string, string>): void {
  // Book snapshots first: a read with `now` expires due GTD orders, as any call with a time does.
  const books = MARKETS.map((mk) => [e.book(mk.tokenIds[0], now), e.book(mk.tokenIds[1], now)] as const);
  const totals = e.ledger.totals();
  const sets = Object.values(totals.completeSets).reduce((s, v) => s + v, 0);
  expect(totals.collateral + totals.collateralReserved + totals.feesCollected + sets).toBe(totals.deposited);

  const open = e.openOrders();
  for (const [i, mk] of MARKETS.entries()) {
    const cs = e.ledger.completeSets(mk.conditionId);
    expect(totals.tokenSupply[mk.tokenIds[0]] ?? 0).toBe(cs);
    expect(totals.tokenSupply[mk.tokenIds[1]] ?? 0).toBe(cs);

    const [yes, no] = books[i] as (typeof books)[number];
    const bid = yes.bids[0]?.price;
    const ask = yes.asks[0]?.price;
    if (bid !== undefined && ask !== undefined) expect(bid).toBeLessThan(ask);
    // Levels are the open orders aggregated, in YES terms.
    const expectBids = new Map<number, number>();
    const expectAsks = new Map<number, number>();
    for (const o of open) {
      if (o.conditionId !== mk.conditionId) continue;
      const yesPrice = o.outcomeIndex === 0 ? o.price : 1_000_000 - o.price;
      const isBid = (o.outcomeIndex === 0) === (o.side === 'BUY');
      const target = isBid ? expectBids : expectAsks;
      target.set(yesPrice, (target.get(yesPrice) ?? 0) + o.openSize);
    }
    expect(yes.bids).toEqual([...expectBids].sort((a, b) => b[0] - a[0]).map(([price, size]) => ({ price, size })));
    expect(yes.asks).toEqual([...expectAsks].sort((a, b) => a[0] - b[0]).map(([price, size]) => ({ price, size })));
    expect(no.bids).toEqual(yes.asks.map((l) => ({ price: 1_000_000 - l.price, size: l.size })));
    // Hash iff content.
    for (const [book, label] of [
      [yes, 'Y'],
      [no, 'N'],
    ] as const) {
      const content = `${mk.conditionId}|${label}|${book.tickSize}|${JSON.stringify(book.bids)}|${JSON.stringify(book.asks)}`;
      const known = hashOf.get(content);
      if (known !== undefined) expect(book.hash).toBe(known);
      else hashOf.set(content, book.hash);
      const seen = contentOf.get(book.hash);
      if (seen !== undefined) expect(seen).toBe(content);
      else contentOf.set(book.hash, content);
    }
  }

  // Reserves equal what open orders need; balances match the cash-flow model; nothing negative.
  const needCollateral = new Map<string, bigint>();
  const needTokens = new Map<string, number>();
  for (const o of open) {
    const mk = MARKETS.find((x) => x.conditionId === o.conditionId) as SimMarketConfig;
    if (o.side === 'BUY') {
      const need = notionalOf(o.price, o.openSize) + feeOf(mk.makerBaseFeeBps, o.price, o.openSize);
      needCollateral.set(o.address, (needCollateral.get(o.address) ?? 0n) + need);
    } else {
      const k = `${o.address}|${o.tokenId}`;
      needTokens.set(k, (needTokens.get(k) ?? 0) + o.openSize);
    }
  }
  for (const w of e.ledger.addresses()) {
    const b = e.ledger.balance(w);
    expect(b.collateral).toBeGreaterThanOrEqual(0);
    expect(BigInt(b.collateralReserved)).toBe(needCollateral.get(w) ?? 0n);
    expect(BigInt(b.collateral + b.collateralReserved)).toBe(model.collateral.get(w) ?? model.start);
    for (const t of b.tokens) {
      expect(t.balance).toBeGreaterThanOrEqual(0);
      expect(t.reserved).toBe(needTokens.get(`${w}|${t.tokenId}`) ?? 0);
      expect(BigInt(t.balance + t.reserved)).toBe(model.position.get(`${w}|${t.tokenId}`) ?? 0n);
    }
  }
}

describe('conservation under random order flow', () => {
  it('keeps every law after every step', () => {
    fc.assert(
      fc.property(fc.array(command, { minLength: 1, maxLength: 150, size: 'max' }), (commands) => {
        run(commands);
      }),
      { numRuns: 60 },
    );
    for (const [what, count] of Object.entries(seen)) expect(count, what).toBeGreaterThan(0);
  });
});
