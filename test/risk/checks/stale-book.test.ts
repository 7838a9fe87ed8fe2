import { describe } from 'vitest';
import { staleBook } from '../../../src/risk/checks/stale-book.ts';
import { markets, NOW, runTable, view } from '../fixtures.ts';

const bookAt = (ts: number | undefined) => ({ markets: markets(view({ bookTsInit: ts })) });

describe('staleBook', () => {
  runTable(staleBook, 'staleBook', [
    { name: 'no limit, no book', state: bookAt(undefined), code: undefined },
    { name: 'no limit, unknown token', req: { tokenId: 'nope' }, code: undefined },
    { name: 'fresh book', state: bookAt(NOW - 100), limits: { staleBookMs: 1000 }, code: undefined },
    { name: 'exactly at the limit', state: bookAt(NOW - 1000), limits: { staleBookMs: 1000 }, code: undefined },
    { name: 'one ms over', state: bookAt(NOW - 1001), limits: { staleBookMs: 1000 }, code: 'STALE_BOOK', message: 'book age 1001 ms exceeds max 1000 ms' },
    { name: 'book stamped after now (clock skew) is fresh', state: bookAt(NOW + 5), limits: { staleBookMs: 0 }, code: undefined },
    { name: 'no book yet', state: bookAt(undefined), limits: { staleBookMs: 1000 }, code: 'STALE_BOOK', message: 'no book for token Y1' },
    { name: 'limit 0 with a book of this ms', state: bookAt(NOW), limits: { staleBookMs: 0 }, code: undefined },
    { name: 'unknown token', req: { tokenId: 'nope' }, limits: { staleBookMs: 1000 }, code: 'UNKNOWN_MARKET' },
  ]);
});
