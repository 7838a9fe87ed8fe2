import type { RouteId } from '../venue/endpoints.ts';

/** What `GET /admin/stats` answers. */
export interface RequestStatsSnapshot {
  /** Requests that reached a route (admin routes excluded), answered or not. */
  readonly total: number;
  readonly routes: Partial<Record<RouteId, number>>;
  /** Requests to paths the sandbox does not serve. */
  readonly unmatched: number;
  /** Answers by status code. */
  readonly statuses: Record<string, number>;
  /** Answers by route, then status code (e.g. how many order posts a staged restart answered 425). */
  readonly routeStatuses: Partial<Record<RouteId, Record<string, number>>>;
}

/** Counts requests per route on arrival (before faults and limits), so tests can prove none was sent. */
export class RequestStats {
  #total = 0;
  #unmatched = 0;
  readonly #routes = new Map<RouteId, number>();
  readonly #statuses = new Map<number, number>();
  readonly #routeStatuses = new Map<RouteId, Map<number, number>>();

  count(route: RouteId): void {
    this.#total++;
    this.#routes.set(route, (this.#routes.get(route) ?? 0) + 1);
  }

  countUnmatched(): void {
    this.#unmatched++;
  }

  countStatus(status: number, route?: RouteId | null): void {
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1);
    if (route === undefined || route === null) return;
    let byStatus = this.#routeStatuses.get(route);
    if (byStatus === undefined) this.#routeStatuses.set(route, (byStatus = new Map<number, number>()));
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }

  of(route: RouteId): number {
    return this.#routes.get(route) ?? 0;
  }

  snapshot(): RequestStatsSnapshot {
    return {
      total: this.#total,
      routes: Object.fromEntries(this.#routes),
      unmatched: this.#unmatched,
      statuses: byCode(this.#statuses),
      routeStatuses: Object.fromEntries([...this.#routeStatuses].map(([route, counts]) => [route, byCode(counts)])),
    };
  }

  reset(): void {
    this.#total = 0;
    this.#unmatched = 0;
    this.#routes.clear();
    this.#statuses.clear();
    this.#routeStatuses.clear();
  }
}

function byCode(counts: ReadonlyMap<number, number>): Record<string, number> {
  return Object.fromEntries([...counts].map(([k, v]) => [String(k), v]));
}
