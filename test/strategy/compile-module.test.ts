import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCompiled } from '../../src/strategy/compile-module.ts';
import { TempDir } from '../backtest/helpers.ts';

/** A TypeScript module compiled and imported in this thread (how a backtest of dist/ loads a `.ts` strategy). */

const tmp = new TempDir();
afterAll(() => tmp.remove());

describe('importCompiled', () => {
  tmp.write('helper.ts', `export const half = (n: number): number => n / 2;\nexport function boom(): never { throw new Error('boom'); }\n`);
  tmp.write('mapped.ts', `export const mapped: string = 'through paths';\n`);
  tmp.write('tsconfig.json', JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@here/*': ['./*'] } } }));
  const entry = tmp.write(
    'strategy.ts',
    `import { join } from 'node:path';\nimport { half, boom } from './helper.ts';\nimport { mapped } from '@here/mapped';\n` +
      `interface Def { name: string; half: number; joined: string; mapped: string; where: string; boom: () => never }\n` +
      `const def: Def = { name: 'x', half: half(6), joined: join('a', 'b'), mapped, where: import.meta.url, boom };\nexport default def;\n`,
  );

  it('bundles its relative imports (and tsconfig paths), keeps packages as imports, and leaves no file behind', async () => {
    const before = readdirSync(tmp.dir).sort();
    const mod = (await importCompiled(entry, { tsconfig: true }))!;
    const def = mod.default as { name: string; half: number; joined: string; mapped: string; where: string };
    expect(def).toMatchObject({ name: 'x', half: 3, joined: 'a/b', mapped: 'through paths' });
    // imported from its own folder: import.meta.url names it
    expect(def.where.startsWith(new URL(`file://${tmp.dir}/`).href)).toBe(true);
    expect(readdirSync(tmp.dir).sort()).toEqual(before);
  });

  it("a stack trace names the module's own file and line (inline source map)", async () => {
    const mod = (await importCompiled(entry, { tsconfig: true }))!;
    const def = mod.default as { boom: () => never };
    let stack = '';
    try {
      def.boom();
    } catch (err) {
      stack = (err as Error).stack ?? '';
    }
    expect(stack).toMatch(/helper\.ts:2:\d+/);
  });

  it('tsconfig: false ignores tsconfig.json paths (the import is left to node, which does not find it)', async () => {
    await expect(importCompiled(entry, { tsconfig: false })).rejects.toThrow(/@here\/mapped/);
    expect(readdirSync(tmp.dir).some((f) => f.startsWith('.strategy.ts.'))).toBe(false);
  });

  it('a syntax error: one error naming the file and line', async () => {
    const bad = tmp.write('bad.ts', `export default {\n  name: 'bad',,\n};\n`);
    await expect(importCompiled(bad, { tsconfig: true })).rejects.toThrow(/bad\.ts:2:/);
  });
});

describe('importCompiled: files of another package', () => {
  const other = new TempDir();
  afterAll(() => other.remove());

  it('a module importing a file of another package (its package imports would resolve from elsewhere): undefined, no file left', async () => {
    other.write('package.json', '{"type":"module"}');
    mkdirSync(join(other.dir, 'lib'));
    writeFileSync(join(other.dir, 'lib', 'package.json'), '{"name":"lib"}');
    writeFileSync(join(other.dir, 'lib', 'util.ts'), 'export const one = 1;\n');
    const entry = other.write('s.ts', `import { one } from './lib/util.ts';\nexport default { name: 's', one };\n`);
    expect(await importCompiled(entry, { tsconfig: true })).toBeUndefined();
    expect(readdirSync(other.dir).some((f) => f.startsWith('.s.ts.'))).toBe(false);
  });
});
