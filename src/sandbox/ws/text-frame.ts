/**
 * WebSocket text frames as a server sends them (RFC 6455 section 5.2: FIN set, opcode 1, no
 * mask): a message's frame is the same bytes for every connection, so a message that goes to
 * hundreds of subscribers is framed once, not once per connection.
 */

/** The header of a final, unmasked text frame carrying `length` payload bytes. */
export function textFrameHeader(length: number): Buffer {
  if (length < 126) return Buffer.from([0x81, length]);
  if (length < 0x10000) {
    const header = Buffer.allocUnsafe(4);
    header[0] = 0x81;
    header[1] = 126;
    header.writeUInt16BE(length, 2);
    return header;
  }
  const header = Buffer.allocUnsafe(10);
  header[0] = 0x81;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return header;
}

/** A whole text frame of `text` (UTF-8), header and payload in one Buffer. */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const headerLength = length < 126 ? 2 : length < 0x10000 ? 4 : 10;
  const frame = Buffer.allocUnsafe(headerLength + length);
  textFrameHeader(length).copy(frame, 0);
  frame.write(text, headerLength, 'utf8');
  return frame;
}
