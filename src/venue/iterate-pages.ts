import { DecodeError } from '../core/errors.ts';
import { FIRST_CURSOR } from './decode.ts';
import type { Page } from './domain/trading.ts';

/**
 * Walks a cursor route from the first page (`MA==`) to the last (`LTE=` or an empty cursor),
 * yielding items one by one. Pages are fetched lazily, one at a time, as the consumer pulls.
 * A cursor the venue already returned would loop forever: it is a DecodeError instead.
 */
export async function* iteratePages<T>(fetchPage: (cursor: string) => Promise<Page<T>>): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>([FIRST_CURSOR]);
  let cursor = FIRST_CURSOR;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.done) return;
    if (seen.has(page.nextCursor)) throw new DecodeError('next_cursor', 'a cursor not returned before', page.nextCursor);
    seen.add(page.nextCursor);
    cursor = page.nextCursor;
  }
}
