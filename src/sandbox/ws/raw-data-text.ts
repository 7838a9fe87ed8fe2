import type { RawData } from 'ws';

/** A text frame's payload as a string, whichever of its three forms `ws` delivered it in. */
export function rawDataText(data: RawData): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return (Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)).toString('utf8');
}
