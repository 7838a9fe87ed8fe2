/**
 * Keeps this thread's event loop polling instead of sleeping between events (config
 * `execution.busyPoll`), and returns the function that lets it sleep again.
 *
 * Why: a thread that sleeps in epoll between books gives its CPU back; on a virtual machine the
 * vCPU then halts and the host may run something else on that core. The next book is handled with
 * cold caches, and that is most of the tick-to-trade tail we measured: on the 2-vCPU test VM, 15
 * orders 30 ms apart took p50 1.6 ms / p99 4.8 ms with a sleeping loop, and p50 1.4 ms / p99 2.4 ms
 * with a polling one (bench/children/tick-to-trade-profile.ts, SPIN=1). The price is one core at
 * 100% for as long as it runs, the same trade as spinning signing helpers; so it is off by default.
 *
 * How: a chain of setImmediate callbacks. While one is pending, libuv polls for I/O with a zero
 * timeout on every turn instead of blocking, so timers, sockets and the clock's work run as soon
 * as they are due, and nothing else changes.
 */
export function keepEventLoopPolling(): () => void {
  let polling = true;
  const turn = (): void => {
    if (polling) setImmediate(turn);
  };
  setImmediate(turn);
  return () => {
    polling = false;
  };
}
