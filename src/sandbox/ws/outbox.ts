import type { Duplex } from 'node:stream';
import { eventLoopBudget, type SlicedWork, type TurnBudget } from './turn-budget.ts';

/** A connection whose unsent data (queued and in its socket) passes this many bytes is dropped by its channel (4 MiB). */
export const DEFAULT_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * Bytes one step writes to a socket (a chunk of a large frame, or several small ones): a
 * snapshot of every asset is about 260 KB, and written whole it left what the kernel did not take
 * to libuv, which wrote it on in its poll of the sockets, outside any budget.
 */
const CHUNK_BYTES = 64 * 1024;

/** What is queued for one socket: `frames` from `head` on, the one at `head` written `offset` bytes. */
interface Queued {
  readonly frames: Buffer[];
  head: number;
  offset: number;
  bytes: number;
  /** True while the socket has more than it takes unsent (it is written again on its 'drain'). */
  blocked: boolean;
}

/**
 * Frames waiting for their sockets. The channel queues whole WebSocket frames (bytes made once
 * and shared by every connection that gets them); the outbox writes them a step at a time under
 * the event loop's `TurnBudget`: a step writes up to CHUNK_BYTES of one socket's queue in one
 * system call (cork, write each, uncork: one `writev`), oldest queue first. A socket whose unsent
 * bytes pass its high-water mark (the kernel took less than it was given) waits for its 'drain'
 * before it is written again, so libuv never holds more than about a chunk for it. A message to
 * 300 subscribers was 300 system calls, 5-10 ms on this machine when they were made in one turn,
 * during which no HTTP request was served. Frames reach a socket in the order they were queued,
 * whole; a socket that is closed or destroyed is skipped and its frames dropped.
 */
export class Outbox implements SlicedWork {
  /** Sockets with bytes to write, oldest queue first; a blocked one is kept but skipped. */
  readonly #waiting = new Map<Duplex, Queued>();
  /** Sockets in `#waiting` that are not blocked. */
  #ready = 0;

  constructor(private readonly budget: TurnBudget = eventLoopBudget) {}

  /** Queues `frame` for `socket`, after what it has queued; returns the bytes now queued for it. */
  queue(socket: Duplex, frame: Buffer): number {
    let queued = this.#waiting.get(socket);
    if (queued === undefined) {
      queued = { frames: [], head: 0, offset: 0, bytes: 0, blocked: false };
      this.#waiting.set(socket, queued);
      this.#ready++;
      this.budget.wake(this);
    }
    queued.frames.push(frame);
    queued.bytes += frame.length;
    return queued.bytes;
  }

  /** Drops `socket`'s queued frames (its connection is gone). */
  forget(socket: Duplex): void {
    const queued = this.#waiting.get(socket);
    if (queued === undefined) return;
    this.#waiting.delete(socket);
    if (!queued.blocked) this.#ready--;
  }

  pending(): boolean {
    return this.#ready > 0;
  }

  /** Writes up to CHUNK_BYTES to the socket that has waited longest and is not blocked. */
  step(): void {
    for (const [socket, queued] of this.#waiting) {
      if (queued.blocked) continue;
      if (socket.destroyed || !socket.writable) {
        this.forget(socket);
        return;
      }
      writeChunk(socket, queued);
      if (queued.bytes === 0) {
        this.#waiting.delete(socket);
        this.#ready--;
      } else if (socket.writableNeedDrain) {
        queued.blocked = true;
        this.#ready--;
        socket.once('drain', () => this.#unblock(socket, queued));
      }
      return;
    }
  }

  #unblock(socket: Duplex, queued: Queued): void {
    if (this.#waiting.get(socket) !== queued || !queued.blocked) return;
    queued.blocked = false;
    this.#ready++;
    this.budget.wake(this);
  }
}

/** Up to CHUNK_BYTES of `queued` to `socket` in one system call (whole small frames, a part of a large one). */
function writeChunk(socket: Duplex, queued: Queued): void {
  let room = CHUNK_BYTES;
  socket.cork();
  const frames = queued.frames;
  while (room > 0 && queued.head < frames.length) {
    const frame = frames[queued.head] as Buffer;
    const left = frame.length - queued.offset;
    const n = Math.min(left, room);
    socket.write(n === frame.length ? frame : frame.subarray(queued.offset, queued.offset + n));
    room -= n;
    queued.bytes -= n;
    if (n === left) {
      queued.head++;
      queued.offset = 0;
    } else queued.offset += n;
  }
  socket.uncork();
  if (queued.head === frames.length) {
    frames.length = 0;
    queued.head = 0;
  }
}
