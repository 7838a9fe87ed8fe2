import type { EnginePersistence } from '../engine/ports.ts';

/**
 * The engine's persistence with its failures caught: the first write that fails (disk full, a
 * read-only or vanished file) calls `onFault` once, and from then on nothing more is written and
 * every order waiting for its commit is told it did not commit, so it never leaves the process.
 * The run then fails closed (see run-session's `fail`) instead of an error escaping a stream.
 */
export function guardedPersistence(inner: EnginePersistence, onFault: (err: unknown) => void): EnginePersistence {
  let broken = false;
  let seq = 0;
  const fault = (err: unknown): void => {
    if (broken) return;
    broken = true;
    onFault(err);
  };
  const guard =
    <A extends unknown[]>(write: (...args: A) => void) =>
    (...args: A): void => {
      if (broken) return;
      try {
        write(...args);
      } catch (err) {
        fault(err);
      }
    };
  return {
    nextClientSeq() {
      if (!broken) {
        try {
          seq = inner.nextClientSeq();
          return seq;
        } catch (err) {
          fault(err);
        }
      }
      // not durable any more: the run is halted, so an id handed out now is never sent
      return ++seq;
    },
    transaction<T>(fn: () => T): T {
      if (broken) return fn();
      let done = false;
      let result: T | undefined;
      try {
        return inner.transaction(() => {
          result = fn();
          done = true;
          return result;
        });
      } catch (err) {
        // an error of `fn` itself is not the store's: it goes on up
        if (!done) throw err;
        fault(err);
        return result as T;
      }
    },
    afterCommit(callback) {
      if (broken) callback(false);
      else if (inner.afterCommit) inner.afterCommit((committed) => callback(committed && !broken));
      else callback(true);
    },
    orderCreated: guard((record, at) => inner.orderCreated(record, at)),
    orderChanged: guard((record, at, reason) => inner.orderChanged(record, at, reason)),
    fill: guard((fill) => inner.fill(fill)),
    voidFill: guard((fill, at) => inner.voidFill?.(fill, at)),
    heartbeatId: guard((id, at) => inner.heartbeatId(id, at)),
    account: guard((note) => inner.account?.(note)),
    journal: guard((event) => inner.journal(event)),
    marketEvent: guard((event) => inner.marketEvent?.(event)),
    settlement: guard((settlement) => inner.settlement?.(settlement)),
    rewards: guard((note) => inner.rewards?.(note)),
  };
}
