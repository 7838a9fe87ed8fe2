/**
 * The strategy of bench/children/whole-venue-run.ts: watches every book it is given and places
 * nothing. It counts the book changes it hears on a process-wide counter the child reads.
 */
import { defineStrategy } from '../../src/strategy/api.ts';

/** Where the child reads the count (one process, one counter). */
export const WATCH_COUNTER = Symbol.for('clobot.bench.watchBooks');

interface Counter {
  books: number;
}

function counter(): Counter {
  const g = globalThis as unknown as Record<symbol, Counter | undefined>;
  return (g[WATCH_COUNTER] ??= { books: 0 });
}

export function watchedBooks(): number {
  return counter().books;
}

const books = counter();

export default defineStrategy({
  name: 'watch',
  onBook: () => {
    books.books++;
  },
});
