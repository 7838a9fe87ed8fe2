import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { afterAll, describe, expect, it } from 'vitest';
import { readTable } from '../../../src/data/parquet/table-reader.ts';
import { openTableWriter } from '../../../src/data/parquet/table-writer.ts';
import type { Cell, TableSpec } from '../../../src/data/parquet/table.ts';
import { TempDir } from '../../backtest/helpers.ts';

/** A table written in small row groups (a backtest's, to bound its memory) reads back row for row. */

const tmp = new TempDir();
afterAll(() => tmp.remove());

const TABLE: TableSpec = {
  name: 'sample',
  columns: [
    { name: 'ts', kind: 'time' },
    { name: 'id', kind: 'text' },
    { name: 'price', kind: 'micros' },
    { name: 'note', kind: 'text', nullable: true },
    { name: 'open', kind: 'bool' },
  ],
};

describe('table writer row groups', () => {
  it('10 rows in groups of 3: 4 row groups (3, 3, 3, 1), the same rows back in order', async () => {
    const path = tmp.path('sample.parquet');
    const writer = openTableWriter(path, TABLE, 'parquet', 3);
    const rows: Cell[][] = Array.from({ length: 10 }, (_, i) => [1_700_000_000_000 + i, `o${i}`, 500_000 + i, i % 2 === 0 ? null : `n${i}`, i % 3 === 0]);
    for (const row of rows) writer.add(row);
    expect(writer.close()).toBe(10);
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
    expect(metadata.row_groups.map((g) => Number(g.num_rows))).toEqual([3, 3, 3, 1]);
    const back: Cell[][] = [];
    for await (const batch of readTable(path, TABLE, 'parquet')) back.push(...batch);
    expect(back).toEqual(rows);
  });
});
