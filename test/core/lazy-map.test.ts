import { describe, expect, it } from 'vitest';
import { LazyMap } from '../../src/core/lazy-map.ts';

describe('LazyMap', () => {
  it('computes a value on first get only, and only for the keys looked at', () => {
    const computed: string[] = [];
    const map = new LazyMap<string, number>(
      () => ['a', 'b', 'c'],
      (k) => {
        computed.push(k);
        return k === 'b' ? undefined : k.charCodeAt(0);
      },
    );
    expect(map.get('a')).toBe(97);
    expect(map.get('a')).toBe(97);
    expect(map.has('b')).toBe(false);
    expect(computed).toEqual(['a', 'b']);
  });

  it('iterates every key with a value (absent ones skipped), computing each once', () => {
    let calls = 0;
    const map = new LazyMap<string, number>(
      () => ['x', 'y', 'z'],
      (k) => {
        calls++;
        return k === 'y' ? undefined : k.length;
      },
    );
    map.get('x');
    expect(map.size).toBe(2);
    expect([...map.keys()]).toEqual(['x', 'z']);
    expect([...map.values()]).toEqual([1, 1]);
    expect([...map]).toEqual([['x', 1], ['z', 1]]);
    const seen: string[] = [];
    map.forEach((_v, k) => seen.push(k));
    expect(seen).toEqual(['x', 'z']);
    expect(calls).toBe(3);
  });
});
