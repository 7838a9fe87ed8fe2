import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMicros } from '../../../src/core/fixed.ts';
import { REPO_ROOT, startE2E, waitFor, type E2E } from './harness.ts';
import { seen } from './strategies/ref-taker.ts';

/**
 * Issue 20 points 1 and 2 against the sandbox over loopback, with a real store: two strategies
 * buy the same token in one live run, each with a `ref`. The ref is on each order's
 * OrderAccepted, on each of its fills and in the store (the order's row and the journal); each
 * strategy's ctx.position() is its own while ctx.account() has both; the summary gives each its
 * fills, fees, turnover and PnL, adding up to the run's.
 */

const REF_TAKER = resolve(REPO_ROOT, 'test/engine/e2e/strategies/ref-taker.ts');
const ONE_MARKET = { filter: { active: true, acceptingOrders: true, maxCount: 1 } };

let run: E2E | undefined;
afterEach(async () => {
  await run?.close();
  run = undefined;
});

const sum = (values: readonly string[]) => values.reduce((s, v) => s + parseMicros(v), 0);

describe('e2e: refs and per-strategy accounts', () => {
  it('two strategies on one token: refs on events, fills and the store; own positions; figures adding up', async () => {
    run = await startE2E({
      strategies: [
        { id: 'left', module: REF_TAKER, markets: ONE_MARKET },
        { id: 'right', module: REF_TAKER, markets: ONE_MARKET },
      ],
      config: { store: { path: 'run.sqlite' } },
    });
    const e = run;
    await waitFor('both orders answered and filled', () => seen.has('left') && seen.has('right') && e.orderEvents('OrderAccepted').length === 2);
    const summary = await e.stop();

    // the ref on each OrderAccepted and on every fill, per strategy
    for (const id of ['left', 'right']) {
      expect(e.orderEvents('OrderAccepted', id).map((x) => [x.ref, x.group])).toEqual([[`${id}-take`, 'e2e']]);
      const fills = e.events.flatMap((x) => (x.type === 'fill' && x.strategyId === id ? [x.fill] : []));
      expect(fills.length).toBeGreaterThan(0);
      for (const f of fills) expect([f.ref, f.group]).toEqual([`${id}-take`, 'e2e']);
    }

    // each saw its own position; the run's held both
    const left = seen.get('left')!;
    const right = seen.get('right')!;
    expect(left.orderRef).toBe('left-take');
    expect(right.orderRef).toBe('right-take');
    const own = (id: string) => parseMicros(summary.byStrategy[id]!.positions[0]!.size);
    expect(own('left')).toBeGreaterThan(0);
    expect(own('right')).toBeGreaterThan(0);
    expect(left.own).toBeLessThanOrEqual(own('left'));
    // whichever filled second saw the first one's shares in the run's position, not in its own
    const second = left.run > left.own ? left : right;
    expect(second.run).toBeGreaterThan(second.own);
    expect(summary.byStrategy['left']!.positions[0]!.tokenId).toBe(summary.byStrategy['right']!.positions[0]!.tokenId);

    // the figures add up to the run's
    const parts = Object.values(summary.byStrategy);
    const a = summary.account;
    expect(sum(parts.map((p) => p.pnl))).toBe(parseMicros(a.realized) + parseMicros(a.unrealized) - parseMicros(a.fees));
    expect(sum(parts.map((p) => p.fees))).toBe(parseMicros(a.fees));
    expect(sum(parts.map((p) => p.turnover))).toBe(parseMicros(summary.turnover));

    // the store: the orders' ref columns, and the journal's order and fill rows
    const db = new Database(join(e.dir, 'run.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT strategy_id, ref, order_group FROM orders ORDER BY strategy_id').all()).toEqual([
        { strategy_id: 'left', ref: 'left-take', order_group: 'e2e' },
        { strategy_id: 'right', ref: 'right-take', order_group: 'e2e' },
      ]);
      const journaled = db.prepare("SELECT type, strategy_id, payload->>'$.event.ref' AS eref, payload->>'$.fill.ref' AS fref FROM journal WHERE type IN ('OrderAccepted', 'OrderFilled')").all() as { type: string; strategy_id: string; eref: string | null; fref: string | null }[];
      expect(journaled.length).toBeGreaterThanOrEqual(4);
      for (const row of journaled) expect(row.eref ?? row.fref).toBe(`${row.strategy_id}-take`);
      const positions = db.prepare('SELECT strategy_id, size FROM strategy_positions ORDER BY strategy_id').all() as { strategy_id: string; size: number }[];
      expect(positions).toEqual([
        { strategy_id: 'left', size: own('left') },
        { strategy_id: 'right', size: own('right') },
      ]);
    } finally {
      db.close();
    }
  });
});
