import { existsSync } from 'node:fs';
import { interval, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';

/** What a halt file switches. */
export interface Haltable {
  halt(reason: string): void;
  resume(): void;
}

/**
 * Trading halts while the halt file exists: read at once, when the watch begins (call it before
 * the engine starts, so a run started with the file present sends no order at all), then every
 * second on the clock.
 */
export function watchHaltFile(path: string, target: Haltable, clock: Clock): Subscription {
  let haltedByFile = false;
  const look = (): void => {
    const present = existsSync(path);
    if (present && !haltedByFile) {
      haltedByFile = true;
      target.halt(`halt file ${path} exists`);
    } else if (!present && haltedByFile) {
      haltedByFile = false;
      target.resume();
    }
  };
  look();
  return interval(1_000, clock.scheduler).subscribe(look);
}
