import type { JournalInput, RunNote } from './store-types.ts';

/** The message of the note journaled at each start of a run. */
export const RUN_STARTED = 'run started';

/** What a run's start notes: its mode and each strategy's params as it starts (secrets already redacted). */
export interface RunStartedData {
  readonly mode: string;
  readonly strategies: readonly { readonly id: string; readonly params: unknown }[];
}

/**
 * The journal note of a run's start (each life of a resumed run notes its own): what a store's
 * reader (`clobot dashboard <store>`) needs to show the strategies and their params, which the
 * store keeps nowhere else. Params updates are journaled as commands after it.
 */
export function runStartedNote(at: number, data: RunStartedData): RunNote {
  return { type: 'run', at, message: RUN_STARTED, data };
}

/** The start's data, when `event` is a run-started note. */
export function runStartedOf(event: JournalInput): RunStartedData | undefined {
  if (event.type !== 'run' || event.message !== RUN_STARTED) return undefined;
  const data = event.data as Partial<RunStartedData> | undefined;
  if (data === undefined || !Array.isArray(data.strategies)) return undefined;
  return { mode: String(data.mode), strategies: data.strategies };
}
