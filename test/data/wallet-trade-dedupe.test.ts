import { describe, expect, it } from 'vitest';
import { WalletTradeDedupe, type WalletRow } from '../../src/data/wallet-trade-dedupe.ts';

const row = (txHash: string, ts: number, price = 0.5, size = 10, side = 'BUY', asset = 'a'): WalletRow => ({ txHash, asset, side, price, size, ts });

describe('WalletTradeDedupe', () => {
  it('delivers each fill once across overlapping polls, oldest first', () => {
    const d = new WalletTradeDedupe();
    // newest first, as the venue orders them
    expect(d.take([row('t2', 2000), row('t1', 1000)], false).map((r) => r.txHash)).toEqual(['t1', 't2']);
    expect(d.take([row('t3', 3000), row('t2', 2000), row('t1', 1000)], false).map((r) => r.txHash)).toEqual(['t3']);
    expect(d.take([row('t3', 3000), row('t2', 2000), row('t1', 1000)], false)).toEqual([]);
  });

  it('keeps the several fills of one transaction apart, and counts fills alike in every field', () => {
    const d = new WalletTradeDedupe();
    const a = row('tx', 1000, 0.5, 10);
    const b = row('tx', 1000, 0.51, 4);
    expect(d.take([b, a], false)).toHaveLength(2);
    // the same transaction later shows a third fill equal to the first: one new fill, not zero
    expect(d.take([a, b, a], false)).toEqual([a]);
    expect(d.take([a, b, a], false)).toEqual([]);
    // a page that shows the pair once again does not make it new
    expect(d.take([b, a], false)).toEqual([]);
  });

  it('a fill indexed late inside the window is still new; keys older than a full window are forgotten', () => {
    const d = new WalletTradeDedupe();
    d.take([row('t3', 3000), row('t1', 1000)], false);
    expect(d.take([row('t3', 3000), row('t2', 2000), row('t1', 1000)], false).map((r) => r.txHash)).toEqual(['t2']);
    expect(d.size).toBe(3);
    // a full page whose oldest row is t2: t1 can never come back, so it is dropped
    d.take([row('t4', 4000), row('t3', 3000), row('t2', 2000)], true);
    expect(d.size).toBe(3);
    expect(d.seenAny([row('t1', 1000)])).toBe(false);
    expect(d.seenAny([row('t9', 9000), row('t4', 4000)])).toBe(true);
  });
});
