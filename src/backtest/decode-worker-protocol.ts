/** Main thread to the decode worker. */
export type ToDecodeWorker =
  | { readonly kind: 'open'; readonly path: string; readonly gzip: boolean }
  /** Room for `n` more messages of blocks (flow control: the worker never runs more than a few ahead). */
  | { readonly kind: 'credit'; readonly n: number };

/** The decode worker to the main thread. */
export type FromDecodeWorker =
  /**
   * Events as blocks of the binary recording form (each with its length prefix), in order; the
   * string definitions and times chain from one block to the next as in a binary file.
   */
  | { readonly kind: 'blocks'; readonly blocks: readonly Uint8Array[]; readonly bytes: number }
  | { readonly kind: 'end'; readonly bytes: number }
  | { readonly kind: 'error'; readonly name: string; readonly message: string; readonly path?: string; readonly expected?: string; readonly actual?: unknown };
