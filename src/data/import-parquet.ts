import { existsSync } from 'node:fs';
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { ConfigError, DecodeError } from '../core/errors.ts';

/**
 * Reading third-party Parquet for `clobot import` (import-quotes.ts, import-markets.ts): open a
 * file, read some columns of a row range, and tell from a row group's statistics whether it can
 * hold a range of slugs (so the groups that cannot are never read).
 */

/** Byte-order comparison of two strings (Parquet statistics compare UTF-8 bytes). */
export function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function statString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  return undefined;
}

/** Whether a row group's statistics of a text column allow a value in `[lo, hi]` (byte order). */
export function mayHold(metadata: FileMetaData, group: number, column: string, lo: string, hi: string): boolean {
  const chunk = metadata.row_groups[group]!.columns.find((c) => c.meta_data?.path_in_schema.join('.') === column);
  const stats = chunk?.meta_data?.statistics;
  const min = statString(stats?.min_value ?? stats?.min);
  const max = statString(stats?.max_value ?? stats?.max);
  if (min === undefined || max === undefined) return true;
  return !(compareBytes(min, hi) > 0 || compareBytes(max, lo) < 0);
}

export async function openParquet(path: string): Promise<{ file: AsyncBuffer; metadata: FileMetaData }> {
  if (!existsSync(path)) throw new ConfigError(`${path}: cannot read Parquet file (ENOENT)`);
  const file = await asyncBufferFromFile(path);
  let metadata: FileMetaData;
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (err) {
    throw new DecodeError(path, 'a Parquet file', err instanceof Error ? err.message : String(err));
  }
  return { file, metadata };
}

export function columnNames(metadata: FileMetaData): Set<string> {
  return new Set(metadata.schema.slice(1).map((s) => s.name));
}

/** Reads rows `[start, end)` of some columns as arrays. */
export function readRows(file: AsyncBuffer, metadata: FileMetaData, columns: string[], rowStart: number, rowEnd: number): Promise<unknown[][]> {
  return new Promise((resolve, reject) => {
    parquetRead({ file, metadata, columns, rowStart, rowEnd, compressors, onComplete: (rows: unknown[][]) => resolve(rows) }).catch(reject);
  });
}

/** Each row group as `[first row, row count]`. */
export function rowGroups(metadata: FileMetaData): { start: number; rows: number }[] {
  const out: { start: number; rows: number }[] = [];
  let start = 0;
  for (const g of metadata.row_groups) {
    const rows = Number(g.num_rows);
    out.push({ start, rows });
    start += rows;
  }
  return out;
}
