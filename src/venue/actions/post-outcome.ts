import { DecodeError, isOutcomeUnknown, OutcomeUnknownError } from '../../core/errors.ts';

/**
 * How an order post's failure reaches the caller. An order post is never retried (its route is
 * not idempotent, so the transport sends it once). When the bytes may have reached the venue and
 * no usable answer came back (a timeout or dropped connection after sending, a 5xx other than
 * the 503 "paused", or a 2xx whose body cannot be read), the error becomes an
 * OutcomeUnknownError carrying the precomputed order hashes to reconcile by. Anything else (a
 * refusal of the whole request, a 429, a failure before sending) is thrown as it is.
 */
export function postFailure(err: unknown, where: string, orderHashes: readonly string[], answered: boolean): unknown {
  if (err instanceof OutcomeUnknownError) return err;
  if (isOutcomeUnknown(err) || (answered && err instanceof DecodeError)) {
    const why = err instanceof Error ? err.message : String(err);
    return new OutcomeUnknownError(`${where}: outcome unknown for ${orderHashes.length} order(s): ${why}`, orderHashes, { cause: err });
  }
  return err;
}
