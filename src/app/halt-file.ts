import { existsSync } from 'node:fs';
import { interval, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';

/** What a halt file switches. */
export interface Haltable {
  halt(reason: string): void;
  resume(): void;
}

/** Trading halts while the halt file exists (checked every second on the clock). */
export function watchHaltFile(path: string, target: Haltable, clock: Clock): Subscription {
  let haltedByFile = false;
  return interval(1_000, clock.scheduler).subscribe(() => {
    const present = existsSync(path);
    if (present && !haltedByFile) {
      haltedByFile = true;
      target.halt(`halt file ${path} exists`);
    } else if (!present && haltedByFile) {
      haltedByFile = false;
      target.resume();
    }
  });
}
