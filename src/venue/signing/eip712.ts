import { ClobotError } from '../../core/errors.ts';
import { writeHex } from './hex.ts';
import { keccak256 as jsKeccak256 } from './keccak256.ts';
import { nativeAddon } from './native-addon.ts';

/**
 * EIP-712 typed-data hashing for the two structs the venue signs: `Order` (PROTOCOL "Orders")
 * and `ClobAuth` (PROTOCOL "L1 key derivation"). Type hashes are computed at load, domain
 * separators once per domain; the order struct is encoded into one preallocated buffer.
 * Hashing goes through the signing addon's keccak256 when it is loaded (about 3 times the
 * JavaScript one's rate on the 384-byte order struct), else keccak256.ts; the same bytes.
 */

type Keccak256 = (data: Uint8Array, out?: Uint8Array, offset?: number) => Uint8Array;

function nativeKeccak256(hash: (data: Uint8Array, out: Uint8Array, offset: number) => void): Keccak256 {
  return (data, out = new Uint8Array(32), offset = 0) => {
    hash(data, out, offset);
    return out;
  };
}

const keccak256: Keccak256 = nativeAddon?.keccak256 ? nativeKeccak256(nativeAddon.keccak256) : jsKeccak256;

export const POLYGON_CHAIN_ID = 137;

/** Exchange contracts that verify orders (PROTOCOL "Orders"); configuration, these defaults. */
export const DEFAULT_EXCHANGE_ADDRESSES: Readonly<{ standard: string; negRisk: string }> = Object.freeze({
  standard: '0xE111180000d2663C0091e4f400237545B87B996B',
  negRisk: '0xe2222d279d744050d28e00520010520000310F59',
});

export const ORDER_DOMAIN_NAME = 'Polymarket CTF Exchange';
export const ORDER_DOMAIN_VERSION = '2';

export const ORDER_TYPE_STRING =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,' +
  'uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';

export const ZERO_BYTES32 = '0x' + '00'.repeat(32);

const encoder = new TextEncoder();

/** keccak256 of the UTF-8 bytes of `text` (how EIP-712 encodes `string` members and type strings). */
export function keccakText(text: string): Uint8Array {
  return keccak256(encoder.encode(text));
}

export const ORDER_TYPE_HASH: Uint8Array = keccakText(ORDER_TYPE_STRING);

export interface Eip712Domain {
  readonly name: string;
  readonly version: string;
  readonly chainId: number;
  /** Absent for domains without one (ClobAuthDomain). */
  readonly verifyingContract?: string;
}

const DOMAIN_TYPE_HASH = keccakText('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)');
const DOMAIN_TYPE_HASH_NO_CONTRACT = keccakText('EIP712Domain(string name,string version,uint256 chainId)');
const domainCache = new Map<string, Uint8Array>();

/** The domain separator (hashStruct of the domain), memoised per domain. */
export function domainSeparator(domain: Eip712Domain): Uint8Array {
  const contract = domain.verifyingContract;
  const key = `${domain.name}\u0000${domain.version}\u0000${domain.chainId}\u0000${contract?.toLowerCase() ?? ''}`;
  const cached = domainCache.get(key);
  if (cached) return cached;
  const buf = new Uint8Array(contract === undefined ? 128 : 160);
  const view = new DataView(buf.buffer);
  buf.set(contract === undefined ? DOMAIN_TYPE_HASH_NO_CONTRACT : DOMAIN_TYPE_HASH, 0);
  buf.set(keccakText(domain.name), 32);
  buf.set(keccakText(domain.version), 64);
  writeUint256(view, 96, domain.chainId, 'domain.chainId');
  if (contract !== undefined) writeAddress(buf, 128, contract, 'domain.verifyingContract');
  const separator = keccak256(buf);
  domainCache.set(key, separator);
  return separator;
}

/** The domain orders are signed under: the standard or neg-risk exchange. */
export function orderDomain(verifyingContract: string, chainId: number = POLYGON_CHAIN_ID): Eip712Domain {
  return { name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, chainId, verifyingContract };
}

/** The signed order struct. Numbers must be safe non-negative integers; addresses and bytes32 are 0x-hex. */
export interface OrderStruct {
  readonly salt: number | bigint;
  readonly maker: string;
  readonly signer: string;
  readonly tokenId: bigint;
  readonly makerAmount: number | bigint;
  readonly takerAmount: number | bigint;
  /** 0 BUY, 1 SELL. */
  readonly side: 0 | 1;
  readonly signatureType: number;
  /** Milliseconds since epoch. */
  readonly timestamp: number | bigint;
  readonly metadata: string;
  readonly builder: string;
}

/** Thrown for a struct member that cannot be encoded; `field` names it. */
export class Eip712EncodeError extends ClobotError {
  override readonly name: string = 'Eip712EncodeError';
  constructor(readonly field: string, rule: string) {
    super(`${field}: ${rule}`);
  }
}

// One buffer for the encoded order struct (type hash + 11 words) and one for the digest input.
// A Buffer, so hex is written into it without a view per call.
const orderBuf = Buffer.alloc(32 * 12);
const orderView = new DataView(orderBuf.buffer, orderBuf.byteOffset, orderBuf.byteLength);
orderBuf.set(ORDER_TYPE_HASH, 0); // word 0 never changes
const digestBuf = new Uint8Array(66);
digestBuf[0] = 0x19;
digestBuf[1] = 0x01;
// maker, signer and builder are the account's, the same in every order it signs, and a batch is
// mostly on one token: the words written last time are kept and written again only when the
// value differs ('' or -1n = not written)
let lastMaker = '';
let lastSigner = '';
let lastBuilder = '';
let lastTokenId: bigint = -1n;

