import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { renderReport } from '../../src/backtest/report.ts';
import { formatStatus } from '../../src/cli/commands/status.ts';
import type { OrderIntent } from '../../src/core/intents.ts';
import { completeSetShape, heldSets } from '../../src/portfolio/complete-sets.ts';
import { RunStore } from '../../src/store/run-store.ts';
import { storePersistence } from '../../src/store/store-persistence.ts';
import { StoreReader } from '../../src/store/store-reader.ts';
import { buildStatusReport } from '../../src/store/store-status.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { scriptedBooks, type ScriptedMarket } from '../../src/testing/scripted-books.ts';
import { backtestConfig, TempDir } from './helpers.ts';

/**
 * Issue 21 point 3, done-when: a YES+NO pair and a full neg-risk set are valued at their payout in
 * the summary (summary.json), the report, and `clobot status` of a store, apart from mark-to-mid.
 */

const tmp = new TempDir();
afterAll(() => tmp.remove());
const M = 1_000_000;

const CONFIG = `
mode: backtest
name: sets
data:
  markets: { filter: { maxCount: 20 } }
strategies:
  - id: sets
    module: ./sets.ts
backtest:
  balance: 1000
  latencyMs: 10
  queueModel: conservative
  fees: { makerBps: 0, takerBps: 0 }
`;

/**
 * A plain market (asks YES 0.55, NO 0.40) and two neg-risk events of three outcomes, `election`
 * (listed outcomes only) and `weather` (augmented), each offered at 0.30 + 0.25 + 0.40 = 0.95;
 * after 1 s the books widen: each YES marked at its new mid, each NO too.
 */
function script() {
  const s = scriptedBooks();
  const plain = s.market({ slug: 'plain' });
  const outcomes = (slug: string, augmented: boolean): ScriptedMarket[] => [0, 1, 2].map((i) => s.market({ slug: `${slug}-${i}`, event: { slug, negRisk: true, augmented } }));
  const election = outcomes('election', false);
  const weather = outcomes('weather', true);
  const book = (m: ScriptedMarket, yesBid: string, yesAsk: string) => {
    s.book(m.yes, { bids: [[yesBid, '500']], asks: [[yesAsk, '500']] });
    s.book(m.no, { bids: [[(1 - Number(yesAsk)).toFixed(2), '500']], asks: [[(1 - Number(yesBid)).toFixed(2), '500']] });
  };
  s.at(0);
  book(plain, '0.54', '0.55');
  s.book(plain.no, { bids: [['0.39', '500']], asks: [['0.40', '500']] });
  for (const group of [election, weather]) group.forEach((m, i) => book(m, ['0.29', '0.24', '0.39'][i]!, ['0.30', '0.25', '0.40'][i]!));
  s.at(1_000);
  // wide books: mids well below the 1 a set pays (YES 0.45 + NO 0.35 for the pair; 0.2 + 0.2 + 0.3 for the event)
  s.book(plain.yes, { bids: [['0.40', '500']], asks: [['0.50', '500']] });
  s.book(plain.no, { bids: [['0.30', '500']], asks: [['0.40', '500']] });
  for (const group of [election, weather]) group.forEach((m, i) => s.book(m.yes, { bids: [[['0.10', '0.10', '0.20'][i]!, '500']], asks: [[['0.30', '0.30', '0.40'][i]!, '500']] }));
  return { s, plain, election, weather };
}

