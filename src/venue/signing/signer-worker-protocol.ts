import type { OrderParams } from './order-builder.ts';
import type { OrderSignerOptions, SignedOrder } from './order-signer.ts';

/** Messages between the signer pool and its workers (structured-cloned plain data). */

export interface WorkerInit {
  readonly kind: 'init';
  /** The key as 0x-hex, sent once; the worker wraps it in a Secret and keeps only the bytes. */
  readonly privateKey: string;
  readonly signerAddress: string;
  readonly maker: string | undefined;
  readonly signatureType: 0 | 1 | 2;
  readonly options: OrderSignerOptions;
}

export interface WorkerSign {
  readonly kind: 'sign';
  readonly id: number;
  readonly params: readonly OrderParams[];
}

export type ToWorker = WorkerInit | WorkerSign;

export interface WorkerError {
  readonly name: string;
  readonly message: string;
  /** Index in the request's params. */
  readonly index?: number;
  /** Set for OrderBuildError / ParameterError. */
  readonly param?: string;
  readonly rule?: string;
}

export type FromWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'init-error'; readonly error: WorkerError }
  | { readonly kind: 'signed'; readonly id: number; readonly orders: SignedOrder[] }
  | { readonly kind: 'sign-error'; readonly id: number; readonly error: WorkerError };
