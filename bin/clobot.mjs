#!/usr/bin/env node
// Entry point of the `clobot` command.
//
// In a checkout of this repository (src/cli/main.ts is there) it runs the TypeScript sources
// through tsx: no build step, and `clobot` / `clobot/testing` imports resolve to src/ through the
// repository's tsconfig paths (TSX_TSCONFIG_PATH, which worker threads inherit). In an installed
// package (no src/cli/) it runs the compiled dist/; tsx is registered all the same, so a user's
// `.ts` strategy loads from any folder with no build step (a backtest compiles it in-thread instead).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { relaunch, relaunchFlags } from './relaunch.mjs';

// `clobot backtest` runs in a node started with a smaller young generation (bin/relaunch.mjs);
// this process then only waits for it, having loaded nothing else
const flags = relaunchFlags();
if (flags !== undefined) relaunch(flags);
else await start();

/** Loads the command line (tsx registered, so a `.ts` strategy loads, but for a backtest of dist/) and runs it. */
async function start() {
  // `clobot run` takes SIGUSR2 (halt, then resume) from its first instruction: loading the sources
  // takes seconds on a loaded machine, and a SIGUSR2 before the run's own listener would end the
  // process (the signal's default). Until the run takes them over (src/cli/early-signals.ts), they
  // are counted here.
  if (process.argv[2] === 'run') {
    let usr2 = 0;
    const count = () => {
      usr2++;
    };
    process.on('SIGUSR2', count);
    globalThis[Symbol.for('clobot.earlySignals')] = {
      take() {
        process.off('SIGUSR2', count);
        return usr2;
      },
    };
  }

  // CLOBOT_RUN_DIST=1 runs the compiled dist/ in a checkout too (`npm run bench:dist` sets it, so the
  // sandbox a bench spawns is the shipped one)
  const source = new URL('../src/cli/main.ts', import.meta.url);
  const checkout = process.env.CLOBOT_RUN_DIST !== '1' && existsSync(fileURLToPath(source));
  if (checkout) process.env.TSX_TSCONFIG_PATH ??= fileURLToPath(new URL('../tsconfig.json', import.meta.url));
  // a backtest of the compiled dist/ compiles a `.ts` strategy in its own thread
  // (src/strategy/compile-module.ts): tsx's loader would add a thread of ~25-30 MB
  if (checkout || process.argv[2] !== 'backtest') {
    const { register } = await import('tsx/esm/api');
    register();
  }
  const { main } = /** @type {{ main(argv: string[]): Promise<number> }} */ (await import(checkout ? source.href : '../dist/cli/main.js'));
  process.exitCode = await main(process.argv);
}
