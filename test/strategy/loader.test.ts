import { mkdtempSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StrategyError } from '../../src/core/errors.ts';
import { STRATEGY_API_VERSION } from '../../src/strategy/api.ts';
import { checkDefinition, loadStrategy } from '../../src/strategy/loader.ts';

const STRATEGIES = resolve('strategies');

describe('strategy loader', () => {
  it('loads every strategy module shipped in strategies/ from TypeScript, without a build', async () => {
    const files = readdirSync(STRATEGIES).filter((f) => f.endsWith('.ts'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const file of files) {
      const def = await loadStrategy(join(STRATEGIES, file), STRATEGIES, STRATEGIES);
      expect(def.apiVersion).toBe(STRATEGY_API_VERSION);
      expect(typeof def.name).toBe('string');
    }
  });

  it('refuses a module built for another API version, naming both versions', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-strat-'));
    const file = join(dir, 'old.mjs');
    writeFileSync(file, `export default { name: 'old', apiVersion: ${STRATEGY_API_VERSION + 1}, onBook() {} };\n`);
    await expect(loadStrategy(file, dir, dir)).rejects.toThrow(new RegExp(`version ${STRATEGY_API_VERSION + 1}.*version ${STRATEGY_API_VERSION}`));
  });

  it('names a missing module and where it looked', async () => {
    await expect(loadStrategy('nope.ts', '/tmp', STRATEGIES)).rejects.toThrow(/'nope.ts' not found \(looked in/);
  });

  it('refuses definitions without a name, with non-function hooks, or without a default export', () => {
    expect(() => checkDefinition(undefined, 'x')).toThrow(StrategyError);
    expect(() => checkDefinition({ apiVersion: STRATEGY_API_VERSION }, 'x')).toThrow(/no name/);
    expect(() => checkDefinition({ name: 'n', apiVersion: STRATEGY_API_VERSION, onBook: 5 }, 'x')).toThrow(/onBook must be a function/);
    expect(() => checkDefinition({ name: 'n', apiVersion: STRATEGY_API_VERSION, timerIntervalMs: -1 }, 'x')).toThrow(/timerIntervalMs/);
  });

  it('reports a module that fails to load', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-strat-'));
    const file = join(dir, 'broken.mjs');
    writeFileSync(file, 'export default {;\n');
    await expect(loadStrategy(file, dir, dir)).rejects.toThrow(/failed to load/);
  });
});
