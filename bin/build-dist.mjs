#!/usr/bin/env node
// Builds what an installed clobot runs (`npm run build`; `prepare` and `prepack` run it): tsc
// compiles src/ to dist/ (JavaScript and .d.ts, tsconfig.build.json), then the plain-JavaScript
// worker entries of src/ (*.mjs) are copied beside their compiled modules, their `./x.ts`
// imports pointed at `./x.js`. In this repository nothing needs dist/: bin/clobot.mjs, vitest and
// the linters run the TypeScript sources.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

// `npm pack` and `npm publish` run prepack, then prepare: build once
if (process.env.npm_lifecycle_event === 'prepare' && ['pack', 'publish'].includes(process.env.npm_command ?? '')) process.exit(0);
rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const built = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { cwd: ROOT, stdio: 'inherit' });
if (built.status !== 0) {
  const why = `tsc -p tsconfig.build.json exited ${built.status ?? built.signal}`;
  // `npm install` in a checkout runs prepare: nothing there needs dist/, so a type error being
  // worked on does not fail the install; `npm pack` (prepack) and `npm run build` do fail
  if (process.env.npm_lifecycle_event === 'prepare') {
    console.warn(`clobot: dist/ not built (${why}); this checkout runs from src/, a package needs a clean build`);
    process.exit(0);
  }
  console.error(`clobot: the build failed (${why})`);
  process.exit(1);
}

/** Every *.mjs under `dir`, skipping the native addon's build output. */
function* workerEntries(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'build') yield* workerEntries(path);
    else if (entry.isFile() && entry.name.endsWith('.mjs')) yield path;
  }
}

let copied = 0;
for (const file of workerEntries(SRC)) {
  const target = join(DIST, relative(SRC, file));
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, readFileSync(file, 'utf8').replace(/(['"])(\.{1,2}\/[^'"]+)\.ts\1/g, '$1$2.js$1'));
  copied++;
}
// the dashboard's page, script and style are served from beside the compiled control server
const DASHBOARD = 'control/dashboard';
if (existsSync(join(SRC, DASHBOARD))) {
  mkdirSync(join(DIST, DASHBOARD), { recursive: true });
  for (const name of readdirSync(join(SRC, DASHBOARD))) copyFileSync(join(SRC, DASHBOARD, name), join(DIST, DASHBOARD, name));
}
// the signing addon, when bin/build-native.mjs built it, goes where the compiled native-addon.js looks
const ADDON = 'venue/signing/native/build/Release/clobot_signing.node';
if (existsSync(join(SRC, ADDON))) {
  mkdirSync(dirname(join(DIST, ADDON)), { recursive: true });
  copyFileSync(join(SRC, ADDON), join(DIST, ADDON));
}
console.log(`clobot: built dist/ (${copied} worker entries copied)`);
