import { DecodeError } from '../../core/errors.ts';
import type { WireSignedOrder } from '../wire/account.ts';
import { publicKeyToAddress } from './address.ts';
import { recoverPublicKey } from './ecdsa.ts';
import { clobAuthDigest, domainSeparator, orderDigest, orderDomain, POLYGON_CHAIN_ID, type OrderStruct } from './eip712.ts';
import { hexToBytes, isHexOfLength, toHex } from './hex.ts';

/**
 * Signature recovery for the verifying side (the sandbox): who signed an order, who signed a
 * ClobAuth message. Malformed or malleable (high-s) signatures recover nobody.
 */

/** Checksummed address that signed `digest`, or undefined when `signature` recovers none. */
export function recoverAddress(digest: Uint8Array, signature: string): string | undefined {
  const sig = hexToBytes(signature, 65);
  if (sig === undefined) return undefined;
  const pub = recoverPublicKey(digest, sig);
  return pub === undefined ? undefined : publicKeyToAddress(pub);
}

const UINT_RE = /^[0-9]{1,78}$/;

/** The signed struct of a wire order; throws DecodeError naming the field (`order.<field>`). */
export function orderStructFromWire(order: WireSignedOrder): OrderStruct {
  const uint = (field: keyof WireSignedOrder, value: unknown): bigint => {
    const text = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value;
    if (typeof text !== 'string' || !UINT_RE.test(text)) throw new DecodeError(`order.${field}`, 'uint256 decimal string', value);
    const n = BigInt(text);
    if (n >= 1n << 256n) throw new DecodeError(`order.${field}`, 'uint256 decimal string', value);
    return n;
  };
  const address = (field: 'maker' | 'signer', value: unknown): string => {
    if (typeof value !== 'string' || !isHexOfLength(value, 20)) throw new DecodeError(`order.${field}`, '0x address', value);
    return value;
  };
  const bytes32 = (field: 'metadata' | 'builder', value: unknown): string => {
    if (typeof value !== 'string' || !isHexOfLength(value, 32)) throw new DecodeError(`order.${field}`, '0x bytes32', value);
    return value;
  };
  if (order.side !== 'BUY' && order.side !== 'SELL') throw new DecodeError('order.side', 'BUY or SELL', order.side);
  const st = order.signatureType;
  if (typeof st !== 'number' || !Number.isInteger(st) || st < 0 || st > 255) {
    throw new DecodeError('order.signatureType', 'integer 0..255', st);
  }
  return {
    salt: uint('salt', order.salt),
    maker: address('maker', order.maker),
    signer: address('signer', order.signer),
    tokenId: uint('tokenId', order.tokenId),
    makerAmount: uint('makerAmount', order.makerAmount),
    takerAmount: uint('takerAmount', order.takerAmount),
    side: order.side === 'BUY' ? 0 : 1,
    signatureType: st,
    timestamp: uint('timestamp', order.timestamp),
    metadata: bytes32('metadata', order.metadata),
    builder: bytes32('builder', order.builder),
  };
}

export interface RecoveredOrder {
  /** 0x lowercase EIP-712 digest: the order id. */
  readonly orderHash: string;
  /** Checksummed signer address, or undefined when the signature recovers none. */
  readonly recovered: string | undefined;
}

/**
 * Hashes a wire order under `verifyingContract` and recovers its signer. The caller compares
 * `recovered` with `order.signer` (case-insensitively). Throws DecodeError on a malformed order.
 */
export function recoverOrderSigner(
  order: WireSignedOrder,
  verifyingContract: string,
  chainId: number = POLYGON_CHAIN_ID,
): RecoveredOrder {
  const digest = orderDigest(domainSeparator(orderDomain(verifyingContract, chainId)), orderStructFromWire(order));
  const signature = typeof order.signature === 'string' ? order.signature : '';
  return { orderHash: toHex(digest), recovered: recoverAddress(digest, signature) };
}

/** The address that signed a ClobAuth message (the L1 headers' values), or undefined. */
export function recoverClobAuthSigner(
  fields: { address: string; timestamp: string; nonce: string; signature: string },
  chainId: number = POLYGON_CHAIN_ID,
): string | undefined {
  if (!isHexOfLength(fields.address, 20) || !UINT_RE.test(fields.nonce)) return undefined;
  const digest = clobAuthDigest({ address: fields.address, timestamp: fields.timestamp, nonce: BigInt(fields.nonce) }, chainId);
  return recoverAddress(digest, fields.signature);
}
