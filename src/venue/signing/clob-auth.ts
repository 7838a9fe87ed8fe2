import type { Secret } from '../../core/secret.ts';
import { ConfigError } from '../../core/errors.ts';
import { privateKeyToAddress, sameAddress } from './address.ts';
import { signDigest } from './ecdsa.ts';
import { clobAuthDigest, POLYGON_CHAIN_ID } from './eip712.ts';
import { toHex } from './hex.ts';
import { privateKeyBytes } from './private-key.ts';
import { authHeaderPrefix, type VenueProfile } from './profile.ts';

/**
 * L1 authentication (PROTOCOL "L1 key derivation"): an EIP-712 `ClobAuth` signature proves
 * control of the wallet to `POST /auth/api-key` and `GET /auth/derive-api-key`.
 */

export interface L1AuthParams {
  readonly privateKey: Secret<string>;
  /** Checksummed address of the key; checked against it. */
  readonly address: string;
  /** Unix seconds from the injected clock. */
  readonly timestampSec: number;
  /** The same address and nonce always derive the same credentials. Default 0. */
  readonly nonce?: number;
  readonly profile: VenueProfile;
  readonly chainId?: number;
}

/** The 0x-hex 65-byte ClobAuth signature of `address` at `timestamp` with `nonce`. */
export function signClobAuth(
  privateKey: Uint8Array,
  address: string,
  timestamp: string,
  nonce: number | bigint,
  chainId: number = POLYGON_CHAIN_ID,
): string {
  return toHex(signDigest(clobAuthDigest({ address, timestamp, nonce }, chainId), privateKey));
}

/** The four L1 headers: `*_ADDRESS`, `*_SIGNATURE`, `*_TIMESTAMP`, `*_NONCE`. */
export function buildL1Headers(params: L1AuthParams): Record<string, string> {
  const key = privateKeyBytes(params.privateKey);
  if (!sameAddress(privateKeyToAddress(key), params.address)) {
    throw new ConfigError(`address: ${params.address} is not the address of the private key`);
  }
  const ts = params.timestampSec;
  if (!Number.isSafeInteger(ts) || ts < 0) throw new ConfigError('timestampSec: must be non-negative unix seconds');
  const nonce = params.nonce ?? 0;
  if (!Number.isSafeInteger(nonce) || nonce < 0) throw new ConfigError('nonce: must be a non-negative integer');
  const timestamp = String(ts);
  const signature = signClobAuth(key, params.address, timestamp, nonce, params.chainId);
  key.fill(0);
  const p = authHeaderPrefix(params.profile);
  return {
    [`${p}_ADDRESS`]: params.address,
    [`${p}_SIGNATURE`]: signature,
    [`${p}_TIMESTAMP`]: timestamp,
    [`${p}_NONCE`]: String(nonce),
  };
}
