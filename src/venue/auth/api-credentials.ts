import { ConfigError } from '../../core/errors.ts';
import { Secret } from '../../core/secret.ts';
import { decodeApiSecret, type ApiCredentials } from '../signing/l2-auth.ts';

/**
 * L2 API credentials (PROTOCOL "L1 key derivation"): `{apiKey, secret, passphrase}` as the venue
 * issues them. The type lives with the signing code (signing/l2-auth.ts), which is its one user
 * of the secret; it is re-exported here so callers find credentials under `venue/auth`. The
 * secret and the passphrase are `Secret`s: they print as `***` everywhere.
 */
export type { ApiCredentials };

/**
 * Credentials from their plain-text parts (environment, a key file, the derive route). Checks
 * that the key is non-empty and the secret decodes; the messages never show the values.
 */
export function apiCredentials(apiKey: string, secret: string, passphrase: string): ApiCredentials {
  if (apiKey.trim() === '') throw new ConfigError('api credentials: apiKey is empty');
  if (passphrase.trim() === '') throw new ConfigError('api credentials: passphrase is empty');
  decodeApiSecret(secret);
  return Object.freeze({ apiKey, secret: new Secret(secret), passphrase: new Secret(passphrase) });
}
