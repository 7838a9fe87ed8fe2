import { parentPort } from 'node:worker_threads';
import { DataVerifier } from './data-hash.ts';
import type { FromJobWorker, ToJobWorker } from './job-protocol.ts';
import { runJob } from './run-job.ts';

/** A worker thread of the local pool: runs jobs one at a time and answers each with its outcome. */
const port = parentPort;
if (!port) throw new Error('job-worker.ts runs as a worker thread');
const verifier = new DataVerifier();

port.on('message', (message: ToJobWorker) => {
  const job = message.job;
  void (async () => {
    let reply: FromJobWorker;
    try {
      reply = { kind: 'done', id: job.id, summary: await runJob(job, verifier) };
    } catch (err) {
      reply = { kind: 'failed', id: job.id, name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  })();
});
