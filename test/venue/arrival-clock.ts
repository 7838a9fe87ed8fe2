import { vi } from 'vitest';

/** How many requests a client sent, and how many of them its server has received so far. */
export interface ArrivalCounts {
  readonly sent: () => number;
  readonly arrived: () => number;
}

/**
 * Runs `act` on an arrival clock and settles as it did: setTimeout's clock (a client's deadline
 * of each attempt, a server's stall of an answer) moves 1 ms a turn, and only while every request
 * the client sent has reached its server. A deadline then runs from its request's arrival,
 * however long a loaded machine holds the send up: on real time a request held up past its
 * deadline is never sent, and a test counting what the server received sees one fewer. Timers
 * still pending at the end run then (a stalled answer goes out). Date and the client's scheduler
 * (its waits between attempts) stay on real time.
 */
export async function onArrivalClock<T>(act: () => Promise<T>, counts: ArrivalCounts): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let result: PromiseSettledResult<T> | undefined;
  try {
    act().then(
      (value) => (result = { status: 'fulfilled', value }),
      (reason: unknown) => (result = { status: 'rejected', reason }),
    );
    while (result === undefined) {
      if (counts.arrived() >= counts.sent()) vi.advanceTimersByTime(1);
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    vi.runOnlyPendingTimers();
    vi.useRealTimers();
  }
  const settled: PromiseSettledResult<T> = result;
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}
