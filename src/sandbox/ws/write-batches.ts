import type { Duplex } from 'node:stream';

/**
 * Lets the writes of one turn of the event loop go out to each socket together: the first write
 * of a turn to a socket corks it, and one `setImmediate` uncorks every corked socket, so a
 * socket that was sent a hundred messages in a turn takes one `writev` system call instead of a
 * hundred. The bytes and the frames on the wire are the same; only the system calls are fewer.
 * A fan-out of every engine event to hundreds of subscribers spent most of its time in those
 * calls, on the thread that serves the HTTP routes.
 */
export class WriteBatches {
  readonly #held = new Set<Duplex>();
  #scheduled = false;

  /** Holds `socket`'s writes until the end of this turn (a no-op when already held or closed). */
  hold(socket: Duplex): void {
    if (this.#held.has(socket) || socket.destroyed || !socket.writable) return;
    socket.cork();
    this.#held.add(socket);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Lets one socket's held writes go now (a large write whose cost its caller wants to count now). */
  release(socket: Duplex): void {
    if (this.#held.delete(socket)) socket.uncork();
  }

  /** Lets every held socket's writes go now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#held.size === 0) return;
    const sockets = [...this.#held];
    this.#held.clear();
    for (const socket of sockets) socket.uncork();
  }
}
