import { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WriteBatches } from '../../../src/sandbox/ws/write-batches.ts';

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

describe('WriteBatches', () => {
  it("lets a turn's writes to a socket go in one call, in order, at the end of the turn", async () => {
    const batches = new WriteBatches();
    const a = new RecordingSocket();
    const b = new RecordingSocket();
    for (const text of ['one', 'two', 'three']) {
      batches.hold(a);
      a.write(text);
      batches.hold(b);
      b.write(text.toUpperCase());
    }
    expect(a.calls).toEqual([]);
    await nextTurn();
    expect(a.calls).toEqual([['one', 'two', 'three']]);
    expect(b.calls).toEqual([['ONE', 'TWO', 'THREE']]);
    // the next turn starts a new batch
    batches.hold(a);
    a.write('four');
    await nextTurn();
    expect(a.calls).toEqual([['one', 'two', 'three'], ['four']]);
  });

  it('flush() lets the writes go at once; a closed socket is not held', () => {
    const batches = new WriteBatches();
    const a = new RecordingSocket();
    batches.hold(a);
    a.write('x');
    a.write('y');
    batches.flush();
    expect(a.calls).toEqual([['x', 'y']]);
    const closed = new RecordingSocket();
    closed.destroy();
    batches.hold(closed);
    expect(closed.writableCorked).toBe(0);
  });
});
