import { parentPort } from 'node:worker_threads';
import { DecodeError } from '../core/errors.ts';
import { readBatches } from './data-file.ts';
import type { FromDecodeWorker, ToDecodeWorker } from './decode-worker-protocol.ts';
import { packEvents, transferList } from './packed-events.ts';

/**
 * The recording decode worker: reads the file (and gunzips it), decodes it with the recording
 * reader's decoders, and posts the events as packed typed arrays (transferred, not copied), a
 * few batches ahead of what the main thread has taken. The main thread only unpacks.
 */
const port = parentPort;
if (!port) throw new Error('decode-worker.ts runs as a worker thread');

let credit = 0;
let wake: (() => void) | undefined;

port.on('message', (msg: ToDecodeWorker) => {
  if (msg.kind === 'credit') {
    credit += msg.n;
    const w = wake;
    wake = undefined;
    w?.();
  } else {
    void decode(msg);
  }
});

async function decode(msg: Extract<ToDecodeWorker, { kind: 'open' }>): Promise<void> {
  const index = {
    tokens: new Map(msg.tables.tokens.map((t, i) => [t, i])),
    conditions: new Map(msg.tables.conditions.map((c, i) => [c, i])),
  };
  let bytes = 0;
  let reply: FromDecodeWorker;
  try {
    for await (const events of readBatches(msg.path, msg.gzip, (b) => (bytes = b))) {
      while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
      credit--;
      const batch = packEvents(events, msg.tables, index);
      const out: FromDecodeWorker = { kind: 'batch', batch, bytes };
      port!.postMessage(out, transferList(batch));
    }
    reply = { kind: 'end', bytes };
  } catch (err) {
    reply =
      err instanceof DecodeError
        ? { kind: 'error', name: err.name, message: err.message, path: err.path, expected: err.expected, actual: typeof err.actual === 'string' || typeof err.actual === 'number' ? err.actual : String(err.actual) }
        : { kind: 'error', name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) };
  }
  port!.postMessage(reply);
}
