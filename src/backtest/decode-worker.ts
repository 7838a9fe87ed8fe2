import { parentPort } from 'node:worker_threads';
import { DecodeError } from '../core/errors.ts';
import { BinaryEventEncoder } from '../data/recording/binary-codec.ts';
import { readRecordingBatches } from '../data/recording/reader.ts';
import type { FromDecodeWorker, ToDecodeWorker } from './decode-worker-protocol.ts';

/**
 * The recording decode worker: reads the file (and gunzips it), decodes it with the recording
 * reader's decoders (every check, every error naming its line), and posts the events as blocks
 * of the binary recording form, a few messages ahead of what the main thread has taken. The main
 * thread only decodes those blocks: the binary form is the cheapest to decode there is.
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
  const encoder = new BinaryEventEncoder();
  let bytes = 0;
  let reply: FromDecodeWorker;
  const post = async (blocks: Buffer[]): Promise<void> => {
    if (blocks.length === 0) return;
    while (credit <= 0) await new Promise<void>((resolve) => (wake = resolve));
    credit--;
    // copied by the structured clone (a block is about 32 KiB): a Buffer may share its memory
    // with others, so it is never transferred
    port!.postMessage({ kind: 'blocks', blocks, bytes } satisfies FromDecodeWorker);
  };
  try {
    for await (const events of readRecordingBatches(msg.path, msg.gzip, (b) => (bytes = b))) {
      for (let i = 0; i < events.length; i++) encoder.add(events[i]!);
      await post(encoder.takeBlocks());
    }
    await post(encoder.flush());
    reply = { kind: 'end', bytes };
  } catch (err) {
    reply =
      err instanceof DecodeError
        ? { kind: 'error', name: err.name, message: err.message, path: err.path, expected: err.expected, actual: cloneable(err.actual) }
        : { kind: 'error', name: err instanceof Error ? err.name : 'Error', message: err instanceof Error ? err.message : String(err) };
  }
  port!.postMessage(reply);
}

/** The value itself when it can cross to the main thread (JSON data can), else its text. */
function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return String(value);
  }
}
