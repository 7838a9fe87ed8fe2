import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** The environment variable holding the control API's bearer token. */
export const CONTROL_TOKEN_ENV = 'CLOBOT_CONTROL_TOKEN';
/** Shortest token taken: a guessable one is refused at start. */
export const MIN_TOKEN_LENGTH = 16;
/** Default address and port of the control server. */
export const DEFAULT_CONTROL_HOST = '127.0.0.1';
export const DEFAULT_CONTROL_PORT = 8787;

/** Whether `host` names this machine only (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h.startsWith('::ffff:127.');
}

/**
 * Why the control server may not start on `host` with `token` (one line), or undefined when it
 * may: a token shorter than MIN_TOKEN_LENGTH, or an address beyond loopback without a token.
 */
export function bindingRefusal(host: string, token: string | undefined, flag = '--control-host'): string | undefined {
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) return `${CONTROL_TOKEN_ENV} is ${token.length} character(s): a control token has at least ${MIN_TOKEN_LENGTH} (e.g. openssl rand -hex 32)`;
  if (!isLoopback(host) && token === undefined) return `${flag} ${host} is not a loopback address: set ${CONTROL_TOKEN_ENV} (a bearer token of at least ${MIN_TOKEN_LENGTH} characters) to serve it there, or use an SSH tunnel to 127.0.0.1`;
  return undefined;
}

/** The token from the environment (an empty value counts as none). */
export function controlToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env[CONTROL_TOKEN_ENV];
  return token === undefined || token === '' ? undefined : token;
}

/**
 * Whether `given` (an `Authorization: Bearer <token>` value's token) is `expected`, in time
 * independent of where they differ: both are hashed first, so lengths leak nothing either.
 */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = createHash('sha256').update(expected).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b);
}

/** The token of an `Authorization: Bearer <token>` header, else undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  return m?.[1];
}

/** The prefix of the WebSocket subprotocol carrying the token (browsers cannot set headers on a WebSocket). */
export const WS_TOKEN_PROTOCOL = 'bearer.';
/** The subprotocol the message WebSocket speaks. */
export const WS_PROTOCOL = 'clobot.v1';
