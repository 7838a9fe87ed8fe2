import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigError, ParameterError } from '../core/errors.ts';
import { onAbort } from '../core/on-abort.ts';
import { ENDPOINTS, type RouteId } from '../venue/endpoints.ts';
import type { WireError } from '../venue/wire/account.ts';
import type { SandboxContext } from './context.ts';
import { SandboxHttpError } from './http-error.ts';
import type { LimitRefusal } from './rate-limiter.ts';
import { checkAdminRequest } from './routes/admin-guard.ts';
import { authenticateL1, authenticateL2 } from './trading/auth.ts';

/** Retry-After sent during a rate-limit storm, seconds. */
export const STORM_RETRY_AFTER_SECONDS = 1;

/**
 * The request pipeline every route goes through, in order: count the request, add latency,
 * maybe drop the connection, the rate-limit storm, maybe a 500; once the body is read,
 * authentication (routes that need L1 or L2) and part 8's limits; after the handler, hold the
 * answer for `stallMs`. The fault knobs apply to the routes of the `routes` fault setting (every route when
 * it is empty). Errors become `{"error": ...}` with their status.
 *
 * Limits are charged per API key (L2 routes) or address (L1 routes) once the request is
 * authenticated, per IP address on public routes; a request that fails authentication is
 * charged to its IP address's failed-auth bucket only, so unsigned floods from one caller never
 * use up the budget of an account that shares its address. Admin routes pass none of this:
 * they answer the callers routes/admin-guard.ts admits.
 */
export function installPipeline(app: FastifyInstance, ctx: SandboxContext): void {
  app.decorateRequest('sandboxRoute', null);
  app.decorateRequest('sandboxClient', null);
  app.decorateRequest('sandboxCaller', null);
  app.decorateRequest('sandboxSigner', null);
  app.decorateRequest('rawBody', undefined);

  // JSON bodies are kept as received: the L2 signature covers their exact text.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new SandboxHttpError(400, 'body is not valid JSON'), undefined);
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (config.admin) {
      checkAdminRequest(request, ctx.adminToken);
      return;
    }
    const route = config.routeId ?? config.resolveRoute?.(request);
    if (route === undefined) {
      ctx.stats.countUnmatched();
      return;
    }
    request.sandboxRoute = route;
    ctx.stats.count(route);
    const faults = ctx.faults.settings;
    const faulted = ctx.faults.applies(route);
    if (faulted && faults.latencyMs > 0) await wait(faults.latencyMs, ctx.closing);
    if (faulted && ctx.faults.drawDrop()) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (faulted && faults.rateLimitStorm) {
      throw new SandboxHttpError(429, 'rate limit storm: every request is throttled (fault injection)', STORM_RETRY_AFTER_SECONDS);
    }
    if (faulted && ctx.faults.drawError()) throw new SandboxHttpError(500, 'internal error (fault injection)');
    return undefined;
  });

  app.addHook('preHandler', (request, _reply, done) => {
    const route = request.sandboxRoute;
    try {
      if (route !== null) {
        request.sandboxClient = authenticatedClient(ctx, request, route);
        enforceLimits(ctx, request, route, 1);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });

  app.addHook('onSend', async (request, _reply, payload) => {
    const stallMs = ctx.faults.settings.stallMs;
    if (request.sandboxRoute !== null && stallMs > 0 && ctx.faults.applies(request.sandboxRoute)) await wait(stallMs, ctx.closing);
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    if (!request.routeOptions.config.admin) ctx.stats.countStatus(reply.statusCode, request.sandboxRoute);
  });

  app.setErrorHandler((error: FastifyError | Error, request, reply) => {
    if (error instanceof SandboxHttpError) {
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      const body: WireError = { error: error.message, ...error.extra };
      if (error.retryAfterSeconds !== undefined) body.retry_after_seconds = error.retryAfterSeconds;
      return reply.code(error.status).send(body);
    }
    if (error instanceof ParameterError || error instanceof ConfigError) {
      return reply.code(400).send({ error: error.message } satisfies WireError);
    }
    if ((error as FastifyError).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(400).send({ error: 'body must be JSON (content-type application/json)' } satisfies WireError);
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.code(status).send({ error: error.message } satisfies WireError);
    }
    request.log.error({ err: error }, 'sandbox route failed');
    return reply.code(500).send({ error: 'internal error' } satisfies WireError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? request.url;
    return reply.code(404).send({ error: `no route ${request.method} ${path}` } satisfies WireError);
  });
}

/**
 * The bucket a request's limits are charged to: `key:<api key>` for L2 routes, `address:<wallet>`
 * for L1 routes (after their checks pass), `ip:<address>` for public ones. A failed check is
 * charged to the IP address's failed-auth bucket and answered 401, or 429 once that is full.
 */
function authenticatedClient(ctx: SandboxContext, request: FastifyRequest, route: RouteId): string {
  const auth = ENDPOINTS[route].auth;
  if (auth === 'none') return `ip:${request.ip}`;
  try {
    return auth === 'l1' ? `address:${authenticateL1(ctx, request).address.toLowerCase()}` : `key:${authenticateL2(ctx, request).apiKey}`;
  } catch (error) {
    if (error instanceof SandboxHttpError && error.status === 401) refuse(ctx.limiter.admitFailedAuth(request.ip));
    throw error;
  }
}

/**
 * Part 8's limits for a request of `cost` on `route`, charged to the request's bucket: throws a
 * 429 with `Retry-After` (whole seconds, at least 1) when a window is full. The order routes call
 * it again with their item count.
 */
export function enforceLimits(ctx: SandboxContext, request: FastifyRequest, route: RouteId, cost: number): void {
  refuse(ctx.limiter.admit(request.sandboxClient ?? `ip:${request.ip}`, route, cost));
}

function refuse(refusal: LimitRefusal | undefined): void {
  if (!refusal) return;
  const { window, retryAfterMs } = refusal;
  throw new SandboxHttpError(
    429,
    `rate limit exceeded: '${window.name}' allows ${window.limit} per ${window.windowMs} ms`,
    Math.max(1, Math.ceil(retryAfterMs / 1000)),
  );
}

/**
 * A real-time wait (the server is an edge), cut short when the server closes. The waits of one
 * server share one listener on its closing signal (core/on-abort.ts): a stall fault holds every
 * request at once, and a listener each made Node warn of a leak past 10.
 */
function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      detach();
      resolve();
    }, ms);
    const detach = onAbort(signal, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

