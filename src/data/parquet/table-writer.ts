import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import type { SchemaElement } from 'hyparquet';
import { ParameterError } from '../../core/errors.ts';
import { formatMicros } from '../../core/fixed.ts';
import { csvField } from './csv.ts';
import type { Cell, ColumnSpec, TableFormat, TableSpec } from './table.ts';

/** Rows buffered before they are written (one Parquet row group each): bounded memory on any size. */
export const ROWS_PER_GROUP = 100_000;

/** Writes one table, row by row, to a Parquet or CSV file. */
export interface TableWriter {
  readonly path: string;
  /** One row: a cell per column, in the spec's order. */
  add(row: readonly Cell[]): void;
  /** Writes what is buffered and ends the file; returns the rows written. */
  close(): number;
}

/** `rowsPerGroup`: rows a Parquet row group holds, buffered until it is written (ROWS_PER_GROUP by default). */
export function openTableWriter(path: string, table: TableSpec, format: TableFormat, rowsPerGroup = ROWS_PER_GROUP): TableWriter {
  mkdirSync(dirname(path), { recursive: true });
  return format === 'parquet' ? parquetTable(path, table, rowsPerGroup) : csvTable(path, table);
}

function schemaElement(c: ColumnSpec): SchemaElement {
  const repetition_type = c.nullable === true ? 'OPTIONAL' : 'REQUIRED';
  switch (c.kind) {
    case 'text':
      return { name: c.name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type };
    case 'int':
      return { name: c.name, type: 'INT64', repetition_type };
    case 'micros':
      return { name: c.name, type: 'INT64', converted_type: 'DECIMAL', scale: 6, precision: 18, logical_type: { type: 'DECIMAL', scale: 6, precision: 18 }, repetition_type };
    case 'time':
      return { name: c.name, type: 'INT64', converted_type: 'TIMESTAMP_MILLIS', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MILLIS' }, repetition_type };
    case 'bool':
      return { name: c.name, type: 'BOOLEAN', repetition_type };
  }
}

/** A cell as hyparquet-writer takes it for the column's kind (INT64 kinds as bigint). */
function parquetValue(c: ColumnSpec, v: Cell, table: string): unknown {
  if (v === null) {
    if (c.nullable !== true) throw new ParameterError(table, c.name, 'a value (the column is not nullable), got null');
    return null;
  }
  switch (c.kind) {
    case 'text':
      return String(v);
    case 'bool':
      return v === true;
    default:
      if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ParameterError(table, c.name, `an integer, got ${String(v)}`);
      return BigInt(v);
  }
}

function parquetTable(path: string, table: TableSpec, rowsPerGroup: number): TableWriter {
  const columns = table.columns;
  const schema: SchemaElement[] = [{ name: 'root', num_children: columns.length }, ...columns.map(schemaElement)];
  const writer = new ParquetWriter({
    writer: fileWriter(path),
    schema,
    kvMetadata: [{ key: 'clobot.table', value: table.name }],
    createdBy: 'clobot (hyparquet-writer)',
  });
  let buffer: unknown[][] = columns.map(() => []);
  let buffered = 0;
  let rows = 0;
  const flush = (): void => {
    if (buffered === 0) return;
    const columnData = columns.map((c, i) => ({ name: c.name, data: buffer[i]! }));
    void writer.write({ columnData, rowGroupSize: buffered });
    buffer = columns.map(() => []);
    buffered = 0;
  };
  return {
    path,
    add(row) {
      for (let i = 0; i < columns.length; i++) buffer[i]!.push(parquetValue(columns[i]!, row[i] ?? null, table.name));
      buffered++;
      rows++;
      if (buffered >= rowsPerGroup) flush();
    },
    close() {
      flush();
      // a file writer finishes synchronously (its Promise form is for async writers)
      void writer.finish();
      return rows;
    },
  };
}

function csvCell(c: ColumnSpec, v: Cell): string {
  if (v === null) return '';
  switch (c.kind) {
    case 'micros':
      return formatMicros(v as number);
    case 'time':
      return new Date(v as number).toISOString();
    case 'text':
      return csvField(String(v));
    default:
      return String(v);
  }
}

function csvTable(path: string, table: TableSpec): TableWriter {
  const fd = openSync(path, 'w');
  let text = table.columns.map((c) => csvField(c.name)).join(',') + '\n';
  let rows = 0;
  const flush = (): void => {
    const bytes = Buffer.from(text, 'utf8');
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    text = '';
  };
  return {
    path,
    add(row) {
      const cells: string[] = [];
      for (let i = 0; i < table.columns.length; i++) {
        const c = table.columns[i]!;
        const v = row[i] ?? null;
        if (v === null && c.nullable !== true) throw new ParameterError(table.name, c.name, 'a value (the column is not nullable), got null');
        cells.push(csvCell(c, v));
      }
      text += cells.join(',') + '\n';
      rows++;
      if (text.length >= 1 << 20) flush();
    },
    close() {
      flush();
      closeSync(fd);
      return rows;
    },
  };
}
