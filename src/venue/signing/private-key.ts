import { ConfigError } from '../../core/errors.ts';
import type { Secret } from '../../core/secret.ts';
import { isValidPrivateKey } from './ecdsa.ts';
import { hexToBytes } from './hex.ts';

/**
 * The bytes of a private key held as a Secret (0x-hex, or 64 hex digits without 0x). Throws a
 * ConfigError that never shows the value when it is malformed or out of range.
 */
export function privateKeyBytes(privateKey: Secret<string>, where = 'privateKey'): Uint8Array {
  const text = privateKey.reveal().trim();
  const bytes = hexToBytes(text.startsWith('0x') || text.startsWith('0X') ? '0x' + text.slice(2) : '0x' + text, 32);
  if (bytes === undefined || !isValidPrivateKey(bytes)) {
    throw new ConfigError(`${where}: must be 32 bytes of hex (64 digits, optional 0x) in the secp256k1 range`);
  }
  return bytes;
}
