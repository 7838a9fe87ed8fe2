#!/usr/bin/env node
// Runs one TypeScript file (a benchmark, a worker) through tsx without a build step; `clobot`
// imports resolve to src/ through the repository's tsconfig paths (TSX_TSCONFIG_PATH).
import { register } from 'tsx/esm/api';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../tsconfig.json', import.meta.url));
register();
const file = process.argv[2];
if (!file) {
  console.error('usage: run-ts.mjs <file.ts> [args...]');
  process.exit(2);
}
process.argv.splice(1, 1);
await import(pathToFileURL(resolve(file)).href);
