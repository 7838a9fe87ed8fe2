#!/usr/bin/env node
// `npm run bench:dist -- <name>`: the benchmarks against what ships. Builds dist/ as `npm run
// build` does (tsc, bin/build-dist.mjs), compiles the bench files (and the test/ helpers they
// import) to JavaScript in dist-bench/ (outside the package's `files`), where dist-bench/src is a
// link to dist/: a bench's `../src/x.js` import loads the compiled module an installed clobot
// runs. Then it runs the compiled bench/index.js with the same arguments as `npm run bench`.
// Commands the benches spawn (bin/clobot.mjs) run dist/ too (CLOBOT_RUN_DIST=1).
//
// The bench files go through TypeScript's own emitter one file at a time (transpileModule; the
// repository compiles with isolatedModules, so this is the output tsc gives for them); their
// types are checked with the rest by `npx tsc --noEmit -p .`.
// CLOBOT_BENCH_NO_BUILD=1 skips the dist/ build (a second run on an unchanged tree).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist-bench');
const SRC = join(ROOT, 'src');
const ts = createRequire(import.meta.url)('typescript');

if (process.env.CLOBOT_BENCH_NO_BUILD !== '1' || !existsSync(join(ROOT, 'dist', 'index.js'))) {
  const built = spawnSync(process.execPath, [join(ROOT, 'bin', 'build-dist.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** Every file under `dir` (recursively) whose name ends with `.ts` or `.mjs`. */
function* sources(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'out') yield* sources(path);
    else if (entry.isFile() && /\.(ts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield path;
  }
}

const compilerOptions = {
  module: ts.ModuleKind.ESNext,
  target: ts.ScriptTarget.ES2022,
  verbatimModuleSyntax: true,
  rewriteRelativeImportExtensions: true,
  sourceMap: false,
};

rmSync(OUT, { recursive: true, force: true });
const queue = [...sources(join(ROOT, 'bench'))];
const done = new Set();
while (queue.length > 0) {
  const file = queue.shift();
  if (done.has(file)) continue;
  done.add(file);
  const text = readFileSync(file, 'utf8');
  const rel = relative(ROOT, file);
  // the relative imports outside src/ (test/ helpers a bench uses) are compiled too
  for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolve(dirname(file), fileName);
    if (!target.startsWith(SRC + sep) && /\.(ts|mjs)$/.test(target) && existsSync(target)) queue.push(target);
  }
  const target = join(OUT, rel.replace(/\.ts$/, '.js'));
  mkdirSync(dirname(target), { recursive: true });
  if (file.endsWith('.mjs')) {
    copyFileSync(file, target);
    continue;
  }
  const out = ts.transpileModule(text, { compilerOptions, fileName: file, reportDiagnostics: true });
  if (out.diagnostics?.length) {
    console.error(`clobot: ${rel}: ${ts.flattenDiagnosticMessageText(out.diagnostics[0].messageText, '\n')}`);
    process.exit(1);
  }
  writeFileSync(target, out.outputText);
}
// ESM resolves through the link to the real path: the modules loaded are dist/'s own
symlinkSync(join('..', 'dist'), join(OUT, 'src'), 'dir');
console.log(`clobot: compiled ${done.size} bench files to dist-bench/ (src/ -> dist/)`);

const ran = spawnSync(process.execPath, [...process.execArgv, join(OUT, 'bench', 'index.js'), ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, CLOBOT_RUN_DIST: '1' },
});
process.exit(ran.status ?? 1);
