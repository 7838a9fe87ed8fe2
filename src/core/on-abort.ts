/**
 * Calls `callback` when `signal` aborts, until the returned function is called (after which it
 * never is). If the signal has already aborted, calls it now.
 *
 * Every callback of one signal shares one 'abort' listener on it, however many wait at once: a
 * listener each made Node print MaxListenersExceededWarning past 10 (one run's stop signal under
 * a burst of requests, retries and rate-budget waits; one sandbox's closing signal under more than
 * 10 stalled requests), though each was removed when its wait ended. Callbacks run in the order
 * they were added; one that throws is reported as an uncaught exception (as an EventTarget
 * listener's throw is) and the others still run.
 */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  if (signal.aborted) {
    callback();
    return NOTHING;
  }
  let callbacks = waiting.get(signal);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    waiting.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiting.delete(signal);
        for (const run of created) {
          try {
            run();
          } catch (error) {
            queueMicrotask(() => {
              throw error;
            });
          }
        }
        created.clear();
      },
      { once: true },
    );
  }
  // its own entry: the same function added twice is called twice and removed once per call
  const entry = (): void => callback();
  const set = callbacks;
  set.add(entry);
  return () => {
    set.delete(entry);
  };
}

const NOTHING = (): void => undefined;

/** The callbacks waiting on each signal that has not aborted yet (one 'abort' listener each). */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();
