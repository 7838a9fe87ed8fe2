import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { SandboxHttpError } from '../http-error.ts';

/** True for 127.0.0.0/8 and ::1, also in their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** The preHandler of every admin route: a caller from another host gets 403. */
export function loopbackOnly(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (isLoopback(request.socket.remoteAddress)) done();
  else done(new SandboxHttpError(403, 'admin routes answer loopback callers only'));
}
