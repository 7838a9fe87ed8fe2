import { createHash, createHmac, timingSafeEqual, type Hash } from 'node:crypto';
import { ConfigError } from '../../core/errors.ts';
import type { Secret } from '../../core/secret.ts';
import { authHeaderPrefix, type VenueProfile } from './profile.ts';

/**
 * L2 authentication (PROTOCOL "L2 request signing"): HMAC-SHA256 with the base64url-decoded API
 * secret over `timestamp + METHOD + path + body`. The signature is lowercase hex in the
 * `interface` profile and base64url with `=` padding in the `polymarket` profile. node:crypto's
 * HMAC is used: native, twice @noble/hashes' rate on a bodiless request and seven times on a
 * 15-order body here.
 */

export interface ApiCredentials {
  readonly apiKey: string;
  /** base64url (standard base64 accepted), 32 bytes. */
  readonly secret: Secret<string>;
  /** 64 hex characters; travels in its header, not in the MAC. */
  readonly passphrase: Secret<string>;
}

export type L2SignatureEncoding = 'hex' | 'base64url';

const BASE64_RE = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** The L2 signature encoding of a profile. */
export function l2Encoding(profile: VenueProfile): L2SignatureEncoding {
  return profile === 'polymarket' ? 'base64url' : 'hex';
}

/** Decodes an API secret (base64url or standard base64, padding optional). Throws ConfigError. */
export function decodeApiSecret(secret: string): Buffer {
  const text = secret.trim();
  if (text.length === 0 || !BASE64_RE.test(text)) throw new ConfigError('api secret: must be base64 or base64url');
  const key = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key.length === 0) throw new ConfigError('api secret: decodes to no bytes');
  return key;
}

/** The exact bytes that are MACed: `timestamp + method + path + body`. */
export function l2SigningString(timestamp: string, method: string, path: string, body: string | undefined): string {
  return timestamp + method + path + (body ?? '');
}

/** HMAC-SHA256 of the signing string with the decoded secret, in the given encoding. */
export function l2Signature(
  key: Uint8Array,
  timestamp: string,
  method: string,
  path: string,
  body: string | undefined,
  encoding: L2SignatureEncoding,
): string {
  // the same bytes as l2SigningString, fed in two parts: the body (kilobytes for a batch) is not copied into a new string
  const mac = createHmac('sha256', key)
    .update(timestamp + method + path)
    .update(body ?? '')
    .digest();
  return encoding === 'hex' ? mac.toString('hex') : toBase64UrlPadded(mac);
}

/**
 * HMAC-SHA256 under one key, from the SHA-256 states after the key's inner and outer pad blocks
 * (RFC 2104), made once: a request copies the two states instead of keying a new Hmac. On the
 * order path createHmac's setup (OpenSSL fetching the digest and the HMAC for every request)
 * cost more than copying; same bytes as createHmac (pinned in test/venue/signing/auth.test.ts).
 */
export function createL2Mac(key: Uint8Array): (head: string, body: string) => Buffer {
  const BLOCK = 64;
  const block = Buffer.alloc(BLOCK);
  // a key longer than a block is replaced by its digest, as HMAC defines
  if (key.length > BLOCK) createHash('sha256').update(key).digest().copy(block);
  else block.set(key);
  const inner = createHash('sha256');
  const outer = createHash('sha256');
  for (let i = 0; i < BLOCK; i++) block[i] = (block[i] as number) ^ 0x36;
  inner.update(block);
  for (let i = 0; i < BLOCK; i++) block[i] = (block[i] as number) ^ 0x36 ^ 0x5c;
  outer.update(block);
  block.fill(0);
  return (head, body) => {
    const innerHash: Hash = inner.copy().update(head);
    if (body !== '') innerHash.update(body);
    return outer.copy().update(innerHash.digest()).digest();
  };
}

/** Signs requests for one account and API key; the decoded secret stays in this closure. */
export interface L2Signer {
  readonly address: string;
  readonly apiKey: string;
  /**
   * The five L2 headers for one request. `path` without the query string, `body` the exact
   * JSON text that will be sent (omit for none), `timestampSec` from the injected clock.
   */
  headers(method: string, path: string, body: string | undefined, timestampSec: number): Record<string, string>;
}

export function createL2Signer(address: string, credentials: ApiCredentials, profile: VenueProfile): L2Signer {
  const key = decodeApiSecret(credentials.secret.reveal());
  const mac = createL2Mac(key);
  key.fill(0);
  const passphrase = credentials.passphrase;
  const encoding = l2Encoding(profile);
  const p = authHeaderPrefix(profile);
  const hAddress = `${p}_ADDRESS`;
  const hApiKey = `${p}_API_KEY`;
  const hPassphrase = `${p}_PASSPHRASE`;
  const hTimestamp = `${p}_TIMESTAMP`;
  const hSignature = `${p}_SIGNATURE`;
  return {
    address,
    apiKey: credentials.apiKey,
    headers(method, path, body, timestampSec) {
      const timestamp = String(timestampSec);
      // the same bytes as l2SigningString, fed in two parts: the body (kilobytes for a batch) is not copied into a new string
      const signature = mac(timestamp + method + path, body ?? '');
      return {
        [hAddress]: address,
        [hApiKey]: credentials.apiKey,
        [hPassphrase]: passphrase.reveal(),
        [hTimestamp]: timestamp,
        [hSignature]: encoding === 'hex' ? signature.toString('hex') : toBase64UrlPadded(signature),
      };
    },
  };
}

export interface L2VerifyParams {
  /** The API secret as issued (base64url). */
  readonly secret: string | Secret<string>;
  readonly timestamp: string;
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
  /** The signature header as received. */
  readonly signature: string;
  readonly profile: VenueProfile;
}

/**
 * True when `signature` is the L2 MAC of the request, compared in constant time. The `polymarket`
 * profile accepts base64url with or without padding (and standard base64), `interface` lowercase
 * or uppercase hex.
 */
export function verifyL2Signature(params: L2VerifyParams): boolean {
  let key: Buffer;
  try {
    key = decodeApiSecret(typeof params.secret === 'string' ? params.secret : params.secret.reveal());
  } catch {
    return false;
  }
  const expected = createHmac('sha256', key)
    .update(l2SigningString(params.timestamp, params.method, params.path, params.body))
    .digest();
  const given = decodeSignature(params.signature, l2Encoding(params.profile));
  if (given === undefined || given.length !== expected.length) return false;
  return timingSafeEqual(given, expected);
}

function decodeSignature(text: string, encoding: L2SignatureEncoding): Buffer | undefined {
  if (encoding === 'hex') {
    return /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : undefined;
  }
  if (!BASE64_RE.test(text)) return undefined;
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

function toBase64UrlPadded(bytes: Buffer): string {
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}
