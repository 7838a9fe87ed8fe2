import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../src/core/clock.ts';
import { MICROS_PER_UNIT } from '../../src/core/fixed.ts';
import { checksumAddress } from '../../src/sandbox/world/ids.ts';
import { World } from '../../src/sandbox/world/world.ts';
import { ADDRESS_RE, CONDITION_RE, TOKEN_RE } from './helpers.ts';

/** The world generated from a seed: determinism and the venue's invariants. */

const T0 = Date.UTC(2026, 10, 20);
const make = (seed: number, markets = 200, events = 50): World => new World({ seed, markets, events, clock: new SimulatedClock(T0) });

/** Everything observable about a world, as one JSON text. */
function digest(w: World): string {
  return JSON.stringify({
    events: w.events.map((e) => [e.id, e.slug, e.title, e.negRisk, e.negRiskMarketId, e.closed, e.endDate, e.tags.map((t) => t.id), e.series?.id, e.creator.id]),
    markets: w.markets.map((m) => [m.id, m.conditionId, m.questionId, m.slug, m.question, m.tokens.map((t) => t.tokenId), m.tickSize, m.minOrderSize, m.makerBaseFee, m.takerBaseFee, m.initialMid, m.rewards]),
    books: w.markets.flatMap((m) => m.tokens.map((t) => w.books.book(t.tokenId)!.hash)),
    wallets: w.wallets.map((x) => [x.address, x.name, x.pseudonym]),
    fills: w.fills.map((f) => [f.transactionHash, f.wallet.index, f.token.tokenId, f.side, f.price, f.size, f.timestamp, f.taker]),
    closed: w.closedPositions.map((p) => [p.wallet.index, p.token.tokenId, p.realizedPnl, p.totalBought]),
    comments: w.comments.map((c) => [c.id, c.body, c.wallet.index, c.parentEntityID, c.replies.map((r) => [r.id, r.body]), c.reactions.length]),
  });
}

describe('determinism', () => {
  it('the same seed makes the same world; another seed another one', () => {
    const a = digest(make(42));
    expect(digest(make(42))).toBe(a);
    const b = make(43);
    expect(digest(b)).not.toBe(a);
    const conditionsA = new Set(make(42).markets.map((m) => m.conditionId));
    expect(b.markets.some((m) => conditionsA.has(m.conditionId))).toBe(false);
  });

  it('books are the same whatever order they are first read in', () => {
    const w1 = make(9);
    const w2 = make(9);
    const tokens = w1.markets.flatMap((m) => m.tokens.map((t) => t.tokenId));
    const forward = tokens.map((t) => w1.books.book(t)!.hash);
    const backward = [...tokens].reverse().map((t) => w2.books.book(t)!.hash).reverse();
    expect(backward).toEqual(forward);
  });
});

