import { parentPort } from 'node:worker_threads';
import { DataVerifier } from './data-hash.ts';
import type { FromJobWorker, ToJobWorker } from './job-protocol.ts';
import { runJob } from './run-job.ts';

/**
 * A worker thread of the local pool: runs jobs one at a time and answers each with its outcome.
 * A `stop` ends the job running at the event reached (its summary marked partial).
 */
const port = parentPort;
if (!port) throw new Error('job-worker.ts runs as a worker thread');
const verifier = new DataVerifier();
let running: AbortController | undefined;

port.on('message', (message: ToJobWorker) => {
  if (message.kind === 'stop') {
    running?.abort();
    return;
  }
  const job = message.job;
  const stop = new AbortController();
  running = stop;
  void (async () => {
    let reply: FromJobWorker;
    try {
      reply = { kind: 'done', id: job.id, summary: await runJob(job, verifier, { signal: stop.signal }) };
    } catch (err) {
      reply = { kind: 'failed', id: job.id, name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) };
    }
    if (running === stop) running = undefined;
    port.postMessage(reply);
  })();
});
