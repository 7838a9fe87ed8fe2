import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../../src/sandbox/ws/outbox.ts';
import { TurnBudget } from '../../../src/sandbox/ws/turn-budget.ts';

/** A duplex that records each system-call-like write it is asked for: one entry per `_write`/`_writev`. */
class RecordingSocket extends Duplex {
  readonly calls: string[][] = [];
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.calls.push([chunk.toString()]);
    done();
  }
  override _writev(chunks: { chunk: Buffer }[], done: () => void): void {
    this.calls.push(chunks.map((c) => c.chunk.toString()));
    done();
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const b = (text: string): Buffer => Buffer.from(text);

describe('Outbox', () => {
  it("writes a socket's queued frames in one call, in order, a socket a step, oldest queue first", async () => {
    // a zero budget: one step, so one socket, a turn
    const outbox = new Outbox(new TurnBudget(0));
    const a = new RecordingSocket();
    const z = new RecordingSocket();
    for (const text of ['one', 'two', 'three']) {
      outbox.queue(a, b(text));
      outbox.queue(z, b(text.toUpperCase()));
    }
    expect(a.calls).toEqual([]);
    await nextTurn();
    expect(a.calls).toEqual([['one', 'two', 'three']]);
    expect(z.calls).toEqual([]);
    // queued while waiting: joins the same call
    outbox.queue(z, b('FOUR'));
    await nextTurn();
    expect(z.calls).toEqual([['ONE', 'TWO', 'THREE', 'FOUR']]);
    expect(outbox.pending()).toBe(false);
  });

  it('counts the bytes queued for a socket; forget drops them, a destroyed socket is skipped', async () => {
    const outbox = new Outbox(new TurnBudget(60_000));
    const a = new RecordingSocket();
    expect(outbox.queue(a, b('12345'))).toBe(5);
    expect(outbox.queue(a, b('678'))).toBe(8);
    await nextTurn();
    expect(a.calls).toEqual([['12345', '678']]);
    expect(outbox.queue(a, b('x'))).toBe(1);
    outbox.forget(a);
    const gone = new RecordingSocket();
    outbox.queue(gone, b('never'));
    gone.destroy();
    await nextTurn();
    expect(a.calls).toEqual([['12345', '678']]);
    expect(gone.calls).toEqual([]);
    expect(outbox.pending()).toBe(false);
  });

  it('writes a large frame 64 KiB a step, the frames after it whole and in order', async () => {
    const outbox = new Outbox(new TurnBudget(0));
    const a = new RecordingSocket();
    const big = Buffer.alloc(200 * 1024, 'b');
    outbox.queue(a, b('head'));
    outbox.queue(a, big);
    outbox.queue(a, b('tail'));
    for (let i = 0; i < 10 && outbox.pending(); i++) await nextTurn();
    expect(outbox.pending()).toBe(false);
    // 4 + 200 KiB + 4 bytes in steps of at most 64 KiB: 4 calls
    expect(a.calls.map((c) => c.join('').length)).toEqual([64 * 1024, 64 * 1024, 64 * 1024, 8 * 1024 + 8]);
    expect(a.calls.flat().join('')).toBe('head' + big.toString() + 'tail');
  });

  it('waits for the drain of a socket that has more unsent than it takes, then goes on', async () => {
    const outbox = new Outbox(new TurnBudget(60_000));
    let finish: (() => void) | undefined;
    const written: string[] = [];
    // takes one write at a time and holds it until finish() (a full kernel buffer); high-water mark 16 bytes
    const slow = new Duplex({
      highWaterMark: 16,
      read() {},
      write(chunk: Buffer, _enc, done) {
        written.push(chunk.toString());
        finish = done;
      },
    });
    outbox.queue(slow, Buffer.alloc(32, 'x'));
    await nextTurn();
    expect(written).toEqual(['x'.repeat(32)]);
    expect(slow.writableNeedDrain).toBe(true);
    outbox.queue(slow, b('after'));
    await nextTurn();
    await nextTurn();
    expect(written).toHaveLength(1);
    expect(outbox.pending()).toBe(false);
    finish?.();
    for (let i = 0; i < 5 && written.length < 2; i++) await nextTurn();
    expect(written).toEqual(['x'.repeat(32), 'after']);
  });
});
