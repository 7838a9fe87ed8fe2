// Worker entry of the background checkpointer (plain JavaScript: nothing to compile, starts
// fast). It opens its own connection to the store and copies WAL pages into the database file
// with PASSIVE checkpoints, which never wait for and never block the owning writer, so the
// fsyncs of checkpointing stay off the engine's thread. It writes no row of its own.
import { clearInterval, setInterval } from 'node:timers';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

/** @type {{ file: string; intervalMs: number; closed: Int32Array }} */
const { file, intervalMs, closed } = workerData;
const done = () => {
  // the owner waits on this flag to close last (its close then checkpoints and removes the WAL)
  Atomics.store(closed, 0, 1);
  Atomics.notify(closed, 0);
};
let db;
try {
  db = new Database(file, { fileMustExist: true, timeout: 0 });
} catch (err) {
  done();
  throw err;
}
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (err) {
    // SQLITE_BUSY: another checkpoint is running; the next tick tries again
    if (err?.code !== 'SQLITE_BUSY') parentPort.postMessage({ error: `${err?.code ?? ''} ${err?.message ?? String(err)}`.trim() });
  }
}, intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  try {
    db.close();
  } finally {
    done();
    parentPort.close();
  }
});
