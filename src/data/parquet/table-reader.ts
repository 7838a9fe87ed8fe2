import { asyncBufferFromFile, parquetMetadataAsync, parquetRead } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { DecodeError } from '../../core/errors.ts';
import { numberToMicros, parseMicros } from '../../core/fixed.ts';
import { readCsvRecords } from './csv.ts';
import type { Cell, ColumnSpec, TableFormat, TableSpec } from './table.ts';

/**
 * Reads back a table written by table-writer.ts, in batches of rows with a cell per column of
 * `table` in its order (the file's columns are matched by name; a column missing from the file is
 * one DecodeError naming the file and the column). Cells come back as they went in: micros and
 * epoch ms as numbers.
 */
export async function* readTable(path: string, table: TableSpec, format: TableFormat): AsyncGenerator<Cell[][]> {
  if (format === 'csv') yield* readCsvTable(path, table);
  else yield* readParquetTable(path, table);
}

function fromParquet(c: ColumnSpec, v: unknown): Cell {
  if (v === null || v === undefined) return null;
  switch (c.kind) {
    case 'text':
      return typeof v === 'string' ? v : JSON.stringify(v);
    case 'bool':
      return v === true;
    case 'time':
      return v instanceof Date ? v.getTime() : Number(v);
    case 'micros':
      // DECIMAL(18,6) arrives as a number of units: exact to the micro below 2^53 micros
      return typeof v === 'bigint' ? Number(v) : numberToMicros(Number(v));
    case 'int':
      return Number(v);
  }
}

async function* readParquetTable(path: string, table: TableSpec): AsyncGenerator<Cell[][]> {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const have = new Set(metadata.schema.slice(1).map((s) => s.name));
  for (const c of table.columns) if (!have.has(c.name)) throw new DecodeError(`${path}: columns`, `a ${table.name} table with column ${c.name}`, `columns ${[...have].join(', ')}`);
  const columns = table.columns.map((c) => c.name);
  let start = 0;
  for (const group of metadata.row_groups) {
    const end = start + Number(group.num_rows);
    const rows = await new Promise<unknown[][]>((resolve, reject) => {
      parquetRead({ file, metadata, columns, rowStart: start, rowEnd: end, compressors, onComplete: (r: unknown[][]) => resolve(r) }).catch(reject);
    });
    yield rows.map((row) => table.columns.map((c, i) => fromParquet(c, row[i])));
    start = end;
  }
}

function fromCsv(path: string, line: number, c: ColumnSpec, v: string | null): Cell {
  if (v === null) return null;
  const bad = (expected: string): never => {
    throw new DecodeError(`${path}:${line}: ${c.name}`, expected, v);
  };
  switch (c.kind) {
    case 'text':
      return v;
    case 'bool':
      return v === 'true' ? true : v === 'false' ? false : bad('true or false');
    case 'int': {
      const n = Number(v);
      return /^-?\d+$/.test(v) && Number.isSafeInteger(n) ? n : bad('an integer');
    }
    case 'micros': {
      if (!/^-?\d+(\.\d{1,6})?$/.test(v)) return bad('a decimal with at most 6 places');
      return v.startsWith('-') ? -parseMicros(v.slice(1)) : parseMicros(v);
    }
    case 'time': {
      const ms = Date.parse(v);
      return Number.isFinite(ms) ? ms : bad('an ISO 8601 time');
    }
  }
}

async function* readCsvTable(path: string, table: TableSpec): AsyncGenerator<Cell[][]> {
  let index: number[] | undefined;
  let line = 1;
  for await (const records of readCsvRecords(path)) {
    let from = 0;
    if (index === undefined) {
      const head = (records[0] ?? []).map((h) => h ?? '');
      index = table.columns.map((c) => {
        const at = head.indexOf(c.name);
        if (at < 0) throw new DecodeError(`${path}:1`, `a ${table.name} table with column ${c.name}`, `columns ${head.join(', ')}`);
        return at;
      });
      from = 1;
    }
    const out: Cell[][] = [];
    for (let r = from; r < records.length; r++) {
      line++;
      const rec = records[r]!;
      out.push(table.columns.map((c, i) => fromCsv(path, line, c, rec[index![i]!] ?? null)));
    }
    yield out;
  }
}
