#!/usr/bin/env node
// Entry point of the `clobot` command.
//
// In a checkout of this repository (src/cli/main.ts is there) it runs the TypeScript sources
// through tsx: no build step, and `clobot` / `clobot/testing` imports resolve to src/ through the
// repository's tsconfig paths (TSX_TSCONFIG_PATH, which worker threads inherit). In an installed
// package (no src/cli/) it runs the compiled dist/; tsx is registered all the same, so a user's
// `.ts` strategy loads from any folder with no build step.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const source = new URL('../src/cli/main.ts', import.meta.url);
const checkout = existsSync(fileURLToPath(source));
if (checkout) process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../tsconfig.json', import.meta.url));
register();
const { main } = /** @type {{ main(argv: string[]): Promise<number> }} */ (await import(checkout ? source.href : '../dist/cli/main.js'));
process.exitCode = await main(process.argv);
