import { join } from 'node:path';
import type { ExportManifest } from '../data/parquet/export-manifest.ts';
import { FILLS_TABLE, fillRow, JOURNAL_TABLE, ORDERS_TABLE, orderRow } from '../data/parquet/run-tables.ts';
import { tableFileName, type TableFormat } from '../data/parquet/table.ts';
import { openTableWriter } from '../data/parquet/table-writer.ts';
import { StoreReader } from './store-reader.ts';

/**
 * A run store as tables (`clobot export run.sqlite`): its fills (each with the strategy of its
 * order), its orders (last state, `status_reason` the newest reason) and its whole journal (the
 * payload as JSON), read-only and without the lock, so a running store exports too.
 */
export function writeStoreTables(path: string, dir: string, format: TableFormat): ExportManifest['tables'] {
  const reader = StoreReader.open(path);
  try {
    const out: Record<string, { file: string; rows: number }> = {};
    const fills = openTableWriter(join(dir, tableFileName(FILLS_TABLE, format)), FILLS_TABLE, format);
    for (const { fill, strategyId } of reader.fillsWithOwners()) fills.add(fillRow(strategyId, fill));
    out['fills'] = { file: tableFileName(FILLS_TABLE, format), rows: fills.close() };
    const orders = openTableWriter(join(dir, tableFileName(ORDERS_TABLE, format)), ORDERS_TABLE, format);
    for (const order of reader.orders()) orders.add(orderRow(order));
    out['orders'] = { file: tableFileName(ORDERS_TABLE, format), rows: orders.close() };
    const journal = openTableWriter(join(dir, tableFileName(JOURNAL_TABLE, format)), JOURNAL_TABLE, format);
    for (const row of reader.journal()) journal.add([row.seq, row.at, row.type, row.strategyId ?? null, JSON.stringify(row.event)]);
    out['journal'] = { file: tableFileName(JOURNAL_TABLE, format), rows: journal.close() };
    return out;
  } finally {
    reader.close();
  }
}
