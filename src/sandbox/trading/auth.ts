import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isAddress, sameAddress, toChecksumAddress } from '../../venue/signing/address.ts';
import { verifyL2Signature } from '../../venue/signing/l2-auth.ts';
import { recoverClobAuthSigner } from '../../venue/signing/recover.ts';
import type { SandboxContext } from '../context.ts';
import { unauthorized } from '../http-error.ts';
import { authHeaderNames, l1HeaderNames } from '../profile.ts';
import type { Caller, L1Signer } from './caller.ts';

/**
 * The sandbox's side of authentication. L1 (PROTOCOL "L1 key derivation"): the ClobAuth EIP-712
 * signature in `*_SIGNATURE` must recover to `*_ADDRESS`, over `*_TIMESTAMP` (unix seconds,
 * within the freshness window of the sandbox clock) and `*_NONCE` (0 when absent). L2
 * (PROTOCOL "L2 request signing"): all five headers, a known API key that belongs to
 * `*_ADDRESS`, its passphrase, a fresh timestamp, and the HMAC over `timestamp + METHOD + path +
 * body`, where `path` has no query string and no `/clob` mount prefix and `body` is the exact
 * text received. Every failure is a 401 whose message names the check; no secret is echoed.
 * The pipeline authenticates before it charges the rate limits (per API key or address); the
 * result is kept on the request, so the handlers' own calls do not check twice.
 */


/** The mount prefix of the trading group; the signed path leaves it out. */
const TRADING_PREFIX = '/clob';

/** The path the L2 signature covers: no query string, no `/clob` prefix. */
export function signedPath(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  return path.startsWith(TRADING_PREFIX + '/') ? path.slice(TRADING_PREFIX.length) : path;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Checks the L1 headers once per request; returns the checksummed address and the nonce. */
export function authenticateL1(ctx: SandboxContext, request: FastifyRequest): L1Signer {
  return (request.sandboxSigner ??= checkL1(ctx, request));
}

function checkL1(ctx: SandboxContext, request: FastifyRequest): L1Signer {
  const names = l1HeaderNames(ctx.profile);
  const upper = (n: string): string => n.toUpperCase();
  const address = header(request, names.address);
  const signature = header(request, names.signature);
  const timestamp = header(request, names.timestamp);
  const nonceText = header(request, names.nonce) ?? '0';
  for (const [name, value] of [[names.address, address], [names.signature, signature], [names.timestamp, timestamp]] as const) {
    if (value === undefined || value === '') throw unauthorized(`L1 auth: header ${upper(name)} is missing`);
  }
  if (!isAddress(address as string)) throw unauthorized(`L1 auth: ${upper(names.address)} is not a valid address`);
  if (!/^\d{1,78}$/.test(nonceText)) throw unauthorized(`L1 auth: ${upper(names.nonce)} must be a non-negative integer`);
  checkFreshness(ctx, timestamp as string, `L1 auth: ${upper(names.timestamp)}`);
  const recovered = recoverClobAuthSigner(
    { address: address as string, timestamp: timestamp as string, nonce: nonceText, signature: signature as string },
    ctx.trading.chainId,
  );
  if (recovered === undefined || !sameAddress(recovered, address as string)) {
    throw unauthorized(`L1 auth: ${upper(names.signature)} is not a ClobAuth signature of ${upper(names.address)}`);
  }
  return { address: toChecksumAddress(address as string), nonce: BigInt(nonceText) };
}

/** Checks the five L2 headers and the request's HMAC once per request; returns the caller. */
export function authenticateL2(ctx: SandboxContext, request: FastifyRequest): Caller {
  return (request.sandboxCaller ??= checkL2(ctx, request));
}

function checkL2(ctx: SandboxContext, request: FastifyRequest): Caller {
  const names = authHeaderNames(ctx.profile);
  const upper = (n: string): string => n.toUpperCase();
  const values = {
    address: header(request, names.address),
    apiKey: header(request, names.apiKey),
    passphrase: header(request, names.passphrase),
    timestamp: header(request, names.timestamp),
    signature: header(request, names.signature),
  };
  for (const key of ['address', 'apiKey', 'passphrase', 'timestamp', 'signature'] as const) {
    const value = values[key];
    if (value === undefined || value === '') throw unauthorized(`L2 auth: header ${upper(names[key])} is missing`);
  }
  const address = values.address as string;
  const apiKey = values.apiKey as string;
  const record = ctx.apiKeys.get(apiKey);
  if (record === undefined) throw unauthorized(`L2 auth: unknown API key in ${upper(names.apiKey)}`);
  if (!isAddress(address) || !sameAddress(record.address, address)) {
    throw unauthorized(`L2 auth: the API key does not belong to ${upper(names.address)}`);
  }
  if (!equalText(record.passphrase, values.passphrase as string)) {
    throw unauthorized(`L2 auth: ${upper(names.passphrase)} does not match the API key`);
  }
  const timestamp = values.timestamp as string;
  checkFreshness(ctx, timestamp, `L2 auth: ${upper(names.timestamp)}`);
  const ok = verifyL2Signature({
    secret: record.secret,
    timestamp,
    method: request.method,
    path: signedPath(request),
    body: request.rawBody,
    signature: values.signature as string,
    profile: ctx.profile,
  });
  if (!ok) throw unauthorized(`L2 auth: ${upper(names.signature)} is not the HMAC of timestamp + method + path + body`);
  return { address: record.address, apiKey };
}

function checkFreshness(ctx: SandboxContext, timestamp: string, what: string): void {
  if (!/^\d{1,12}$/.test(timestamp)) throw unauthorized(`${what} must be unix seconds`);
  const windowSec = ctx.trading.authWindowMs / 1000;
  const skew = Number(timestamp) - (ctx.clock.now() + ctx.faults.settings.clockSkewMs) / 1000;
  if (Math.abs(skew) > windowSec) {
    throw unauthorized(`${what} is ${Math.round(Math.abs(skew))} s ${skew < 0 ? 'old' : 'ahead'}, outside the ${windowSec} s window of the sandbox clock`);
  }
}

function equalText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
