import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ClobotError, ConfigError } from '../../core/errors.ts';
import type { OrderParams } from './order-builder.ts';
import { OrderBuildError } from './order-build-error.ts';
import { createOrderSigner, type OrderSignerOptions, type SignedOrder, type SigningAccount } from './order-signer.ts';
import type { FromWorker, ToWorker, WorkerError } from './signer-worker-protocol.ts';

/**
 * Signs batches of orders across worker threads. Salt and timestamp are already in each
 * OrderParams (drawn on the caller's thread from the injected sources), so the result is exactly
 * what in-thread signing gives, only faster for large batches. The private key is posted to each
 * worker once, in its init message; it is never logged nor put in an error.
 */
export interface SignerPool {
  /** Number of workers. */
  readonly size: number;
  readonly signerAddress: string;
  readonly maker: string;
  /** Signs `params` in order; rejects with OrderBuildError (param `[i].field`) on a bad order. */
  signBatch(params: readonly OrderParams[]): Promise<SignedOrder[]>;
  /** Stops the workers; pending batches reject. */
  close(): Promise<void>;
}

export interface SignerPoolOptions {
  readonly account: SigningAccount;
  readonly signer: OrderSignerOptions;
  /** Workers; default os.availableParallelism(). */
  readonly size?: number;
  /** Smallest slice of a batch sent to one worker (default 16): small batches use fewer workers. */
  readonly minChunk?: number;
}

const WORKER_URL = new URL('./signer-worker.mjs', import.meta.url);

interface Pending {
  readonly resolve: (orders: SignedOrder[]) => void;
  readonly reject: (err: Error) => void;
  /** Index of the slice's first order in the caller's batch. */
  readonly offset: number;
  readonly count: number;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  /** Orders queued on this worker, for least-loaded dispatch. */
  load: number;
  /** False once the worker has failed or exited; it gets no more work. */
  alive: boolean;
}

/** Starts the workers and waits until each has its signer ready. */
export async function createSignerPool(options: SignerPoolOptions): Promise<SignerPool> {
  // Resolve once here first: a bad key or address fails fast on the caller's thread.
  const local = createOrderSigner(options.account, options.signer);
  const size = options.size ?? availableParallelism();
  if (!Number.isInteger(size) || size < 1) throw new ConfigError(`signer pool size: must be a positive integer, was ${size}`);
  const minChunk = options.minChunk ?? 16;
  const init: ToWorker = {
    kind: 'init',
    privateKey: options.account.privateKey.reveal(),
    signerAddress: local.signerAddress,
    maker: local.maker,
    signatureType: options.account.signatureType,
    options: options.signer,
  };

  let nextId = 1;
  let closed = false;
  const slots: Slot[] = [];

  const failSlot = (slot: Slot, err: Error): void => {
    slot.alive = false;
    for (const p of slot.pending.values()) p.reject(err);
    slot.pending.clear();
    slot.load = 0;
  };

  const starts = Array.from({ length: size }, (_, index) => {
    const worker = new Worker(WORKER_URL);
    const slot: Slot = { worker, pending: new Map(), load: 0, alive: true };
    slots.push(slot);
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      worker.on('message', (msg: FromWorker) => {
        switch (msg.kind) {
          case 'ready':
            ready = true;
            worker.unref();
            resolve();
            return;
          case 'init-error':
            reject(new ConfigError(`signer worker ${index}: ${msg.error.message}`));
            return;
          case 'signed':
          case 'sign-error': {
            const p = slot.pending.get(msg.id);
            if (p === undefined) return;
            slot.pending.delete(msg.id);
            if (slot.pending.size === 0) worker.unref();
            slot.load -= p.count;
            if (msg.kind === 'signed') {
              p.resolve(msg.orders);
            } else {
              p.reject(toError(msg.error, p.offset));
            }
          }
        }
      });
      worker.on('error', (err) => {
        if (!ready) reject(new ClobotError(`signer worker ${index} failed to start: ${err.message}`));
        failSlot(slot, new ClobotError(`signer worker ${index} failed: ${err.message}`));
      });
      worker.on('exit', (code) => {
        if (!ready) reject(new ClobotError(`signer worker ${index} exited during start (code ${code})`));
        failSlot(slot, new ClobotError(`signer worker ${index} exited (code ${code})`));
      });
      worker.postMessage(init);
    });
  });
  try {
    await Promise.all(starts);
  } catch (err) {
    await Promise.all(slots.map((s) => s.worker.terminate()));
    throw err;
  }

  const dispatch = (slot: Slot, params: readonly OrderParams[], offset: number): Promise<SignedOrder[]> =>
    new Promise<SignedOrder[]>((resolve, reject) => {
      const id = nextId++;
      slot.pending.set(id, { resolve, reject, offset, count: params.length });
      slot.load += params.length;
      if (slot.pending.size === 1) slot.worker.ref();
      const msg: ToWorker = { kind: 'sign', id, params };
      slot.worker.postMessage(msg);
    });

  return {
    size,
    signerAddress: local.signerAddress,
    maker: local.maker,
    async signBatch(params) {
      if (closed) throw new ClobotError('signer pool is closed');
      const n = params.length;
      if (n === 0) return [];
      const live = slots.filter((s) => s.alive).sort((a, b) => a.load - b.load);
      if (live.length === 0) throw new ClobotError('signer pool has no live workers');
      const parts = Math.max(1, Math.min(live.length, Math.floor(n / minChunk)));
      const jobs: Promise<SignedOrder[]>[] = [];
      for (let k = 0, start = 0; k < parts; k++) {
        const end = Math.round(((k + 1) * n) / parts);
        jobs.push(dispatch(live[k] as Slot, params.slice(start, end), start));
        start = end;
      }
      const results = await Promise.all(jobs);
      return results.length === 1 ? (results[0] as SignedOrder[]) : results.flat();
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const slot of slots) failSlot(slot, new ClobotError('signer pool closed'));
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

function toError(e: WorkerError, offset: number): Error {
  if (e.name === 'OrderBuildError' && e.param !== undefined && e.rule !== undefined) {
    return new OrderBuildError(`[${offset + (e.index ?? 0)}].${e.param}`, e.rule);
  }
  return new ClobotError(`signer worker: ${e.name}: ${e.message}`);
}
