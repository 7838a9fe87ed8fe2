import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./checkpoint-worker.mjs', import.meta.url);

/**
 * Runs the WAL checkpoints of a store on a worker thread (see checkpoint-worker.mjs), so their
 * fsyncs never stall the engine's thread. The owner turns its own automatic checkpoints off while
 * this runs; `onFailure` is told when the worker cannot do its job, so the owner can turn them
 * back on.
 */
export class BackgroundCheckpointer {
  readonly #worker: Worker;
  readonly #closed = new Int32Array(new SharedArrayBuffer(4));
  #stopped = false;

  constructor(file: string, intervalMs: number, onFailure: (reason: string) => void) {
    this.#worker = new Worker(WORKER_URL, { workerData: { file, intervalMs, closed: this.#closed } });
    this.#worker.unref();
    const fail = (reason: string) => {
      if (this.#stopped) return;
      this.#stopped = true;
      onFailure(reason);
      void this.#worker.terminate();
    };
    this.#worker.on('message', (msg: { error?: string }) => {
      if (msg.error) fail(msg.error);
    });
    this.#worker.on('error', (err) => fail(err.message));
    this.#worker.on('exit', (code) => {
      if (code !== 0) fail(`checkpoint worker exited with code ${code}`);
    });
  }

  /**
   * Stops the worker and waits (blocking, at most `waitMs`) until its connection is closed, so
   * the owner's close is the last one and leaves a complete database file with no WAL.
   */
  stop(waitMs = 5_000): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#worker.postMessage('stop');
    Atomics.wait(this.#closed, 0, 0, waitMs);
  }
}
