import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { syntheticEvents, syntheticHeader, type SyntheticOptions } from '../../backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../../data/recording/writer.ts';
import { parsePathOption } from '../options.ts';
import { UsageError } from '../usage-error.ts';

/** clobot's package root (this file is src/cli/commands/ in a checkout, dist/cli/commands/ when installed). */
const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The files `clobot init` and `clobot new-strategy` write, with their {{placeholders}}. */
export const TEMPLATES_DIR = join(PACKAGE_ROOT, 'templates');
/** The strategy template; `__NAME__` becomes the strategy's name. */
const STRATEGY_TEMPLATE = join(TEMPLATES_DIR, 'strategy.ts');
/** The first strategy of a new project (its configs and test name it). */
const FIRST_STRATEGY = 'quoter';
/** The project's small recording: synthetic books and trades on 3 markets, a few minutes of virtual time. */
const SAMPLE_RECORDING = 'data/sample.jsonl.gz';
const SAMPLE: SyntheticOptions = { seed: 7, markets: 3, events: 4_000, meanGapMs: 100, tradeShare: 0.2 };

/**
 * `clobot init <dir>`: writes a new trading project into an empty or new folder: package.json
 * depending on clobot, tsconfig, strategies/quoter.ts from the strategy template, config/
 * live, paper and backtest YAML (live and paper on the embedded sandbox), a test using
 * clobot/testing, a small synthetic recording and a README. Refuses a folder that is not empty.
 */
export function registerInit(program: Command): void {
  program
    .command('init')
    .description('write a new strategy project (package.json, tsconfig, a strategy, live/paper/backtest configs, a test, a sample recording) into an empty folder')
    .argument('<dir>', 'the folder to create (or an empty one)', parsePathOption)
    .option('--clobot <spec>', "the project's dependency on clobot, as npm takes it (default: the clobot this project's parent uses, else ^<this version>)")
    .action(async (dir: string, opts: { clobot?: string }) => {
      const target = resolve(dir);
      const written = await initProject(target, { clobotSpec: opts.clobot });
      const shown = relative(process.cwd(), target) || '.';
      process.stdout.write(
        `created ${shown}/ (${written.length} files)\n` +
          `next:\n  cd ${shown}\n  npm install\n  npm test\n` +
          `  npx clobot backtest config/backtest.yaml --data ${SAMPLE_RECORDING}\n  npx clobot run config/live.yaml --duration 1m\n`,
      );
    });
}

export interface InitOptions {
  /** The dependency spec for clobot in the new package.json; default: see defaultClobotSpec. */
  readonly clobotSpec?: string;
}

/** Writes the project into `target` (absolute); returns the files written, relative to it. */
export async function initProject(target: string, options: InitOptions = {}): Promise<string[]> {
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) throw new UsageError(`init: ${target} exists and is not a folder`);
    const entries = readdirSync(target);
    if (entries.length > 0) throw new UsageError(`init: ${target} is not empty (${entries.length} entries, e.g. ${entries[0]}); give a new or empty folder`);
  }
  const own = packageJson(PACKAGE_ROOT);
  const dev = (own['devDependencies'] ?? {}) as Record<string, string>;
  const values: Record<string, string> = {
    name: packageName(basename(target)),
    clobot: options.clobotSpec ?? defaultClobotSpec(target, String(own['version'])),
    typescript: dev['typescript'] ?? '^5.9.0',
    vitest: dev['vitest'] ?? '^4.0.0',
    '@types/node': dev['@types/node'] ?? '^20.19.0',
  };
  const written: string[] = [];
  const projectDir = join(TEMPLATES_DIR, 'project');
  for (const file of filesUnder(projectDir)) {
    const rel = relative(projectDir, file);
    // npm leaves .gitignore files out of packages: the template is `gitignore`
    const out = rel === 'gitignore' ? '.gitignore' : rel;
    writeNew(join(target, out), render(readFileSync(file, 'utf8'), values, file));
    written.push(out);
  }
  written.push(writeStrategy(target, FIRST_STRATEGY));
  await writeSample(join(target, SAMPLE_RECORDING));
  written.push(SAMPLE_RECORDING);
  return written;
}

/**
 * Writes strategies/<name>.ts in `project` from the strategy template; returns its path relative
 * to the project. Refuses a name that is not kebab-case and a file that exists.
 */
export function writeStrategy(project: string, name: string): string {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name) || name.length > 64) {
    throw new UsageError(`strategy name '${name}': use lower-case letters, digits and single dashes, starting with a letter (e.g. band-quoter), at most 64 characters`);
  }
  const rel = join('strategies', `${name}.ts`);
  const path = join(project, rel);
  if (existsSync(path)) throw new UsageError(`${path} already exists; choose another name`);
  writeNew(path, readFileSync(STRATEGY_TEMPLATE, 'utf8').replaceAll('__NAME__', name));
  return rel;
}

/**
 * How the new project depends on clobot: the spec of the nearest package.json above it that
 * depends on clobot (a `file:` spec rebased onto the new folder: a tarball or a checkout installs
 * the same way), else this checkout as `file:<path>` when clobot runs from its repository, else
 * `^<version>` from the registry.
 */
export function defaultClobotSpec(target: string, version: string): string {
  for (let dir = dirname(target); ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = packageJson(dir);
      const deps = { ...(pkg['devDependencies'] as object | undefined), ...(pkg['dependencies'] as object | undefined) } as Record<string, string>;
      const spec = deps['clobot'];
      if (spec !== undefined && pkg['name'] !== 'clobot') {
        if (!spec.startsWith('file:') || isAbsolute(spec.slice(5))) return spec;
        return `file:${relative(target, resolve(dir, spec.slice(5)))}`;
      }
    }
    if (dirname(dir) === dir) break;
  }
  if (existsSync(join(PACKAGE_ROOT, 'src', 'cli', 'main.ts'))) return `file:${relative(target, PACKAGE_ROOT)}`;
  return `^${version}`;
}

function packageJson(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
}

/** An npm package name from a folder name: lower case, [a-z0-9._-] only. */
function packageName(folder: string): string {
  const name = folder.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+|-+$/g, '');
  return name === '' ? 'clobot-project' : name;
}

/** `{{key}}` replaced by its value; a placeholder without a value is an error of the template. */
function render(text: string, values: Readonly<Record<string, string>>, file: string): string {
  return text.replace(/\{\{([^}]+)\}\}/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`template ${file}: no value for {{${key}}}`);
    return value;
  });
}

function* filesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

/** Writes a file that must not exist yet (flag wx), creating its folder. */
function writeNew(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text, { flag: 'wx' });
}

async function writeSample(path: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  const writer = createRecordingWriter(path, syntheticHeader(SAMPLE));
  for (const event of syntheticEvents(SAMPLE)) writer.write(event);
  await writer.close();
}
