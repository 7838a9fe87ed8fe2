/**
 * Parses an HTTP `Retry-After` header (PROTOCOL "Rate limits": seconds, or an HTTP date) into a
 * wait in milliseconds from `nowMs`. Returns undefined when the header is absent or unreadable;
 * a date in the past gives 0.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const text = header.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
