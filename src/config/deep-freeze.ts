/**
 * Freezes a value and everything reachable from it through own properties (plain objects,
 * arrays and class instances alike; private fields such as a Secret's value are not
 * properties and stay as they are). Returns the same value, typed as deeply read-only by the
 * caller's own types.
 */
export function deepFreeze<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  const obj = value as object;
  if (seen.has(obj)) return value;
  seen.add(obj);
  for (const key of Reflect.ownKeys(obj)) {
    const child = (obj as Record<string | symbol, unknown>)[key];
    if (child !== null && typeof child === 'object') deepFreeze(child, seen);
  }
  Object.freeze(obj);
  return value;
}
