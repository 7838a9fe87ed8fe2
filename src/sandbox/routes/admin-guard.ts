import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { SandboxHttpError } from '../http-error.ts';

/**
 * Who may call the admin routes (`/admin/*`): a caller on loopback, naming a loopback host in
 * `Host` (so a page of another site that rebinds its name to 127.0.0.1 is refused), with a JSON
 * body on every POST (`content-type: application/json`, also when the body is empty: a browser
 * page cannot send that without a CORS preflight, which the sandbox never answers), and with
 * `authorization: Bearer <token>` when the sandbox was started with an admin token.
 */

/** True for 127.0.0.0/8 and ::1, also in their IPv4-mapped form. */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** True for a `Host` header naming `localhost`, a 127.0.0.0/8 address or `[::1]`, with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const m = /^(\[::1\]|[^:[\]]+)(:\d{1,5})?$/.exec(host.trim().toLowerCase());
  if (m === null) return false;
  const name = m[1] as string;
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Throws the refusal of an admin request (403, 401 or 415), or returns when it may pass. */
export function checkAdminRequest(request: FastifyRequest, adminToken: string | undefined): void {
  if (!isLoopback(request.socket.remoteAddress)) throw new SandboxHttpError(403, 'admin routes answer loopback callers only');
  const host = request.headers.host;
  if (!isLoopbackHost(host)) {
    throw new SandboxHttpError(403, `admin routes answer a loopback Host only (localhost, 127.x.x.x, [::1]), was '${String(host).slice(0, 80)}'`);
  }
  if (adminToken !== undefined && !bearerMatches(request.headers.authorization, adminToken)) {
    throw new SandboxHttpError(401, 'admin routes need the admin token: header authorization: Bearer <token>');
  }
  if (request.method !== 'GET' && request.method !== 'HEAD' && !isJson(request.headers['content-type'])) {
    throw new SandboxHttpError(415, `admin ${request.method} takes JSON only: send content-type application/json (an empty body is fine)`);
  }
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const m = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m === null) return false;
  const given = Buffer.from(m[1] as string);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