/** hashStruct(Order). */
export function hashOrderStruct(order: OrderStruct): Uint8Array {
  return writeOrderStructHash(order, new Uint8Array(32), 0);
}

/** hashStruct(Order) written into `out` at `offset`; returns `out`. */
function writeOrderStructHash(order: OrderStruct, out: Uint8Array, offset: number): Uint8Array {
  const b = orderBuf;
  const v = orderView;
  writeUint256(v, 32, order.salt, 'salt');
  if (order.maker !== lastMaker) {
    lastMaker = '';
    writeAddress(b, 64, order.maker, 'maker');
    lastMaker = order.maker;
  }
  if (order.signer !== lastSigner) {
    lastSigner = '';
    writeAddress(b, 96, order.signer, 'signer');
    lastSigner = order.signer;
  }
  if (order.tokenId !== lastTokenId) {
    lastTokenId = -1n;
    writeUint256(v, 128, order.tokenId, 'tokenId');
    lastTokenId = order.tokenId;
  }
  writeUint256(v, 160, order.makerAmount, 'makerAmount');
  writeUint256(v, 192, order.takerAmount, 'takerAmount');
  if (order.side !== 0 && order.side !== 1) throw new Eip712EncodeError('side', 'must be 0 or 1');
  b.fill(0, 224, 255);
  b[255] = order.side;
  const st = order.signatureType;
  if (!Number.isInteger(st) || st < 0 || st > 255) throw new Eip712EncodeError('signatureType', 'must be a uint8');
  b.fill(0, 256, 287);
  b[287] = st;
  writeUint256(v, 288, order.timestamp, 'timestamp');
  if (!writeHex(b, 320, order.metadata, 32)) throw new Eip712EncodeError('metadata', 'must be 0x and 32 bytes of hex');
  if (order.builder !== lastBuilder) {
    lastBuilder = '';
    if (!writeHex(b, 352, order.builder, 32)) throw new Eip712EncodeError('builder', 'must be 0x and 32 bytes of hex');
    lastBuilder = order.builder;
  }
  return keccak256(b, out, offset);
}

/** keccak256(0x1901 ‖ domainSeparator ‖ structHash): the bytes that are signed. */
export function typedDataDigest(separator: Uint8Array, structHash: Uint8Array): Uint8Array {
  digestBuf.set(separator, 2);
  digestBuf.set(structHash, 34);
  return keccak256(digestBuf);
}

/** The EIP-712 digest of an order, which is also the order id the venue returns. */
export function orderDigest(separator: Uint8Array, order: OrderStruct): Uint8Array {
  writeOrderStructHash(order, digestBuf, 34);
  digestBuf.set(separator, 2);
  return keccak256(digestBuf);
}

export const CLOB_AUTH_DOMAIN: Eip712Domain = Object.freeze({ name: 'ClobAuthDomain', version: '1', chainId: POLYGON_CHAIN_ID });
export const CLOB_AUTH_TYPE_STRING = 'ClobAuth(address address,string timestamp,uint256 nonce,string message)';
export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
const CLOB_AUTH_TYPE_HASH = keccakText(CLOB_AUTH_TYPE_STRING);
const CLOB_AUTH_MESSAGE_HASH = keccakText(CLOB_AUTH_MESSAGE);

export interface ClobAuthMessage {
  readonly address: string;
  /** Unix seconds, as the decimal text that goes in the header. */
  readonly timestamp: string;
  readonly nonce: number | bigint;
}

/** The EIP-712 digest of a ClobAuth message (L1 key derivation). */
export function clobAuthDigest(message: ClobAuthMessage, chainId: number = POLYGON_CHAIN_ID): Uint8Array {
  const buf = new Uint8Array(160);
  const view = new DataView(buf.buffer);
  buf.set(CLOB_AUTH_TYPE_HASH, 0);
  writeAddress(buf, 32, message.address, 'address');
  buf.set(keccakText(message.timestamp), 64);
  writeUint256(view, 96, message.nonce, 'nonce');
  buf.set(CLOB_AUTH_MESSAGE_HASH, 128);
  const domain = chainId === POLYGON_CHAIN_ID ? CLOB_AUTH_DOMAIN : { ...CLOB_AUTH_DOMAIN, chainId };
  return typedDataDigest(domainSeparator(domain), keccak256(buf));
}

const TWO_POW_32 = 2 ** 32;
const MASK_64 = (1n << 64n) - 1n;
const UINT256_LIMIT = 1n << 256n;

/** Writes a uint256 big-endian into the word at `offset` (all 32 bytes of it). */
function writeUint256(view: DataView, offset: number, value: number | bigint, field: string): void {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0) throw new Eip712EncodeError(field, 'must be a safe non-negative integer');
    for (let at = offset; at < offset + 24; at += 8) view.setFloat64(at, 0);
    view.setUint32(offset + 24, Math.floor(value / TWO_POW_32));
    view.setUint32(offset + 28, value >>> 0);
    return;
  }
  if (typeof value !== 'bigint' || value < 0n || value >= UINT256_LIMIT) {
    throw new Eip712EncodeError(field, 'must be a uint256');
  }
  for (let at = offset; at < offset + 32; at += 8) view.setFloat64(at, 0);
  let rest = value;
  for (let end = offset + 24; end >= offset && rest !== 0n; end -= 8) {
    view.setBigUint64(end, rest & MASK_64);
    rest >>= 64n;
  }
}

function writeAddress(buf: Uint8Array, offset: number, address: string, field: string): void {
  buf.fill(0, offset, offset + 12);
  if (!writeHex(buf, offset + 12, address, 20)) throw new Eip712EncodeError(field, 'must be 0x and 20 bytes of hex');
}
