import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { dataFileKind } from '../backtest/data-file.ts';
import { ConfigError, DecodeError } from '../core/errors.ts';
import type { MarketEvent } from '../core/events.ts';
import { EXPORT_FORMAT, EXPORT_VERSION, isExportFolder, readManifest, writeManifest, type ExportManifest } from '../data/parquet/export-manifest.ts';
import { readRecordingEvents, readRecordingHeader, writeRecordingTables } from '../data/parquet/recording-tables.ts';
import { EQUITY_TABLE, FILLS_TABLE, JOURNAL_TABLE, ORDERS_TABLE } from '../data/parquet/run-tables.ts';
import { readTable } from '../data/parquet/table-reader.ts';
import { openTableWriter } from '../data/parquet/table-writer.ts';
import { tableFileName, type TableFormat, type TableSpec } from '../data/parquet/table.ts';
import { RECORDING_FORMAT, RECORDING_VERSION, type RecordedMarket, type RecordingForm, type RecordingHeader } from '../data/recording/format.ts';
import { openRecording } from '../data/recording/reader.ts';
import { createRecordingWriter } from '../data/recording/writer.ts';
import { writeStoreTables } from '../store/store-tables.ts';
import type { JournalInput } from '../store/store-types.ts';

export interface ExportResult {
  readonly manifestPath: string;
  readonly manifest: ExportManifest;
}

/** The tables a backtest writes beside its summary.json (src/backtest/result-tables.ts). */
const BACKTEST_TABLES: readonly TableSpec[] = [FILLS_TABLE, ORDERS_TABLE, EQUITY_TABLE];

/**
 * `clobot export <input> --out <dir>`: what `input` is decides what is written (each as Parquet, or
 * CSV), with `manifest.json` naming the tables and their row counts:
 * - a recording (text or binary): `markets`, `books` (levels), `trades`, `prices`, `lifecycle`, `wallet_trades`;
 * - a backtest's output folder (summary.json beside fills.parquet …): `fills`, `orders`, `equity`;
 * - a run store: `fills`, `orders`, `journal`.
 */
export async function exportData(input: string, outDir: string, format: TableFormat): Promise<ExportResult> {
  const dir = resolve(outDir);
  if (resolve(input) === dir) throw new ConfigError(`--out: must not be the input (${input})`);
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new ConfigError(`--out: ${outDir} is a file; give a folder`);
  mkdirSync(dir, { recursive: true });
  const base = { format: EXPORT_FORMAT, version: EXPORT_VERSION, source: resolve(input), tableFormat: format } as const;
  let manifest: ExportManifest;
  if (existsSync(input) && statSync(input).isDirectory()) {
    if (!existsSync(join(input, 'summary.json'))) throw new ConfigError(`${input}: not a backtest output folder (no summary.json); export takes a recording, a run store or a backtest's --out folder`);
    manifest = { ...base, kind: 'backtest', tables: await copyTables(input, BACKTEST_TABLES, dir, format) };
  } else {
    const kind = dataFileKind(input);
    if (kind === 'store') {
      manifest = { ...base, kind: 'store', tables: writeStoreTables(input, dir, format) };
    } else if (kind === 'recording') {
      const recording = await openRecording(input);
      const { markets: _markets, ...header } = recording.header;
      manifest = { ...base, kind: 'recording', recording: header, tables: await writeRecordingTables(recording.header, recording.batches(), dir, format) };
    } else {
      throw new ConfigError(`${input}: not a recording, a run store nor a backtest output folder`);
    }
  }
  return { manifestPath: writeManifest(dir, manifest), manifest };
}

/** A backtest's tables (Parquet, as the backtest wrote them) in `format`. */
async function copyTables(from: string, tables: readonly TableSpec[], dir: string, format: TableFormat): Promise<ExportManifest['tables']> {
  const out: Record<string, { file: string; rows: number }> = {};
  for (const t of tables) {
    const src = join(from, tableFileName(t, 'parquet'));
    if (!existsSync(src)) {
      const have = readdirSync(from).join(', ');
      throw new ConfigError(`${from}: no ${basename(src)} (a backtest of this build writes it beside summary.json; the folder holds ${have})`);
    }
    const w = openTableWriter(join(dir, tableFileName(t, format)), t, format);
    for await (const batch of readTable(src, t, 'parquet')) for (const row of batch) w.add(row);
    out[t.name] = { file: tableFileName(t, format), rows: w.close() };
  }
  return out;
}

export interface ImportExportResult {
  readonly path: string;
  readonly kind: ExportManifest['kind'];
  readonly events: number;
  readonly markets: number;
  readonly bytes: number;
}

/**
 * `clobot import <export folder> --out <recording>`: market data an export holds, back as a
 * recording. A recording's export gives the recording's header and events exactly (the tables put
 * together by `seq`); a run store's gives the market events its journal holds (as `clobot
 * backtest --data run.sqlite` replays them). A backtest's export holds results, not market data.
 */
export async function importExport(path: string, out: string, form: RecordingForm): Promise<ImportExportResult> {
  const { dir, manifest } = readManifest(path);
  let header: RecordingHeader;
  let events: AsyncIterable<MarketEvent>;
  if (manifest.kind === 'recording') {
    header = await readRecordingHeader(dir, manifest);
    events = readRecordingEvents(dir, manifest);
  } else if (manifest.kind === 'store') {
    ({ header, events } = await journalMarketData(dir, manifest));
  } else {
    throw new ConfigError(`${path}: a backtest's export holds its fills, orders and equity, not market data to import`);
  }
  const writer = createRecordingWriter(out, header, { form });
  try {
    for await (const e of events) writer.write(e);
  } finally {
    await writer.close();
  }
  return { path: writer.path, kind: manifest.kind, events: writer.events, markets: header.markets.length, bytes: writer.bytes };
}

/** The market list and market events of an exported journal (its `Markets` and `Market` rows). */
async function journalMarketData(dir: string, manifest: ExportManifest): Promise<{ header: RecordingHeader; events: AsyncIterable<MarketEvent> }> {
  const entry = manifest.tables['journal'];
  if (entry === undefined) throw new DecodeError(`${join(dir, 'manifest.json')}: tables`, 'a journal table', 'none');
  const file = join(dir, entry.file);
  const byId = new Map<string, RecordedMarket>();
  let createdAt: number | undefined;
  for await (const batch of readTable(file, JOURNAL_TABLE, manifest.tableFormat)) {
    for (const row of batch) {
      if (row[2] !== 'Markets') continue;
      const event = JSON.parse(row[4] as string) as JournalInput;
      if (event.type !== 'markets') continue;
      createdAt ??= row[1] as number;
      for (const m of event.markets) byId.set(m.conditionId, m);
    }
  }
  if (byId.size === 0) throw new ConfigError(`${file}: the journal holds no market list (a run that journaled no market data)`);
  const header: RecordingHeader = { format: RECORDING_FORMAT, version: RECORDING_VERSION, createdAt: createdAt ?? 0, source: `journal:${manifest.source}`, markets: [...byId.values()] };
  async function* events(): AsyncGenerator<MarketEvent> {
    for await (const batch of readTable(file, JOURNAL_TABLE, manifest.tableFormat)) {
      for (const row of batch) {
        if (row[2] !== 'Market') continue;
        const event = JSON.parse(row[4] as string) as JournalInput;
        if (event.type === 'market') yield event.event;
      }
    }
  }
  return { header, events: events() };
}

export { isExportFolder };
