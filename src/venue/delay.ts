import type { Clock } from '../core/clock.ts';

/**
 * Waits `ms` on the injected clock's scheduler (real time under LiveClock, virtual time under
 * SimulatedClock). Rejects with the signal's reason when `signal` aborts first.
 */
export function delay(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort reason as the caller gave it
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      subscription.unsubscribe();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort reason as the caller gave it
      reject(signal?.reason);
    };
    const subscription = clock.scheduler.schedule(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
