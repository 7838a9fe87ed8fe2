import type { OrderRecord } from './order-record.ts';

/**
 * Min-heap of GTD orders by (expiration, arrival). Entries of orders that closed before expiring
 * stay until they reach the top and are skipped there (lazy deletion), so a cancel costs nothing.
 */
export class ExpiryQueue {
  readonly #heap: OrderRecord[] = [];

  get size(): number {
    return this.#heap.length;
  }

  push(o: OrderRecord): void {
    const heap = this.#heap;
    heap.push(o);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as OrderRecord;
      if (!earlier(o, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = o;
  }

  /** The entry with the earliest expiration, if it is due at `now`. */
  popDue(now: number): OrderRecord | undefined {
    const heap = this.#heap;
    const top = heap[0];
    if (top === undefined || (top.expiration as number) > now) return undefined;
    const last = heap.pop() as OrderRecord;
    if (heap.length > 0) {
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && earlier(heap[r] as OrderRecord, heap[l] as OrderRecord)) c = r;
        const child = heap[c] as OrderRecord;
        if (!earlier(child, last)) break;
        heap[i] = child;
        i = c;
      }
      heap[i] = last;
    }
    return top;
  }
}

function earlier(a: OrderRecord, b: OrderRecord): boolean {
  const ea = a.expiration as number;
  const eb = b.expiration as number;
  return ea < eb || (ea === eb && a.seq < b.seq);
}
