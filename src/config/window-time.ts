/**
 * A time as a config key or a flag writes it: ISO 8601 with a zone (`2026-11-28T06:00:00Z`,
 * `2026-11-28T07:00:00.250+01:00`), a date alone (`2026-11-28`, UTC midnight) or epoch
 * milliseconds (`1795845600000`, a number or its digits). Used by `backtest.from`/`backtest.to`
 * and `clobot backtest --from/--to`.
 */
export const TIME_FORMS = 'an ISO 8601 time with a zone (2026-11-28T06:00:00Z), a date (2026-11-28) or epoch milliseconds';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Epoch ms of a time in one of TIME_FORMS, or undefined when it is none of them. */
export function readTime(value: string | number): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  const text = value.trim();
  if (/^\d{1,16}$/.test(text)) return readTime(Number(text));
  if (!DATE.test(text) && !ZONED.test(text)) return undefined;
  const ms = Date.parse(DATE.test(text) ? `${text}T00:00:00Z` : text);
  return Number.isFinite(ms) ? ms : undefined;
}
