/**
 * `b[start, stop)` as UTF-8 text. A short ASCII string (a book hash of a few characters) is
 * built in JS: Buffer#toString's way into C++ costs ~170 ns for 5 bytes, this ~50 (measured).
 * Longer or non-ASCII text takes Buffer#toString.
 */
export function shortText(b: Buffer, start: number, stop: number): string {
  if (stop - start > 12) return b.toString('utf8', start, stop);
  let s = '';
  for (let i = start; i < stop; i++) {
    const c = b[i]!;
    if (c >= 0x80) return b.toString('utf8', start, stop);
    s += String.fromCharCode(c);
  }
  return s;
}
