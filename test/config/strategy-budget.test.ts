import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import { configErrorLines, lineOf, tempDir } from './helpers.ts';

const tmp = tempDir();
const base = 'mode: backtest\ndata:\n  markets: { slugs: [x] }\n';

describe("a strategy's budget in the config", () => {
  it('is exact Micros on the strategy', () => {
    const config = loadConfig(tmp.write('budget.yaml', `${base}strategies:\n  - id: a\n    module: a.ts\n    budget: "250.5"\n  - id: b\n    module: b.ts\n`), {}, { cwd: tmp.dir });
    expect(config.strategies.map((s) => [s.id, s.budget])).toEqual([
      ['a', 250_500_000],
      ['b', undefined],
    ]);
  });

  it('a bad value is one error naming the key and file:line', () => {
    const text = `${base}strategies:\n  - id: a\n    module: a.ts\n    budget: -5\n`;
    const path = tmp.write('bad-budget.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}, { cwd: tmp.dir }))).toEqual([`strategies[0].budget (${path}:${lineOf(text, 'budget')}): must be > 0, was -5`]);
  });

  it('is refused when risk.checks leaves out the check that enforces it', () => {
    const text = `${base}strategies:\n  - id: a\n    module: a.ts\n    budget: 10\nrisk:\n  checks: [killSwitch, tickGrid]\n`;
    const path = tmp.write('unchecked-budget.yaml', text);
    expect(configErrorLines(() => loadConfig(path, {}, { cwd: tmp.dir }))).toEqual([
      `strategies[0].budget (${path}:${lineOf(text, 'budget')}): is set but risk.checks leaves out strategyBudget, the check that enforces it: add it or drop the budget`,
    ]);
  });
});
