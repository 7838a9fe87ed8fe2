import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { parseFaultPatch } from '../faults.ts';
import { SandboxHttpError } from '../http-error.ts';

/**
 * Loopback-only admin routes: read and set the fault knobs, read and reset the request counts.
 * They pass no fault, limit or count, so a test can always turn a storm off.
 */
export function registerAdminRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const admin = { config: { admin: true }, preHandler: loopbackOnly };

  app.get('/admin/faults', admin, async () => ctx.faults.settings);

  app.post('/admin/faults', admin, async (request) => {
    const body = request.body ?? {};
    return ctx.faults.set(parseFaultPatch(body));
  });

  app.get('/admin/stats', admin, async () => ctx.stats.snapshot());

  app.post('/admin/stats/reset', admin, async () => {
    ctx.stats.reset();
    return ctx.stats.snapshot();
  });
}

/** True for 127.0.0.0/8 and ::1, also in their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

async function loopbackOnly(request: FastifyRequest): Promise<void> {
  if (!isLoopback(request.socket.remoteAddress)) {
    throw new SandboxHttpError(403, 'admin routes answer loopback callers only');
  }
}
