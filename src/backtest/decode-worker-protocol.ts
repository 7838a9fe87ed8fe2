import type { PackedBatch } from './packed-events.ts';

/** Main thread to the decode worker. */
export type ToDecodeWorker =
  | { readonly kind: 'open'; readonly path: string; readonly gzip: boolean; readonly tables: { readonly tokens: readonly string[]; readonly conditions: readonly string[] } }
  /** Room for `n` more batches (flow control: the worker never runs more than a few batches ahead). */
  | { readonly kind: 'credit'; readonly n: number };

/** The decode worker to the main thread. */
export type FromDecodeWorker =
  | { readonly kind: 'batch'; readonly batch: PackedBatch; readonly bytes: number }
  | { readonly kind: 'end'; readonly bytes: number }
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly path?: string; readonly expected?: string; readonly actual?: unknown };
