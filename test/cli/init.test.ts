import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { defaultClobotSpec } from '../../src/cli/commands/init.ts';
import { runStrategy } from '../../src/testing/index.ts';
import { readRecordingSync } from '../../src/data/recording/reader.ts';

const root = mkdtempSync(join(tmpdir(), 'clobot-init-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs the CLI in-process; returns its exit code and what it wrote. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = process.stdout.write.bind(process.stdout);
  const stderr = process.stderr.write.bind(process.stderr);
  process.stdout.write = (chunk: string) => ((out += chunk), true);
  process.stderr.write = (chunk: string) => ((err += chunk), true);
  try {
    const code = await main(['node', 'clobot', ...args]);
    return { code, out, err };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(relative(dir, join(e.parentPath, e.name)));
  return out.sort();
}

describe('clobot init', () => {
  it('writes a project: package, tsconfig, strategy, three configs, a test, a recording, a README', async () => {
    const dir = join(root, 'My Bot');
    const r = await cli('init', dir, '--clobot', 'file:../clobot-0.1.0.tgz');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(files(dir)).toEqual([
      '.gitignore', 'README.md', 'config/backtest.yaml', 'config/live.yaml', 'config/paper.yaml', 'data/sample.jsonl.gz',
      'package.json', 'strategies/quoter.ts', 'test/quoter.test.ts', 'tsconfig.json',
    ]);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'my-bot', type: 'module', dependencies: { clobot: 'file:../clobot-0.1.0.tgz' } });
    expect(pkg.devDependencies).toEqual({ '@types/node': '20.19.43', typescript: '5.9.3', vitest: '4.1.12' });
    const strategy = readFileSync(join(dir, 'strategies/quoter.ts'), 'utf8');
    expect(strategy).toContain("name: 'quoter'");
    expect(strategy).toMatch(/from 'clobot';/);
    expect(readFileSync(join(dir, 'config/live.yaml'), 'utf8')).toMatch(/embedded:[\s\S]*baseUrl/);
    expect(readRecordingSync(join(dir, 'data/sample.jsonl.gz')).events.length).toBeGreaterThan(1000);
    expect(r.out).toContain('npm install');
  });

  it("its strategy trades the project's sample recording (fills) through clobot/testing", async () => {
    const dir = join(root, 'fills');
    expect((await cli('init', dir)).code).toBe(0);
    const run = await runStrategy(join(dir, 'strategies/quoter.ts'), { recording: join(dir, 'data/sample.jsonl.gz'), params: { size: 10 }, latencyMs: 50 });
    expect(run.faults).toEqual([]);
    expect(run.fills.length).toBeGreaterThan(10);
  });

  it('refuses a folder that is not empty, and a file', async () => {
    const dir = join(root, 'taken');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await cli('init', dir);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/taken is not empty \(1 entries, e\.g\. notes\.txt\)/);
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    expect((await cli('init', join(dir, 'notes.txt'))).err).toMatch(/exists and is not a folder/);
  });

  it('depends on the clobot of the package.json above it (a file: spec rebased), else on this checkout', () => {
    const parent = join(root, 'consumer');
    mkdirSync(parent);
    writeFileSync(join(parent, 'package.json'), JSON.stringify({ dependencies: { clobot: 'file:clobot-0.1.0.tgz' } }));
    expect(defaultClobotSpec(join(parent, 'bot'), '0.1.0')).toBe('file:../clobot-0.1.0.tgz');
    writeFileSync(join(parent, 'package.json'), JSON.stringify({ dependencies: { clobot: '^0.1.0' } }));
    expect(defaultClobotSpec(join(parent, 'bot'), '0.1.0')).toBe('^0.1.0');
    // no package.json above that names clobot: this checkout
    expect(defaultClobotSpec(join(root, 'x', 'bot'), '0.1.0')).toMatch(/^file:(\.\.\/)+/);
  });
});

describe('clobot new-strategy', () => {
  it('adds a strategy from the template, refusing a bad name, an existing file and a folder without package.json', async () => {
    const dir = join(root, 'proj');
    expect((await cli('init', dir)).code).toBe(0);
    const r = await cli('new-strategy', 'band-quoter', '--dir', dir);
    expect(r.code).toBe(0);
    expect(r.out).toContain('strategies/band-quoter.ts');
    expect(readFileSync(join(dir, 'strategies/band-quoter.ts'), 'utf8')).toContain("name: 'band-quoter'");

    const again = await cli('new-strategy', 'band-quoter', '--dir', dir);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/band-quoter\.ts already exists/);
    for (const bad of ['Band', '../x', 'a--b', '9lives', 'x.ts']) {
      const b = await cli('new-strategy', bad, '--dir', dir);
      expect(b.code, bad).toBe(2);
      expect(b.err).toMatch(/use lower-case letters/);
    }
    const lost = await cli('new-strategy', 'x', '--dir', root);
    expect(lost.code).toBe(2);
    expect(lost.err).toMatch(/has no package\.json/);
  });
});
