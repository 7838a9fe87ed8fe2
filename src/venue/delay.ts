import type { Clock } from '../core/clock.ts';
import { onAbort } from '../core/on-abort.ts';

/**
 * Waits `ms` on the injected clock's scheduler (real time under LiveClock, virtual time under
 * SimulatedClock). Rejects with the signal's reason when `signal` aborts first. Waits under one
 * signal share one listener on it (core/on-abort.ts).
 */
export function delay(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort reason as the caller gave it
      reject(signal.reason);
      return;
    }
    let detach: (() => void) | undefined;
    const subscription = clock.scheduler.schedule(() => {
      detach?.();
      resolve();
    }, Math.max(0, ms));
    if (signal !== undefined) {
      detach = onAbort(signal, () => {
        subscription.unsubscribe();
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort reason as the caller gave it
        reject(signal.reason);
      });
    }
  });
}
