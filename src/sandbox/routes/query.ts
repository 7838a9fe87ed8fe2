import type { FastifyRequest } from 'fastify';
import { ParameterError } from '../../core/errors.ts';
import type { RouteId } from '../../venue/endpoints.ts';
import { checkQuery } from '../../venue/params.ts';

/** Query handling shared by the route groups: one string per name, checked by part 4's rules. */

export type Query = Readonly<Record<string, string>>;

/** The query as strings; a repeated name is joined with commas (the list form of part 4). */
export function queryOf(request: FastifyRequest): Query {
  const raw = (request.query ?? {}) as Record<string, string | string[] | undefined>;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(',') : value;
  }
  return out;
}

/** The query, checked against the route's rules (a ParameterError answers 400). */
export function checkedQuery(route: RouteId, request: FastifyRequest): Query {
  const query = queryOf(request);
  checkQuery(route, query);
  return query;
}

/** An integer parameter already checked by `checkQuery`, or its default. */
export function intOf(query: Query, name: string, fallback: number): number {
  const value = query[name];
  return value === undefined || value === '' ? fallback : Number(value);
}

export function numberOf(query: Query, name: string, fallback: number): number {
  return intOf(query, name, fallback);
}

export function boolOf(query: Query, name: string, fallback: boolean): boolean {
  const value = query[name];
  return value === undefined || value === '' ? fallback : value === 'true';
}

/** A comma-separated list parameter, items trimmed; undefined when absent. */
export function listOf(query: Query, name: string): string[] | undefined {
  const value = query[name];
  if (value === undefined || value === '') return undefined;
  return value.split(',').map((item) => item.trim());
}

/** A string parameter, undefined when absent or empty. */
export function stringOf(query: Query, name: string): string | undefined {
  const value = query[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The sort key an `order` parameter names, from the route's table of the columns the sandbox
 * sorts by; `fallback` when absent. Part 4 leaves the allowed values "not shown": a value the
 * sandbox cannot sort by is a 400 naming the parameter and the columns it can.
 */
export function orderKeyOf<K>(route: RouteId, query: Query, columns: Readonly<Record<string, K>>, fallback: string): K {
  const name = stringOf(query, 'order') ?? fallback;
  if (!Object.hasOwn(columns, name)) {
    throw new ParameterError(route, 'order', `must be one of ${Object.keys(columns).join(', ')}, was '${name.length > 40 ? `${name.slice(0, 40)}…` : name}'`);
  }
  return columns[name] as K;
}

/** `items[offset, offset + limit)`. */
export function slice<T>(items: readonly T[], offset: number, limit: number): T[] {
  return items.slice(offset, offset + limit);
}

/** Sorts a copy by a key, ascending or descending; ties keep their order. */
export function sortBy<T>(items: readonly T[], key: (item: T) => number | string, ascending: boolean): T[] {
  const dir = ascending ? 1 : -1;
  return items
    .map((item, i) => ({ item, i, k: key(item) }))
    .sort((a, b) => (a.k < b.k ? -dir : a.k > b.k ? dir : a.i - b.i))
    .map((e) => e.item);
}
