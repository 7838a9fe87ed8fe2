import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import { ParameterError } from '../../core/errors.ts';
import type { RouteId } from '../../venue/endpoints.ts';
import type { WirePricePoint } from '../../venue/wire/trading.ts';
import type { SandboxToken } from '../world/model.ts';
import { priceAt } from '../world/price-history.ts';

/**
 * The window and sampling of `GET /prices-history` and `POST /batch-prices-history`: either
 * `startTs`/`endTs` (unix seconds; either may be left out) or `interval` ending now (`1m` is
 * a month, as on the venue), never both; neither means `max` (since the market was created).
 * `fidelity` is minutes between points (1 to MAX_HISTORY_FIDELITY), defaulting by the span; at
 * most 5,000 points come back (the step widens beyond that). Points lie on multiples of the step,
 * within the market's life.
 */
export interface HistoryRequest {
  readonly startTs?: number;
  readonly endTs?: number;
  readonly interval?: string;
  readonly fidelity?: number;
}

const INTERVAL_SECONDS: Readonly<Record<string, number>> = { '1h': 3600, '6h': 21_600, '1d': 86_400, '1w': 604_800, '1m': 2_592_000 };
export const MAX_HISTORY_POINTS = 5000;
/** Largest `fidelity`: ten years of minutes (a market's whole life in one point). */
export const MAX_HISTORY_FIDELITY = 5_256_000;

export function priceHistory(route: RouteId, seed: number, token: SandboxToken, nowMs: number, request: HistoryRequest): WirePricePoint[] {
  const names = route === 'getPricesHistory' ? { start: 'startTs', end: 'endTs' } : { start: 'start_ts', end: 'end_ts' };
  const nowS = Math.floor(nowMs / 1000);
  const createdS = Math.floor(token.market.createdAt / 1000);
  const fidelity = request.fidelity;
  if (fidelity !== undefined && !(Number.isSafeInteger(fidelity) && fidelity >= 1 && fidelity <= MAX_HISTORY_FIDELITY)) {
    throw new ParameterError(route, 'fidelity', `must be an integer from 1 to ${MAX_HISTORY_FIDELITY} (minutes), was ${fidelity}`);
  }
  if (request.interval !== undefined && (request.startTs !== undefined || request.endTs !== undefined)) {
    throw new ParameterError(route, 'interval', `cannot be combined with ${names.start}/${names.end}`);
  }
  let start: number;
  let end: number;
  if (request.interval !== undefined && request.interval !== 'max') {
    end = nowS;
    start = end - (INTERVAL_SECONDS[request.interval] as number);
  } else {
    start = request.startTs ?? createdS;
    end = request.endTs ?? nowS;
  }
  if (start > end) throw new ParameterError(route, names.start, `must be <= ${names.end}`);
  start = Math.max(start, createdS);
  end = Math.min(end, nowS);
  if (start > end) return [];
  const span = end - start;
  const fidelityMin = fidelity ?? defaultFidelity(span);
  let step = fidelityMin * 60;
  if (span / step > MAX_HISTORY_POINTS) step = Math.ceil(span / MAX_HISTORY_POINTS / 60) * 60;
  const points: WirePricePoint[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) {
    points.push({ t, p: priceAt(seed, token, t) / MICROS_PER_UNIT });
  }
  return points;
}

function defaultFidelity(spanSeconds: number): number {
  if (spanSeconds <= 21_600) return 1;
  if (spanSeconds <= 86_400) return 5;
  if (spanSeconds <= 604_800) return 30;
  if (spanSeconds <= 2_678_400) return 180;
  return 1440;
}
