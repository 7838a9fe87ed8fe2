/**
 * A table clobot exports (fills, orders, book levels, …): named, typed columns, written as Parquet
 * (hyparquet-writer) or CSV and read back by `clobot import` (table-reader.ts). The kinds are
 * those the data has: money, prices and sizes are exact decimals (micros), times are epoch ms.
 *
 * How each kind is stored:
 * | kind     | Parquet                                   | CSV                        |
 * |----------|-------------------------------------------|----------------------------|
 * | `text`   | BYTE_ARRAY UTF8                           | the text (quoted as needed)|
 * | `int`    | INT64                                     | decimal integer            |
 * | `micros` | INT64 DECIMAL(18,6): DuckDB sums it exactly | shortest decimal (`0.52`)  |
 * | `time`   | INT64 TIMESTAMP(MILLIS, UTC)              | ISO 8601 (`…T06:00:00.123Z`) |
 * | `bool`   | BOOLEAN                                   | `true` / `false`           |
 * A null is a Parquet null and an empty CSV field (an empty text is `""`).
 */

export type ColumnKind = 'text' | 'int' | 'micros' | 'time' | 'bool';

export interface ColumnSpec {
  readonly name: string;
  readonly kind: ColumnKind;
  /** May hold null (default false). */
  readonly nullable?: boolean;
}

/** One value: a number for `int`, `micros` (the micros integer) and `time` (epoch ms). */
export type Cell = string | number | boolean | null;

export interface TableSpec {
  /** The table's name: its file is `<name>.parquet` or `<name>.csv`. */
  readonly name: string;
  readonly columns: readonly ColumnSpec[];
}

export type TableFormat = 'parquet' | 'csv';

export const TABLE_FORMATS: readonly TableFormat[] = ['parquet', 'csv'];

export function tableFileName(table: TableSpec, format: TableFormat): string {
  return `${table.name}.${format}`;
}
