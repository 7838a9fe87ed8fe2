import { ClobotError } from '../core/errors.ts';

/**
 * An answer the sandbox gives on purpose with a non-2xx status; the error handler turns it into
 * `{"error": message}` (PROTOCOL "Errors"), plus `Retry-After` when `retryAfterSeconds` is set,
 * plus the `extra` fields (`code`, `heartbeat_id`) when given.
 */
export class SandboxHttpError extends ClobotError {
  override readonly name: string = 'SandboxHttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds?: number,
    readonly extra?: Readonly<Record<string, string | number>>,
  ) {
    super(message);
  }
}

export function unauthorized(message: string): SandboxHttpError {
  return new SandboxHttpError(401, message);
}

export function forbidden(message: string): SandboxHttpError {
  return new SandboxHttpError(403, message);
}

export function notFound(message: string): SandboxHttpError {
  return new SandboxHttpError(404, message);
}

export function badRequest(message: string): SandboxHttpError {
  return new SandboxHttpError(400, message);
}
