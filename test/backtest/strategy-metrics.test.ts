import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import type { BacktestData } from '../../src/backtest/backtest-data.ts';
import { renderReport } from '../../src/backtest/report.ts';
import { summaryRows } from '../../src/backtest/summary-rows.ts';
import { defineStrategy, type StrategyDefinition } from '../../src/strategy/api.ts';
import { backtestConfig, bookEvent, COND, header, T0, TempDir } from './helpers.ts';

/** `ctx.metric(name, value)`: a strategy's own figures in the summary, the table and the report. */

const tmp = new TempDir();
afterAll(() => tmp.remove());

const CONFIG = `
mode: backtest
name: own-figures
data:
  markets: { conditionIds: ["${COND}"] }
strategies:
  - id: watcher
    module: ./watcher.ts
  - id: quiet
    module: ./quiet.ts
backtest:
  equityIntervalMs: 1000
`;

function data(): BacktestData {
  const events = [0, 1, 2].map((i) => bookEvent(T0 + i * 1000, [[`0.5${i}`, '100']], [['0.60', '100']]));
  return { name: 'own.jsonl', header: header(), events: () => events };
}

/** Counts the books it saw and keeps the last best bid; a bad call is tried once, when asked. */
function watcher(bad?: { name: string; value: number }): StrategyDefinition {
  let books = 0;
  return defineStrategy({
    name: 'watcher',
    onBook({ ctx, market }) {
      books++;
      ctx.metric('books', books);
      ctx.metric('last.bid', (market.bestBid ?? 0) / 1e6);
      if (bad) ctx.metric(bad.name, bad.value);
      return undefined;
    },
  });
}

const quiet = defineStrategy({ name: 'quiet' });

describe('ctx.metric', async () => {
  const config = backtestConfig(tmp, CONFIG);
  const result = await runBacktest({ config, data: data(), definitions: { watcher: watcher(), quiet } });

  it('keeps the latest value of each name, per strategy, in summary.json', () => {
    expect(result.summary.strategies.map((x) => [x.id, x.metrics])).toEqual([
      ['watcher', { books: 3, 'last.bid': 0.52 }],
      ['quiet', {}],
    ]);
  });

  it('shows them in the table rows and the report', () => {
    const rows = summaryRows(result.summary);
    expect(rows).toContainEqual(['watcher: books', '3']);
    expect(rows).toContainEqual(['watcher: last.bid', '0.52']);
    expect(renderReport(result)).toContain('<tr><td>watcher: last.bid</td><td>0.52</td></tr>');
  });

  it('a bad name or value is the strategy fault, naming what was wrong', async () => {
    for (const [bad, message] of [
      [{ name: 'no spaces', value: 1 }, 'ctx.metric: name "no spaces" must be 1 to 64 letters, digits, _, . or -, starting with a letter'],
      [{ name: 'x', value: Number.NaN }, 'ctx.metric x: value must be a finite number, was NaN'],
    ] as const) {
      const r = await runBacktest({ config, data: data(), definitions: { watcher: watcher(bad), quiet }, keepGoing: true });
      expect(r.summary.faults.first?.message).toContain(message);
    }
  });
});
