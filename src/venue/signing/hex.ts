/**
 * Small byte/hex helpers for the signing code. Node's Buffer does the hex work (fast, native);
 * the checks here make sure a malformed string is refused instead of silently truncated.
 */

const HEX_RE = /^0x[0-9a-fA-F]*$/;

// Short inputs (digests, signatures: two per order) are copied into one Buffer and hexed from
// there: half the time of wrapping each in a new Buffer view.
const scratch = Buffer.allocUnsafeSlow(128);

/** Lowercase 0x-prefixed hex of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  if (bytes.length <= scratch.length) {
    scratch.set(bytes);
    return '0x' + scratch.toString('hex', 0, bytes.length);
  }
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** True when `text` is `0x` followed by exactly `byteLength` bytes of hex. */
export function isHexOfLength(text: string, byteLength: number): boolean {
  return text.length === 2 + byteLength * 2 && HEX_RE.test(text);
}

/**
 * Writes the `byteLength` bytes of 0x-hex `text` into `out` at `offset`. Returns false (writing
 * nothing) when `text` is not exactly that many bytes of hex.
 */
export function writeHex(out: Uint8Array, offset: number, text: string, byteLength: number): boolean {
  if (!isHexOfLength(text, byteLength)) return false;
  const target = Buffer.isBuffer(out) ? out : Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  target.write(text.slice(2), offset, byteLength, 'hex');
  return true;
}

/** Bytes of a 0x-hex string of exactly `byteLength` bytes, or undefined when malformed. */
export function hexToBytes(text: string, byteLength: number): Uint8Array | undefined {
  const out = new Uint8Array(byteLength);
  return writeHex(out, 0, text, byteLength) ? out : undefined;
}
