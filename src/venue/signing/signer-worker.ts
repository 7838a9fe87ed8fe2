import { parentPort } from 'node:worker_threads';
import { ParameterError } from '../../core/errors.ts';
import { Secret } from '../../core/secret.ts';
import { createOrderSigner, type OrderSigner, type SignedOrder } from './order-signer.ts';
import type { FromWorker, ToWorker, WorkerError } from './signer-worker-protocol.ts';

/** One signer-pool worker: holds an OrderSigner and signs the batches it is sent, in order. */

const port = parentPort;
if (port === null) throw new Error('signer-worker.ts must run in a worker thread');

let signer: OrderSigner | undefined;

function describeError(err: unknown, index?: number): WorkerError {
  if (err instanceof ParameterError) return { name: err.name, message: err.message, index, param: err.param, rule: err.rule };
  if (err instanceof Error) return { name: err.name, message: err.message, index };
  return { name: 'Error', message: 'non-error thrown', index };
}

port.on('message', (msg: ToWorker) => {
  let reply: FromWorker;
  if (msg.kind === 'init') {
    try {
      signer = createOrderSigner(
        {
          privateKey: new Secret(msg.privateKey),
          signerAddress: msg.signerAddress,
          maker: msg.maker,
          signatureType: msg.signatureType,
        },
        msg.options,
      );
      reply = { kind: 'ready' };
    } catch (err) {
      reply = { kind: 'init-error', error: describeError(err) };
    }
  } else {
    const s = signer;
    if (s === undefined) {
      reply = { kind: 'sign-error', id: msg.id, error: { name: 'Error', message: 'worker not initialised' } };
    } else {
      const orders: SignedOrder[] = new Array<SignedOrder>(msg.params.length);
      let failed: WorkerError | undefined;
      for (let i = 0; i < msg.params.length; i++) {
        try {
          orders[i] = s.sign(msg.params[i] as (typeof msg.params)[number]);
        } catch (err) {
          failed = describeError(err, i);
          break;
        }
      }
      reply = failed === undefined ? { kind: 'signed', id: msg.id, orders } : { kind: 'sign-error', id: msg.id, error: failed };
    }
  }
  port.postMessage(reply);
});
