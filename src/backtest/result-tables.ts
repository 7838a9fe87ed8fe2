import { readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OrderStatus } from '../core/events.ts';
import { EQUITY_TABLE, FILLS_TABLE, fillRow, ORDERS_TABLE, orderRow } from '../data/parquet/run-tables.ts';
import { tableFileName, type TableFormat } from '../data/parquet/table.ts';
import { openTableWriter, type TableWriter } from '../data/parquet/table-writer.ts';
import type { EngineEvent } from '../engine/ports.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import type { EquityCurve } from './metrics.ts';

/** Statuses an order does not leave (the tracker's open ones are the rest). */
const CLOSED: ReadonlySet<OrderStatus> = new Set(['FILLED', 'CANCELED', 'REJECTED', 'EXPIRED']);

/**
 * Rows of a Parquet row group here: a backtest writes its tables while it replays, so the rows
 * buffered for a group (boxed cells, then the group's encoding) add to the replay's own peak. A
 * 1 GB replay's 53k orders held in one 100k-row group added ~70 MB at the peak, in 2k-row groups
 * ~10-30 MB (bench/backtest-memory.bench.ts).
 */
const ROWS_PER_GROUP = 4_096;

/** A written table: its path and row count. */
export interface WrittenTable {
  readonly path: string;
  readonly rows: number;
}

/**
 * A backtest's fills, orders and equity curve as tables beside its summary.json (`fills.parquet`,
 * `orders.parquet`, `equity.parquet`; `.csv` with that format), written while the run goes, so a
 * run of a million orders holds none of them in memory. Hand the hooks to `runBacktest`
 * (`onBuilt`, `onEvent`, `onStopped`), then `finish` with the result's curve. An order is written
 * when it closes (filled, cancelled, rejected, expired), and the orders still open at the end
 * when the run stops.
 */
export class BacktestTables {
  readonly #fills: TableWriter;
  readonly #orders: TableWriter;
  readonly #equity: TableWriter;
  readonly #paths: string[];
  readonly #dir: string;

  constructor(dir: string, format: TableFormat = 'parquet') {
    this.#dir = dir;
    const path = (t: typeof FILLS_TABLE) => join(dir, tableFileName(t, format));
    this.#paths = [path(FILLS_TABLE), path(ORDERS_TABLE), path(EQUITY_TABLE)];
    this.#fills = openTableWriter(this.#paths[0]!, FILLS_TABLE, format, ROWS_PER_GROUP);
    this.#orders = openTableWriter(this.#paths[1]!, ORDERS_TABLE, format, ROWS_PER_GROUP);
    this.#equity = openTableWriter(this.#paths[2]!, EQUITY_TABLE, format, ROWS_PER_GROUP);
  }

  readonly onBuilt = (engine: TradingEngine): void => {
    engine.tracker.onStatus((record) => {
      if (CLOSED.has(record.status)) this.#orders.add(orderRow(record));
    });
  };

  readonly onEvent = (event: EngineEvent): void => {
    if (event.type === 'fill') this.#fills.add(fillRow(event.strategyId, event.fill));
  };

  readonly onStopped = (engine: TradingEngine): void => {
    for (const record of engine.tracker.open()) this.#orders.add(orderRow(record));
  };

  /** Writes the equity curve and closes the files. */
  finish(curve: EquityCurve): { fills: WrittenTable; orders: WrittenTable; equity: WrittenTable } {
    for (let i = 0; i < curve.t.length; i++) this.#equity.add([curve.t[i]!, curve.equity[i]!]);
    return {
      fills: { path: this.#fills.path, rows: this.#fills.close() },
      orders: { path: this.#orders.path, rows: this.#orders.close() },
      equity: { path: this.#equity.path, rows: this.#equity.close() },
    };
  }

  /** The run failed: closes and removes the files (and the folder, when that leaves it empty). */
  discard(): void {
    for (const w of [this.#fills, this.#orders, this.#equity]) {
      try {
        w.close();
      } catch {
        // the file goes anyway
      }
    }
    for (const p of this.#paths) rmSync(p, { force: true });
    if (readdirSync(this.#dir).length === 0) rmdirSync(this.#dir);
  }
}
