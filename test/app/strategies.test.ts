import { describe, expect, it } from 'vitest';
import { loadRunStrategies } from '../../src/app/strategies.ts';
import { loadConfig } from '../../src/config/load-config.ts';
import { tempDir } from '../config/helpers.ts';

/** The one place a run's strategies are loaded: live, paper, backtest and sweep points alike. */

const tmp = tempDir();

function config(strategies: string[]): ReturnType<typeof loadConfig> {
  const text = ['mode: backtest', 'data:', '  markets: { slugs: [some-market] }', 'strategies:', ...strategies, 'logging: { level: silent }', ''].join('\n');
  return loadConfig(tmp.write(`c${Math.random().toString(36).slice(2)}.yaml`, text), {});
}

describe('loadRunStrategies', () => {
  it('loads the enabled strategies by the module name the config gives, with their parsed params', async () => {
    const c = config([
      '  - { id: mm, module: market-maker.ts, params: { size: 7 } }',
      '  - { id: off, module: market-maker.ts, enabled: false }',
      '  - { id: band, module: strategies/02-band-quoter.ts }',
    ]);
    const loaded = await loadRunStrategies(c);
    expect(loaded.map((s) => [s.config.id, s.index, s.loaded.definition.name])).toEqual([
      ['mm', 0, 'market-maker'],
      ['band', 2, 'band-quoter'],
    ]);
    expect(loaded[0]!.loaded.params).toMatchObject({ size: 7 });
    expect(Object.isFrozen(loaded[0]!.loaded.params)).toBe(true);
  });

  it('applies a sweep point over the configured params and checks it with the strategy schema', async () => {
    const c = config(['  - { id: mm, module: market-maker.ts, params: { size: 7 } }']);
    const [mm] = await loadRunStrategies(c, { overrides: [{ strategyId: 'mm', path: ['size'], value: 3 }] });
    expect(mm!.loaded.params).toMatchObject({ size: 3 });
    await expect(loadRunStrategies(c, { overrides: [{ strategyId: 'mm', path: ['size'], value: -1 }] })).rejects.toThrow(/^strategies\.mm\.params\.size: /);
    await expect(loadRunStrategies(c, { overrides: [{ strategyId: 'other', path: ['size'], value: 1 }] })).rejects.toThrow("--sweep other.size: no enabled strategy 'other'");
  });

  it('refuses a config with no enabled strategy, and names a module it cannot find', async () => {
    await expect(loadRunStrategies(config(['  - { id: mm, module: market-maker.ts, enabled: false }']))).rejects.toThrow(/no enabled strategy/);
    await expect(loadRunStrategies(config(['  - { id: mm, module: ./nowhere.ts }']))).rejects.toThrow(/strategy module '\.\/nowhere\.ts' not found \(looked in .*nowhere\.ts\)/);
  });
});
