import { ConfigError } from '../../core/errors.ts';
import type { Secret } from '../../core/secret.ts';
import type { VenueClient } from '../client.ts';
import { ENDPOINTS } from '../endpoints.ts';
import { isAddress, privateKeyToAddress, toChecksumAddress } from '../signing/address.ts';
import { buildL1Headers } from '../signing/clob-auth.ts';
import { privateKeyBytes } from '../signing/private-key.ts';

/** Who asks for API credentials (PROTOCOL "L1 key derivation"). */
export interface L1AuthOptions {
  readonly privateKey: Secret<string>;
  /** Checksummed address of the key; derived from it when omitted, checked against it when given. */
  readonly address?: string;
  /** The same address and nonce always derive the same credentials. Default 0. */
  readonly nonce?: number;
  /** EIP-712 chain id of the ClobAuth domain. Default 137. */
  readonly chainId?: number;
}

/**
 * The same client with L1 authentication on the key routes (`auth: 'l1'`): the four headers
 * (`*_ADDRESS`, `*_SIGNATURE`, `*_TIMESTAMP`, `*_NONCE`) carry a ClobAuth EIP-712 signature over
 * the address, the timestamp in unix seconds from the client's clock at send time, and the
 * nonce. Other routes go out without headers.
 */
export function withL1Auth(client: VenueClient, options: L1AuthOptions): VenueClient {
  const address = l1Address(options);
  const clock = client.clock;
  return client.withBeforeSend((route) => {
    if (ENDPOINTS[route].auth !== 'l1') return {};
    return buildL1Headers({
      privateKey: options.privateKey,
      address,
      timestampSec: Math.floor(clock.now() / 1000),
      nonce: options.nonce,
      profile: client.profile,
      chainId: options.chainId,
    });
  });
}

/** The checksummed address of the options' key (ConfigError when a given address is not it). */
export function l1Address(options: Pick<L1AuthOptions, 'privateKey' | 'address'>): string {
  const key = privateKeyBytes(options.privateKey);
  const derived = privateKeyToAddress(key);
  key.fill(0);
  if (options.address === undefined) return derived;
  if (!isAddress(options.address) || toChecksumAddress(options.address) !== derived) {
    throw new ConfigError(`address: ${options.address} is not the address of the private key`);
  }
  return derived;
}
