import { ORDER_TYPE_STRING, keccakText, typedDataDigest, ZERO_BYTES32 } from './eip712.ts';
import { hexToBytes, writeHex } from './hex.ts';
import { keccak256 } from './keccak256.ts';

/**
 * Deposit-wallet orders (signature type 3, POLY_1271): the wallet is both `maker` and `signer`
 * of the order, and the exchange validates the signature with EIP-1271 `isValidSignature` on
 * the wallet. The wallet takes the nested typed-data form of ERC-7739: its owner signs, under the
 * exchange's own EIP-712 domain, a `TypedDataSign` struct whose `contents` is the order and
 * whose remaining fields name the wallet's domain (`DepositWallet`, version `1`, the chain, the
 * wallet's address, a zero salt). What is sent as `signature` is that 65-byte signature
 * followed by what the wallet needs to rebuild the order's digest:
 *
 *     r ‖ s ‖ v ‖ exchange domain separator ‖ hashStruct(order) ‖ ORDER_TYPE_STRING ‖ uint16(186)
 *
 * 65 + 32 + 32 + 186 + 2 = 317 bytes. The order hash (the order id) is the ordinary EIP-712
 * digest of the order, as for types 0-2. Facts from the official client
 * `@polymarket/clob-client-v2` 1.1.0 (`exchangeOrderBuilderV2`, `createOrder`); docs/design-notes.md
 * "Deposit-wallet orders" says what was taken from where.
 */

export const DEPOSIT_WALLET_SIGNATURE_TYPE = 3;
export const DEPOSIT_WALLET_DOMAIN_NAME = 'DepositWallet';
export const DEPOSIT_WALLET_DOMAIN_VERSION = '1';

/** EIP-712 `encodeType` of TypedDataSign: the primary type, then the referenced `Order`. */
export const TYPED_DATA_SIGN_TYPE_STRING =
  'TypedDataSign(Order contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)' + ORDER_TYPE_STRING;

const TYPED_DATA_SIGN_TYPE_HASH = keccakText(TYPED_DATA_SIGN_TYPE_STRING);
const NAME_HASH = keccakText(DEPOSIT_WALLET_DOMAIN_NAME);
const VERSION_HASH = keccakText(DEPOSIT_WALLET_DOMAIN_VERSION);
const ORDER_TYPE_BYTES = new TextEncoder().encode(ORDER_TYPE_STRING);

/** Bytes of a wrapped signature: inner signature, separator, contents hash, type string, its length. */
export const WRAPPED_SIGNATURE_LENGTH = 65 + 32 + 32 + ORDER_TYPE_BYTES.length + 2;

/**
 * The digest the wallet's owner signs for an order whose struct hash is `contentsHash`, under
 * the exchange domain `separator`, for the deposit wallet `wallet` on `chainId`.
 */
export function depositWalletDigest(separator: Uint8Array, contentsHash: Uint8Array, chainId: number, wallet: string): Uint8Array {
  const buf = new Uint8Array(32 * 7);
  buf.set(TYPED_DATA_SIGN_TYPE_HASH, 0);
  buf.set(contentsHash, 32);
  buf.set(NAME_HASH, 64);
  buf.set(VERSION_HASH, 96);
  if (!Number.isSafeInteger(chainId) || chainId < 0) throw new RangeError('chainId: must be a safe non-negative integer');
  const view = new DataView(buf.buffer);
  view.setUint32(128 + 24, Math.floor(chainId / 2 ** 32));
  view.setUint32(128 + 28, chainId >>> 0);
  if (!writeHex(buf, 160 + 12, wallet, 20)) throw new RangeError('wallet: must be 0x and 20 bytes of hex');
  // salt: bytes32 zero, already zero at 192
  return typedDataDigest(separator, keccak256(buf));
}

/** The `signature` field of a type-3 order: the owner's 65 bytes wrapped for the wallet. */
export function wrapDepositWalletSignature(inner: Uint8Array, separator: Uint8Array, contentsHash: Uint8Array): Uint8Array {
  const out = new Uint8Array(WRAPPED_SIGNATURE_LENGTH);
  out.set(inner.subarray(0, 65), 0);
  out.set(separator, 65);
  out.set(contentsHash, 97);
  out.set(ORDER_TYPE_BYTES, 129);
  const n = ORDER_TYPE_BYTES.length;
  out[129 + n] = n >>> 8;
  out[130 + n] = n & 0xff;
  return out;
}

/** The parts of a wrapped signature, or undefined when it is not one (length, type string). */
export interface WrappedSignature {
  readonly inner: Uint8Array;
  readonly separator: Uint8Array;
  readonly contentsHash: Uint8Array;
}

export function unwrapDepositWalletSignature(signature: string): WrappedSignature | undefined {
  const bytes = typeof signature === 'string' ? hexToBytes(signature, WRAPPED_SIGNATURE_LENGTH) : undefined;
  if (bytes === undefined) return undefined;
  const n = ORDER_TYPE_BYTES.length;
  if ((bytes[129 + n]! << 8) + bytes[130 + n]! !== n) return undefined;
  for (let i = 0; i < n; i++) if (bytes[129 + i] !== ORDER_TYPE_BYTES[i]) return undefined;
  return { inner: bytes.subarray(0, 65), separator: bytes.subarray(65, 97), contentsHash: bytes.subarray(97, 129) };
}

/** The zero salt of the wallet's domain (exported for the docs and tests). */
export const DEPOSIT_WALLET_SALT = ZERO_BYTES32;