describe('complete sets at payout in a backtest', async () => {
  const { s, plain, election, weather } = script();
  const buys: [string, string][] = [
    [plain.yes, '0.55'],
    [plain.no, '0.40'],
    ...election.map((m, i): [string, string] => [m.yes, ['0.30', '0.25', '0.40'][i]!]),
    ...weather.map((m, i): [string, string] => [m.yes, ['0.30', '0.25', '0.40'][i]!]),
  ];
  let sent = false;
  const strategy = defineStrategy({
    name: 'sets',
    onBook({ market }): OrderIntent[] | undefined {
      // once every book of t0 is in (the last one is the augmented event's last NO)
      if (sent || market.tokenId !== weather[2]!.no) return undefined;
      sent = true;
      return buys.map(([tokenId, price]) => ({ kind: 'place', tokenId, side: 'BUY', price: Math.round(Number(price) * M), size: 10 * M, orderType: 'FAK' }));
    },
  });
  const data = s.toData('sets');
  const result = await runBacktest({ config: backtestConfig(tmp, CONFIG), data, definitions: { sets: strategy } });
  const summary = result.summary;

  it('summary.json: 20 sets (10 pairs, 10 election sets) at 1, apart from the same shares at mid; the augmented set at its marks', () => {
    expect(summary.metrics.fills).toBe(8);
    // the same shares at the last mids: 10 × (0.45 + 0.35) + 10 × (0.2 + 0.2 + 0.3)
    expect(summary.metrics.completeSets).toEqual({ sets: '20', value: '20', markValue: '15' });
    // cost: 10 × 0.95 (pair) + 10 × 0.95 (election) + 10 × 0.95 (weather) = 28.5; value 20 + 10 × 0.7 (weather at mid)
    expect(summary.metrics.pnl.unrealized).toBe(String(20 + 7 - 28.5));
    expect(summary.metrics.endingEquity).toBe(String(1000 - 28.5 + 27));
    expect(result.engine.account).toMatchObject({ completeSets: '20', setValue: '20', setMarkValue: '15', positionValue: '27' });
  });

  it('the report shows the sets apart from the mark-to-mid rows', () => {
    const html = renderReport(result);
    expect(html).toContain('<tr><td>Complete sets held (pairs, full neg-risk sets)</td><td>20</td></tr>');
    expect(html).toContain('<tr><td>Complete sets at payout (in position value)</td><td>20</td></tr>');
    expect(html).toContain('<tr><td>Same shares at mid</td><td>15</td></tr>');
    expect(html).toContain('<td>complete sets</td><td>20 valued at payout 20.00 (at mid 15.00)</td>');
  });

  it('clobot status of a store holding the same fills and the account note reads the sets at payout', () => {
    const file = tmp.path('status.db');
    const store = RunStore.open(file, { create: true, runName: 'sets', runId: 'feedbeef', now: () => data.header.createdAt });
    const persistence = storePersistence(store);
    const marks: Record<string, number> = {};
    const tokens = data.header.markets.flatMap((m) =>
      m.tokens.map((t, i) => ({ tokenId: t.tokenId, conditionId: m.conditionId, outcomeIndex: i as 0 | 1, complementTokenId: m.tokens[1 - i]!.tokenId, event: data.header.events?.find((e) => e.marketConditionIds.includes(m.conditionId)) })),
    );
    const sizes = new Map<string, bigint>();
    let seq = 0;
    store.reserveIds(20);
    persistence.account!({ at: data.header.createdAt, source: 'configured', cash: 1000 * M, marks: {}, outside: [] });
    for (const [tokenId, price] of buys) {
      const clientOrderId = `feedbeef${(++seq).toString(16).padStart(24, '0')}`;
      const request = { kind: 'place' as const, tokenId, side: 'BUY' as const, price: Math.round(Number(price) * M), size: 10 * M, orderType: 'FAK' as const, tag: 'x', strategyId: 'sets', clientOrderId, conditionId: tokens.find((t) => t.tokenId === tokenId)!.conditionId, createdAt: data.header.createdAt };
      store.saveOrder({ request, status: 'FILLED', orderId: `0x${seq}`, filled: 10 * M }, data.header.createdAt + seq);
      persistence.fill({ type: 'OrderFilled', clientOrderId, orderId: `0x${seq}`, tradeId: `t${seq}`, tokenId, side: 'BUY', price: request.price, size: 10 * M, fee: 0, liquidity: 'TAKER', confirmed: true, tsEvent: data.header.createdAt + seq, tsInit: data.header.createdAt + seq, });
      sizes.set(tokenId, 10n * BigInt(M));
    }
    // the run's marks at the end: the last mids
    const mids: [string, number][] = [
      [plain.yes, 0.45],
      [plain.no, 0.35],
      ...[election, weather].flatMap((group) => group.map((m, i): [string, number] => [m.yes, [0.2, 0.2, 0.3][i]!])),
    ];
    for (const [tokenId, mid] of mids) marks[tokenId] = Math.round(mid * M);
    persistence.account!({ at: data.header.createdAt + 100, source: 'configured', marks, outside: [], sets: heldSets(completeSetShape(tokens), (t) => sizes.get(t) ?? 0n) });
    store.close();
    const reader = StoreReader.open(file);
    try {
      const report = buildStatusReport(reader.snapshot());
      expect(report.account).toMatchObject({ completeSets: '20', setValue: '20', setMarkValue: '15', positionValue: '27' });
      expect(formatStatus(report)).toContain('complete sets 20 valued at payout 20 (at mid 15), inside position value');
    } finally {
      reader.close();
    }
  });
});
