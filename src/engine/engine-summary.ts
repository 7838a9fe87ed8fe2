import { formatMicros } from '../core/fixed.ts';
import type { PortfolioTotals } from '../portfolio/portfolio.ts';

/** The run summary written by `clobot run --summary` (and shown in the status view). */
export interface EngineSummary {
  readonly ordersSubmitted: number;
  readonly ordersAccepted: number;
  readonly ordersRejected: number;
  readonly ordersDenied: Readonly<Record<string, number>>;
  readonly ordersDeniedTotal: number;
  readonly ordersCanceled: number;
  readonly ordersSubmitUnknown: number;
  /** Orders posted again after a 429 or 503 (same signed orders). */
  readonly ordersResubmitted: number;
  readonly reconciled: { readonly found: number; readonly missing: number; readonly orphansCancelled: number };
  readonly batches: number;
  readonly fills: number;
  readonly openOrders: number;
  readonly http429: number;
  readonly heartbeats: { readonly sent: number; readonly acknowledged: number; readonly missed: number; readonly lost: number };
  readonly pnl: { readonly realized: string; readonly unrealized: string };
  readonly fees: string;
  readonly balance: string;
  readonly turnover: string;
  readonly strategies: Readonly<Record<string, string>>;
  readonly faults: number;
}

/** Mutable counters the engine bumps; `summary` renders them with exact decimal strings. */
export class EngineCounters {
  submitted = 0;
  accepted = 0;
  rejected = 0;
  denied = 0;
  canceled = 0;
  submitUnknown = 0;
  resubmitted = 0;
  reconciledFound = 0;
  reconciledMissing = 0;
  orphansCancelled = 0;
  batches = 0;
  fills = 0;
  faults = 0;
  heartbeatLost = 0;

  summary(input: {
    totals: PortfolioTotals;
    deniedByCode: Readonly<Record<string, number>>;
    http429: number;
    heartbeats: { sent: number; acknowledged: number; missed: number };
    openOrders: number;
    strategies: Record<string, string>;
  }): EngineSummary {
    const denied: Record<string, number> = {};
    for (const [code, n] of Object.entries(input.deniedByCode)) if (n > 0) denied[code] = n;
    return {
      ordersSubmitted: this.submitted,
      ordersAccepted: this.accepted,
      ordersRejected: this.rejected,
      ordersDenied: denied,
      ordersDeniedTotal: this.denied,
      ordersCanceled: this.canceled,
      ordersSubmitUnknown: this.submitUnknown,
      ordersResubmitted: this.resubmitted,
      reconciled: { found: this.reconciledFound, missing: this.reconciledMissing, orphansCancelled: this.orphansCancelled },
      batches: this.batches,
      fills: this.fills,
      openOrders: input.openOrders,
      http429: input.http429,
      heartbeats: { ...input.heartbeats, lost: this.heartbeatLost },
      pnl: { realized: formatMicros(input.totals.realizedPnl), unrealized: formatMicros(input.totals.unrealizedPnl) },
      fees: formatMicros(input.totals.fees),
      balance: formatMicros(input.totals.balance),
      turnover: formatMicros(input.totals.turnover),
      strategies: input.strategies,
      faults: this.faults,
    };
  }
}
