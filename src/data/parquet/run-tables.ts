import type { FillEvent, OrderStatus } from '../../core/events.ts';
import type { OrderRequest } from '../../core/intents.ts';
import type { Micros } from '../../core/fixed.ts';
import type { Cell, TableSpec } from './table.ts';

/**
 * The tables of a run's trading, the same for a backtest (written beside its summary.json) and a
 * run store (`clobot export run.sqlite`): `fills` (one row per fill) and `orders` (one row per
 * order, its last state); a backtest adds `equity`, a store `journal`.
 */
export const FILLS_TABLE: TableSpec = {
  name: 'fills',
  columns: [
    { name: 'ts', kind: 'time' },
    { name: 'ts_event', kind: 'time' },
    { name: 'strategy_id', kind: 'text', nullable: true },
    { name: 'client_order_id', kind: 'text' },
    { name: 'order_id', kind: 'text' },
    { name: 'trade_id', kind: 'text' },
    { name: 'token_id', kind: 'text' },
    { name: 'side', kind: 'text' },
    { name: 'price', kind: 'micros' },
    { name: 'size', kind: 'micros' },
    { name: 'fee', kind: 'micros' },
    { name: 'liquidity', kind: 'text' },
    { name: 'confirmed', kind: 'bool' },
    { name: 'ref', kind: 'text', nullable: true },
    { name: 'group', kind: 'text', nullable: true },
  ],
};

export const ORDERS_TABLE: TableSpec = {
  name: 'orders',
  columns: [
    { name: 'created_at', kind: 'time' },
    { name: 'updated_at', kind: 'time' },
    { name: 'strategy_id', kind: 'text' },
    { name: 'client_order_id', kind: 'text' },
    { name: 'order_id', kind: 'text', nullable: true },
    { name: 'token_id', kind: 'text' },
    { name: 'condition_id', kind: 'text' },
    { name: 'side', kind: 'text' },
    { name: 'price', kind: 'micros' },
    { name: 'size', kind: 'micros' },
    { name: 'filled', kind: 'micros' },
    { name: 'order_type', kind: 'text' },
    { name: 'post_only', kind: 'bool' },
    { name: 'status', kind: 'text' },
    { name: 'status_reason', kind: 'text', nullable: true },
    { name: 'ref', kind: 'text', nullable: true },
    { name: 'group', kind: 'text', nullable: true },
    { name: 'tag', kind: 'text', nullable: true },
  ],
};

/** The equity curve of a backtest on its fixed grid (`backtest.equityIntervalMs`, the returns' basis). */
export const EQUITY_TABLE: TableSpec = {
  name: 'equity',
  columns: [
    { name: 'ts', kind: 'time' },
    { name: 'equity', kind: 'micros' },
  ],
};

/** A store's journal: every event of the run, its payload as JSON. */
export const JOURNAL_TABLE: TableSpec = {
  name: 'journal',
  columns: [
    { name: 'seq', kind: 'int' },
    { name: 'at', kind: 'time' },
    { name: 'type', kind: 'text' },
    { name: 'strategy_id', kind: 'text', nullable: true },
    { name: 'payload', kind: 'text' },
  ],
};

export function fillRow(strategyId: string | undefined, f: FillEvent): Cell[] {
  return [
    f.tsInit,
    f.tsEvent,
    strategyId ?? null,
    f.clientOrderId,
    f.orderId,
    f.tradeId,
    f.tokenId,
    f.side,
    f.price,
    f.size,
    f.fee,
    f.liquidity,
    f.confirmed,
    f.ref ?? null,
    f.group ?? null,
  ];
}

/** An order as the tracker (a backtest) or the store (a run) keeps it. */
export interface OrderState {
  readonly request: OrderRequest;
  readonly orderId: string | undefined;
  readonly status: OrderStatus;
  readonly filled: Micros;
  readonly history: readonly { readonly status: OrderStatus; readonly at: number; readonly reason?: string }[];
}

export function orderRow(o: OrderState): Cell[] {
  const r = o.request;
  const last = o.history[o.history.length - 1];
  return [
    r.createdAt,
    last?.at ?? r.createdAt,
    r.strategyId,
    r.clientOrderId,
    o.orderId ?? null,
    r.tokenId,
    r.conditionId,
    r.side,
    r.price,
    r.size,
    o.filled,
    r.orderType ?? 'GTC',
    r.postOnly === true,
    o.status,
    last?.reason ?? null,
    r.ref ?? null,
    r.group ?? null,
    r.tag ?? null,
  ];
}
