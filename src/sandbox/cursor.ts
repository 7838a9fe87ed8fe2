import { ParameterError } from '../core/errors.ts';
import type { RouteId } from '../venue/endpoints.ts';
import type { WirePage } from '../venue/wire/trading.ts';

/** Cursor pages (interface 2.1, PROTOCOL "Cursor pages"): base64 of the decimal offset. */
export const FIRST_CURSOR = 'MA==';
/** base64 of `-1`: no more pages. */
export const END_CURSOR = 'LTE=';
/** Items per page on the sandbox's cursor routes (the interface leaves it open; the venue uses 100 on its market lists). */
export const PAGE_SIZE = 100;

export function encodeCursor(offset: number): string {
  return Buffer.from(String(offset), 'utf8').toString('base64');
}

/** The offset a cursor names, or `'end'` for `LTE=`; a cursor that is not base64 of an offset is a 400. */
export function decodeCursor(route: RouteId, cursor: string | undefined): number | 'end' {
  if (cursor === undefined || cursor === '') return 0;
  if (cursor === END_CURSOR) return 'end';
  const text = /^[A-Za-z0-9+/]+={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  if (!/^\d{1,9}$/.test(text)) throw new ParameterError(route, 'next_cursor', `must be a base64-encoded offset, was '${cursor.slice(0, 40)}'`);
  return Number(text);
}

/** One page of `items` from a cursor, each item mapped to its wire form; `next_cursor` is `LTE=` on the last page. */
export function page<T, W>(route: RouteId, items: readonly T[], cursor: string | undefined, map: (item: T) => W): WirePage<W> {
  const offset = decodeCursor(route, cursor);
  if (offset === 'end') return { data: [], next_cursor: END_CURSOR, limit: PAGE_SIZE, count: 0 };
  const data = items.slice(offset, offset + PAGE_SIZE).map(map);
  const next = offset + PAGE_SIZE;
  return { data, next_cursor: next >= items.length ? END_CURSOR : encodeCursor(next), limit: PAGE_SIZE, count: data.length };
}
