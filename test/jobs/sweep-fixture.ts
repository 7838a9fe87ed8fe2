import { join } from 'node:path';
import { syntheticEvents, syntheticHeader, type SyntheticOptions } from '../../src/backtest/synthetic-recording.ts';
import { createRecordingWriter } from '../../src/data/recording/writer.ts';

/** The config the sweep tests share: the band quoter on two synthetic markets, every knob a sweep axis. */
export const SWEEP_CONFIG = `
mode: backtest
name: jobs-check
data:
  markets: { filter: { maxCount: 2 } }
strategies:
  - id: bq
    module: ${join(process.cwd(), 'strategies/02-band-quoter.ts')}
    params: { size: 10, halfSpreadTicks: 1, requoteTicks: 1 }
backtest:
  latencyMs: 25
  fees: { makerBps: 0, takerBps: 10 }
  equityIntervalMs: 10000
`;

/** A synthetic binary recording at `path` (two markets), for the sweep tests; returns the path. */
export async function writeSweepRecording(path: string, options: SyntheticOptions = { seed: 5, markets: 2, depth: 8, events: 2_000, meanGapMs: 400 }): Promise<string> {
  const writer = createRecordingWriter(path, syntheticHeader(options), { form: 'binary' });
  for (const event of syntheticEvents(options)) writer.write(event);
  await writer.close();
  return path;
}
