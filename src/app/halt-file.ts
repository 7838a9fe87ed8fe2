import { existsSync } from 'node:fs';
import { interval, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { CommandResult, EngineCommand } from '../engine/commands.ts';

/** Who applies the halt file's commands: the run's engine. */
export interface Commandable {
  command(command: EngineCommand): CommandResult;
}

/**
 * The halt file is a client of the engine's commands: while the file exists the `file` halt is
 * on, and removing it lifts that halt only (a SIGUSR2 or a manual halt stays on). Read at once,
 * when the watch begins (call it before the engine starts, so a run started with the file present
 * sends no order at all), then every second on the clock.
 */
export function watchHaltFile(path: string, target: Commandable, clock: Clock): Subscription {
  let haltedByFile = false;
  const look = (): void => {
    const present = existsSync(path);
    if (present && !haltedByFile) {
      haltedByFile = true;
      target.command({ type: 'halt', name: 'file', reason: `halt file ${path} exists` });
    } else if (!present && haltedByFile) {
      haltedByFile = false;
      target.command({ type: 'resume', name: 'file' });
    }
  };
  look();
  return interval(1_000, clock.scheduler).subscribe(look);
}
