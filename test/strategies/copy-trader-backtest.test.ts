import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMicros } from 'clobot';
import { runStrategy, scriptedBooks } from 'clobot/testing';
import { convertRecording } from '../../src/data/recording/convert-recording.ts';
import { serializeSummary } from '../../src/backtest/summary.ts';

const MODULE = 'strategies/copy-trader.ts';
const LEADERS = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000a2'];
const dir = mkdtempSync(join(tmpdir(), 'copy-trader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A recording of three markets whose books move every second; two leaders buy before a market
 * moves their way (one transaction of two fills, one of one), heard a poll (800 ms) after they
 * traded, and sell after the move; a third trade, by a wallet nobody copies, too.
 */
function recording() {
  const script = scriptedBooks();
  const markets = ['rain', 'snow', 'wind'].map((slug) => script.market({ slug }));
  const mids = [0.4, 0.55, 0.3];
  for (let t = 0; t <= 60_000; t += 1_000) {
    // rain rises from 20 s (leader 0 bought at 15 s), wind falls from 35 s (leader 1 bought its NO at 30 s)
    if (t === 20_000) mids[0] = 0.5;
    if (t === 35_000) mids[2] = 0.2;
    script.at(t);
    markets.forEach((m, i) => {
      const wiggle = ((t / 1_000) % 3) * 0.01;
      const bid = (mids[i]! - 0.01 + wiggle).toFixed(2);
      const ask = (mids[i]! + 0.01 + wiggle).toFixed(2);
      script.book(m.yes, { bids: [[bid, '300']], asks: [[ask, '300']] });
      script.book(m.no, { bids: [[(1 - Number(ask)).toFixed(2), '300']], asks: [[(1 - Number(bid)).toFixed(2), '300']] });
    });
    if (t === 15_000) {
      script.walletTrade(markets[0]!.yes, { wallet: LEADERS[0]!, side: 'BUY', price: '0.42', size: '60', txHash: '0x01', tradedAt: 14_200 });
      script.walletTrade(markets[0]!.yes, { wallet: LEADERS[0]!, side: 'BUY', price: '0.43', size: '20', txHash: '0x01', tradedAt: 14_200 });
      script.walletTrade(markets[1]!.yes, { wallet: '0x00000000000000000000000000000000000000ff', side: 'BUY', price: '0.56', size: '50', tradedAt: 14_500 });
    }
    if (t === 30_000) script.walletTrade(markets[2]!.no, { wallet: LEADERS[1]!, side: 'BUY', price: '0.7', size: '40', txHash: '0x02', tradedAt: 29_200 });
    if (t === 45_000) script.walletTrade(markets[0]!.yes, { wallet: LEADERS[0]!, side: 'SELL', price: '0.5', size: '80', txHash: '0x03', tradedAt: 44_200 });
    if (t === 50_000) script.walletTrade(markets[2]!.no, { wallet: LEADERS[1]!, side: 'SELL', price: '0.79', size: '40', txHash: '0x04', tradedAt: 49_200 });
  }
  return { script, markets };
}

describe('copy-trader backtest on a recording', () => {
  it('copies each leader transaction once and exits with it; text and binary give the same orders; two runs the same summary.json', async () => {
    const { script, markets } = recording();
    const text = join(dir, 'leaders.jsonl');
    await script.write(text);
    const binary = join(dir, 'leaders.bin');
    await convertRecording(text, binary, 'binary');
    const params = { leaders: LEADERS, scale: 0.5, delayMs: 200, maxSlippage: 0.03, maxTradeUsdc: 50 };
    const run = (path: string) => runStrategy(MODULE, { recording: path, latencyMs: 100, params });

    const first = await run(text);
    expect(first.faults).toEqual([]);
    const orders = first.orders.map((o) => [o.tokenId, o.side, fromMicros(o.size), o.status]);
    expect(orders).toEqual([
      // leader 0's transaction of two fills (80 shares): one copy of 40
      [markets[0]!.yes, 'BUY', '40', 'FILLED'],
      [markets[2]!.no, 'BUY', '20', 'FILLED'],
      [markets[0]!.yes, 'SELL', '40', 'FILLED'],
      [markets[2]!.no, 'SELL', '20', 'FILLED'],
    ]);
    // the copies bought before the moves and sold after them: both made money
    expect(Number(first.summary.strategies[0]!.pnl.realized)).toBeGreaterThan(0);
    expect(first.summary.strategies[0]!.metrics).toEqual({ copies: 2, exits: 2 });
    expect(first.positions.every((p) => p.size === 0)).toBe(true);

    const fromBinary = await run(binary);
    expect(fromBinary.orders).toEqual(first.orders);
    const again = await run(text);
    expect(serializeSummary(again.summary)).toBe(serializeSummary(first.summary));
  });
});
