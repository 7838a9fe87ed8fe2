import { keccak_256 } from '@noble/hashes/sha3.js';
import { isValidPrivateKey } from '../venue/signing/ecdsa.ts';
import { toHex } from '../venue/signing/hex.ts';
import type { Hex } from './run-config.ts';

/**
 * A throwaway private key derived from the embedded sandbox's seed, for `live` runs against the
 * in-process sandbox when no key is configured. It is public knowledge (anyone can compute it
 * from the seed): never use it against a real venue. Same seed, same key, same address.
 */
export function sandboxPrivateKey(seed: number): Hex {
  let bytes = keccak_256(new TextEncoder().encode(`clobot sandbox-only throwaway key, seed ${seed}`));
  while (!isValidPrivateKey(bytes)) bytes = keccak_256(bytes);
  return toHex(bytes) as Hex;
}
