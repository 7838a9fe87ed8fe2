import { OrderBuildError } from './order-build-error.ts';
import { ZERO_BYTES32 } from './eip712.ts';

/**
 * A client order id travels in the signed order's 32-byte `metadata`, so it is part of the order
 * hash and comes back on the venue's order records (the sandbox echoes it) for reconciliation.
 *
 * Encoding (reversible): the id's UTF-8 bytes, 1 to 32 of them, left-aligned and zero-padded on
 * the right, like a Solidity `bytes32` string. The id must not contain U+0000, so decoding strips
 * the trailing zero bytes and gets back exactly the id. No id is 32 zero bytes. A 32-character
 * hex id (a UUID without dashes) or a short tag like `mm-7-000123` fits.
 */

export const MAX_CLIENT_ORDER_ID_BYTES = 32;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Two hex digits per byte value, and the zero padding after n bytes of id. */
const HEX_PAIRS = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const PADDING = Array.from({ length: MAX_CLIENT_ORDER_ID_BYTES + 1 }, (_, n) => '00'.repeat(MAX_CLIENT_ORDER_ID_BYTES - n));

/** The 0x-hex bytes32 metadata for a client order id; zero bytes when `id` is undefined. */
export function encodeClientOrderId(id: string | undefined): string {
  if (id === undefined) return ZERO_BYTES32;
  // the ids clobot makes are short ASCII (one per order on the live path): hex them char by
  // char, no encoder and no Buffer; anything else (non-ASCII, U+0000, too long) takes the general path
  const n = id.length;
  if (n > 0 && n <= MAX_CLIENT_ORDER_ID_BYTES) {
    let hex = '0x';
    let i = 0;
    for (; i < n; i++) {
      const c = id.charCodeAt(i);
      if (c === 0 || c > 0x7f) break;
      hex += HEX_PAIRS[c] as string;
    }
    if (i === n) return hex + (PADDING[n] as string);
  }
  const bytes = encoder.encode(id);
  if (bytes.length === 0 || bytes.length > MAX_CLIENT_ORDER_ID_BYTES) {
    throw new OrderBuildError('clientOrderId', `must be 1 to ${MAX_CLIENT_ORDER_ID_BYTES} UTF-8 bytes, was ${bytes.length}`);
  }
  if (bytes.includes(0)) throw new OrderBuildError('clientOrderId', 'must not contain U+0000');
  return '0x' + Buffer.from(bytes).toString('hex').padEnd(64, '0');
}

/**
 * The client order id carried in a bytes32 metadata, or undefined when the metadata is zero, is
 * not 32 bytes of hex, or is not this encoding (invalid UTF-8, a zero byte inside the text).
 */
export function decodeClientOrderId(metadata: string): string | undefined {
  if (metadata.length !== 66 || !/^0x[0-9a-fA-F]{64}$/.test(metadata)) return undefined;
  const bytes = Buffer.from(metadata.slice(2), 'hex');
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  if (end === 0) return undefined;
  const text = bytes.subarray(0, end);
  if (text.includes(0)) return undefined;
  try {
    return decoder.decode(text);
  } catch {
    return undefined;
  }
}
