/**
 * SIGUSR2s that reached `clobot run` before its own listener: bin/clobot.mjs counts them from its
 * first instruction (a SIGUSR2 would otherwise end the process while its sources load). The run
 * takes the count once, after installing its listener, and stops the early one: an odd count
 * means it starts halted (each SIGUSR2 toggles the `signal` halt).
 */
interface EarlySignals {
  take(): number;
}

const KEY = Symbol.for('clobot.earlySignals');

/** The SIGUSR2s counted before this call (0 when nothing counted them), and the counting ends. */
export function takeEarlyUsr2(): number {
  const holder = globalThis as { [KEY]?: EarlySignals };
  const early = holder[KEY];
  if (early === undefined) return 0;
  delete holder[KEY];
  return early.take();
}
