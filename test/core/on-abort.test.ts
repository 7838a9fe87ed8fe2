import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { onAbort } from '../../src/core/on-abort.ts';

describe('onAbort', () => {
  it('keeps one listener on the signal however many callbacks wait on it, and calls those still waiting, in order, once', () => {
    const controller = new AbortController();
    const called: number[] = [];
    const detach = Array.from({ length: 20 }, (_, i) => onAbort(controller.signal, () => called.push(i)));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    detach[3]!();
    detach[3]!();
    detach[17]!();
    controller.abort();
    expect(called).toEqual([...Array.from({ length: 20 }, (_, i) => i)].filter((i) => i !== 3 && i !== 17));
    controller.abort();
    expect(called).toHaveLength(18);
    // after the abort a detach changes nothing
    detach[0]!();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('calls a callback added to an aborted signal at once, and adds no listener', () => {
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    let calls = 0;
    const detach = onAbort(controller.signal, () => calls++);
    expect(calls).toBe(1);
    detach();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('the same function added twice runs twice; each signal has its own listener', () => {
    const a = new AbortController();
    const b = new AbortController();
    let calls = 0;
    const count = (): void => {
      calls++;
    };
    onAbort(a.signal, count);
    onAbort(a.signal, count);
    onAbort(b.signal, count);
    expect(getEventListeners(a.signal, 'abort')).toHaveLength(1);
    expect(getEventListeners(b.signal, 'abort')).toHaveLength(1);
    a.abort();
    expect(calls).toBe(2);
    b.abort();
    expect(calls).toBe(3);
  });

  it('a callback added during the abort (the signal has aborted) runs at once', () => {
    const controller = new AbortController();
    const order: string[] = [];
    onAbort(controller.signal, () => {
      order.push('first');
      onAbort(controller.signal, () => order.push('added during'));
    });
    onAbort(controller.signal, () => order.push('second'));
    controller.abort();
    expect(order).toEqual(['first', 'added during', 'second']);
  });
});
