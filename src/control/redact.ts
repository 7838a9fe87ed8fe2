/** Keys whose values never leave the process through the control API (a strategy's own secrets, if it has any). */
const SECRET_KEY = /secret|passphrase|password|private|api.?key|token$/i;

/** A strategy's params with values under secret-looking keys replaced by `***` (at any depth). */
export function redactParams(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactParams);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) ? '***' : redactParams(v);
  return out;
}
