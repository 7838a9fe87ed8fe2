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
}

/** Counts requests per route on arrival (before faults and limits), so tests can prove none was sent. */
export class RequestStats {
  #total = 0;
  #unmatched = 0;
  readonly #routes = new Map<RouteId, number>();
  readonly #statuses = new Map<number, number>();

  count(route: RouteId): void {
    this.#total++;
    this.#routes.set(route, (this.#routes.get(route) ?? 0) + 1);
  }

  countUnmatched(): void {
    this.#unmatched++;
  }

  countStatus(status: number): void {
    this.#statuses.set(status, (this.#statuses.get(status) ?? 0) + 1);
  }

  of(route: RouteId): number {
    return this.#routes.get(route) ?? 0;
  }

  snapshot(): RequestStatsSnapshot {
    return {
      total: this.#total,
      routes: Object.fromEntries(this.#routes),
      unmatched: this.#unmatched,
      statuses: Object.fromEntries([...this.#statuses].map(([k, v]) => [String(k), v])),
    };
  }

  reset(): void {
    this.#total = 0;
    this.#unmatched = 0;
    this.#routes.clear();
    this.#statuses.clear();
  }
}
