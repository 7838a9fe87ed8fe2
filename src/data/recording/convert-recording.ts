import { resolve } from 'node:path';
import { ParameterError } from '../../core/errors.ts';
import type { RecordingForm } from './format.ts';
import { openRecording } from './reader.ts';
import { createRecordingWriter } from './writer.ts';

export interface ConvertRecordingResult {
  readonly path: string;
  readonly form: RecordingForm;
  readonly events: number;
  readonly markets: number;
  readonly bytes: number;
}

/**
 * Rewrites a recording in another form (text <-> binary, plain <-> gzip by the output's `.gz`):
 * the same header and events, streamed in constant memory.
 */
export async function convertRecording(input: string, out: string, form: RecordingForm): Promise<ConvertRecordingResult> {
  if (resolve(input) === resolve(out)) throw new ParameterError('import', '--out', 'must not be the input file');
  const recording = await openRecording(input);
  const writer = createRecordingWriter(out, recording.header, { form });
  try {
    for await (const batch of recording.batches()) for (const event of batch) writer.write(event);
  } finally {
    await writer.close();
  }
  return { path: writer.path, form, events: writer.events, markets: recording.header.markets.length, bytes: writer.bytes };
}