describe.each([1, 2, 3])('world of seed %i', (seed) => {
  const w = make(seed);

  it('has the configured size, unique ids and the venue id shapes', () => {
    expect(w.markets).toHaveLength(200);
    expect(w.events).toHaveLength(50);
    const unique = <T>(xs: T[]): void => expect(new Set(xs).size).toBe(xs.length);
    unique(w.markets.map((m) => m.conditionId));
    unique(w.markets.map((m) => m.id));
    unique(w.markets.map((m) => m.slug));
    unique(w.events.map((e) => e.slug));
    unique(w.markets.flatMap((m) => m.tokens.map((t) => t.tokenId)));
    for (const m of w.markets) {
      expect(m.tokens).toHaveLength(2);
      expect(m.conditionId).toMatch(CONDITION_RE);
      expect(m.questionId).toMatch(CONDITION_RE);
      for (const t of m.tokens) {
        expect(t.tokenId).toMatch(TOKEN_RE);
        expect(BigInt(t.tokenId) < 2n ** 256n).toBe(true);
        expect(t.market).toBe(m);
        expect(t.complement().complement()).toBe(t);
      }
      expect(m.event.markets).toContain(m);
    }
    expect(w.markets.reduce((n, m) => n + (m.event.markets[0] === m ? 1 : 0), 0)).toBe(50);
  });

  it('has binary and neg-risk events', () => {
    const negRisk = w.events.filter((e) => e.negRisk);
    expect(negRisk.length).toBeGreaterThan(0);
    for (const e of negRisk) {
      expect(e.markets.length).toBeGreaterThanOrEqual(2);
      expect(e.negRiskMarketId).toMatch(CONDITION_RE);
      for (const m of e.markets) {
        expect(m.negRisk).toBe(true);
        expect(m.negRiskMarketId).toBe(e.negRiskMarketId);
        expect(m.negRiskRequestId).toMatch(CONDITION_RE);
      }
    }
    for (const e of w.events.filter((x) => !x.negRisk)) {
      expect(e.markets).toHaveLength(1);
      expect(e.markets[0]!.negRisk).toBe(false);
      expect(e.negRiskMarketId).toBe('');
    }
  });

  it('uses the four tick sizes and the usual minimum sizes and fees', () => {
    expect(new Set(w.markets.map((m) => m.tickSize))).toEqual(new Set([100_000, 10_000, 1_000, 100]));
    const sizes = new Set(w.markets.map((m) => m.minOrderSize / MICROS_PER_UNIT));
    expect(sizes.has(5)).toBe(true);
    for (const s of sizes) expect([1, 5, 10]).toContain(s);
    expect(new Set(w.markets.map((m) => m.takerBaseFee)).size).toBeGreaterThan(1);
  });

  it('books: 3+ levels a side on the tick grid, bid < ask, YES and NO mirrored; closed markets empty', () => {
    for (const m of w.markets) {
      const [yes, no] = m.tokens.map((t) => w.books.book(t.tokenId)!);
      if (m.closed) {
        expect([yes!.bids.length, yes!.asks.length, no!.bids.length, no!.asks.length]).toEqual([0, 0, 0, 0]);
        continue;
      }
      for (const book of [yes!, no!]) {
        expect(book.bids.length).toBeGreaterThanOrEqual(3);
        expect(book.asks.length).toBeGreaterThanOrEqual(3);
        for (const l of [...book.bids, ...book.asks]) {
          expect(l.price % m.tickSize).toBe(0);
          expect(l.price).toBeGreaterThanOrEqual(m.tickSize);
          expect(l.price).toBeLessThanOrEqual(MICROS_PER_UNIT - m.tickSize);
          expect(l.size % 10_000).toBe(0);
          expect(l.size).toBeGreaterThanOrEqual(m.minOrderSize);
        }
        const bids = book.bids.map((l) => l.price);
        const asks = book.asks.map((l) => l.price);
        expect(bids).toEqual([...bids].sort((a, b) => b - a));
        expect(asks).toEqual([...asks].sort((a, b) => a - b));
        expect(bids[0]).toBeLessThan(asks[0] as number);
      }
      expect(no!.bids).toEqual(yes!.asks.map((l) => ({ price: MICROS_PER_UNIT - l.price, size: l.size })));
      expect(no!.asks).toEqual(yes!.bids.map((l) => ({ price: MICROS_PER_UNIT - l.price, size: l.size })));
      expect(no!.hash).not.toBe(yes!.hash);
    }
  });

  it('wallets: checksummed addresses; holdings are exactly their net fills', () => {
    for (const x of w.wallets) {
      expect(x.address).toMatch(ADDRESS_RE);
      expect(checksumAddress(x.address)).toBe(x.address);
      expect(x.address).not.toBe(x.address.toLowerCase());
    }
    const net = new Map<string, number>();
    for (const f of w.fills) {
      if (f.token.market.closed) continue;
      const key = `${f.wallet.index}:${f.token.tokenId}`;
      net.set(key, (net.get(key) ?? 0) + (f.side === 'BUY' ? f.size : -f.size));
    }
    const held = new Map(w.holdings.map((h) => [`${h.wallet.index}:${h.token.tokenId}`, h.size]));
    for (const [key, size] of net) {
      expect(size).toBeGreaterThanOrEqual(0);
      expect(held.get(key) ?? 0).toBe(size);
    }
    expect(w.holdings.length).toBeGreaterThan(0);
    expect(w.closedPositions.length).toBeGreaterThan(0);
    expect(w.closedPositions.some((p) => p.redeemable)).toBe(w.markets.some((m) => m.closed));
  });
});

describe('world sizes', () => {
  it('never has more events than markets', () => {
    const w = make(1, 3, 10);
    expect(w.markets).toHaveLength(3);
    expect(w.events).toHaveLength(3);
    expect(w.events.every((e) => e.markets.length === 1)).toBe(true);
  });

  it('builds 5,000 markets over 50 events', () => {
    const w = make(1, 5000, 50);
    expect(w.markets).toHaveLength(5000);
    expect(w.events).toHaveLength(50);
    expect(w.events.reduce((n, e) => n + e.markets.length, 0)).toBe(5000);
    expect(new Set(w.markets.flatMap((m) => m.tokens.map((t) => t.tokenId))).size).toBe(10_000);
    expect(new Set(w.markets.map((m) => m.slug)).size).toBe(5000);
  });
});

describe('SeededBookStore.replaceLevels', () => {
  it('changes hash and timestamp with the content, keeps the mirror, refuses bad levels', () => {
    const clock = new SimulatedClock(T0);
    const w = new World({ seed: 4, markets: 20, events: 5, clock });
    const m = w.markets.find((x) => !x.closed && x.tickSize === 10_000) ?? w.markets.find((x) => !x.closed)!;
    const [yes, no] = m.tokens;
    const before = w.books.book(yes.tokenId)!;
    clock.advanceBy(1_000);
    const tick = m.tickSize;
    const levels = { bids: [{ price: 40 * tick, size: 10_000_000 }], asks: [{ price: 60 * tick, size: 20_000_000 }] };
    if (60 * tick > MICROS_PER_UNIT - tick) throw new Error('test needs a tick <= 0.01');
    const after = w.seededBooks.replaceLevels(yes.tokenId, levels);
    expect(after.hash).not.toBe(before.hash);
    expect(after.timestampMs).toBe(T0 + 1_000);
    expect(w.books.book(no.tokenId)!.bids).toEqual([{ price: MICROS_PER_UNIT - 60 * tick, size: 20_000_000 }]);
    clock.advanceBy(1_000);
    expect(w.seededBooks.replaceLevels(yes.tokenId, levels).hash).toBe(after.hash);
    expect(() => w.seededBooks.replaceLevels(yes.tokenId, { bids: [{ price: 40 * tick + 1, size: 1 }], asks: [] })).toThrow(RangeError);
    expect(() => w.seededBooks.replaceLevels(yes.tokenId, { bids: [{ price: 60 * tick, size: 1 }], asks: [{ price: 50 * tick, size: 1 }] })).toThrow(/crossed/);
  });
});
