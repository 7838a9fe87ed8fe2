import { createHash, createHmac } from 'node:crypto';
import { toChecksumAddress } from '../../venue/signing/address.ts';

/** One issued API key: the wallet it belongs to and the two secrets that go with it. */
export interface ApiKeyRecord {
  /** uuid-shaped. */
  readonly apiKey: string;
  /** Checksummed wallet address the key was derived for. */
  readonly address: string;
  /** base64url (with `=` padding) of 32 bytes: the L2 HMAC key. */
  readonly secret: string;
  /** 64 lowercase hex characters. */
  readonly passphrase: string;
  /** The L1 nonce it was derived with, decimal. */
  readonly nonce: string;
}

/**
 * API credentials (PROTOCOL "L1 key derivation"): derived from (address, nonce) with HMACs keyed
 * by the server secret, so the same address and nonce always give the same credentials, across
 * restarts too when the server secret is the same (by default it follows the seed). Issued keys
 * are remembered for the L2 checks.
 */
export class ApiKeyRegistry {
  readonly #serverSecret: Buffer;
  readonly #byKey = new Map<string, ApiKeyRecord>();

  constructor(serverSecret: string) {
    this.#serverSecret = createHash('sha256').update(serverSecret).digest();
  }

  /** The credentials of (address, nonce), registered for L2 use. */
  issue(address: string, nonce: bigint): ApiKeyRecord {
    const checksummed = toChecksumAddress(address);
    const label = `${checksummed.toLowerCase()}\u0000${nonce.toString(10)}`;
    const mac = (purpose: string): Buffer => createHmac('sha256', this.#serverSecret).update(`${purpose}\u0000${label}`).digest();
    const record: ApiKeyRecord = Object.freeze({
      apiKey: uuidOf(mac('api-key')),
      address: checksummed,
      secret: mac('secret').toString('base64').replace(/\+/g, '-').replace(/\//g, '_'),
      passphrase: mac('passphrase').toString('hex'),
      nonce: nonce.toString(10),
    });
    this.#byKey.set(record.apiKey, record);
    return record;
  }

  get(apiKey: string): ApiKeyRecord | undefined {
    return this.#byKey.get(apiKey);
  }

  /** Every issued key (admin). */
  all(): ApiKeyRecord[] {
    return [...this.#byKey.values()];
  }
}

/** A version-4, variant-1 uuid from the first 16 bytes. */
export function uuidOf(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
