import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { createLogger, fieldLogger } from '../../src/core/log.ts';
import { defineStrategy } from '../../src/strategy/api.ts';
import { scriptedBooks } from '../../src/testing/scripted-books.ts';
import { backtestConfig, TempDir } from './helpers.ts';
import { logLinesOnceSeen } from '../log-file.ts';

/**
 * A backtest's log lines say when in the data they were written: `at`, the replayed time. pino's
 * `time` is the wall clock of the replay (a 3-minute recording replays in under a second), so a
 * trader reading backtest.log could not tell which book a strategy's line answered.
 */

const tmp = new TempDir();
afterAll(() => tmp.remove());

describe('the backtest log', () => {
  it('gives every line the replayed time it was written at', async () => {
    const s = scriptedBooks();
    const m = s.market({ tickSize: '0.01' });
    s.at(0).book(m.yes, { bids: [['0.40', '100']], asks: [['0.50', '100']] });
    s.at(65_000).book(m.yes, { bids: [['0.41', '100']], asks: [['0.49', '100']] });
    const logged = defineStrategy({
      name: 'logged',
      onBook({ ctx }) {
        ctx.log.info('book seen', { clockNow: ctx.clock.now() });
        return undefined;
      },
    });
    const file = tmp.path('backtest.log');
    const logger = createLogger({ level: 'info', file });
    const config = backtestConfig(tmp, 'mode: backtest\ndata:\n  markets: { filter: { maxCount: 1 } }\nstrategies:\n  - id: logged\n    module: ./logged.ts\n');
    await runBacktest({ config, data: s.toData('logged'), definitions: { logged }, log: fieldLogger(logger) });
    const lines = (await logLinesOnceSeen(file, (all) => all.filter((l) => l['msg'] === 'book seen').length === 2)) as { msg: string; at?: string; clockNow?: number; strategy?: string }[];
    const seen = lines.filter((l) => l.msg === 'book seen');
    expect(seen).toHaveLength(2);
    for (const l of seen) expect(l).toMatchObject({ strategy: 'logged', at: new Date(l.clockNow!).toISOString() });
    expect(seen[1]!.clockNow! - seen[0]!.clockNow!).toBe(65_000);
    // the engine's own lines too
    expect(lines.filter((l) => l.strategy === undefined).every((l) => typeof l.at === 'string')).toBe(true);
  });
});
