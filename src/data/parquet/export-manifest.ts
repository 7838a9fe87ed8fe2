import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../../core/errors.ts';
import type { RecordingHeader } from '../recording/format.ts';
import type { TableFormat } from './table.ts';

export const EXPORT_FORMAT = 'clobot-export';
export const EXPORT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';

/** What an export folder holds: `manifest.json` beside its tables. */
export interface ExportManifest {
  readonly format: typeof EXPORT_FORMAT;
  readonly version: number;
  /** What was exported: a recording (market data), a backtest's results, or a run store. */
  readonly kind: 'recording' | 'backtest' | 'store';
  /** The file or folder exported. */
  readonly source: string;
  readonly tableFormat: TableFormat;
  /** Each table: its file (in this folder) and its row count. */
  readonly tables: Readonly<Record<string, { readonly file: string; readonly rows: number }>>;
  /** A recording's header (its markets are in the `markets` table). */
  readonly recording?: Omit<RecordingHeader, 'markets'>;
}

export function writeManifest(dir: string, manifest: ExportManifest): string {
  const path = join(dir, MANIFEST_FILE);
  writeFileSync(path, JSON.stringify(manifest, null, 2) + '\n');
  return path;
}

/** True when `path` is an export folder (or its manifest.json). */
export function isExportFolder(path: string): boolean {
  if (path.endsWith(MANIFEST_FILE)) return existsSync(path);
  return existsSync(path) && statSync(path).isDirectory() && existsSync(join(path, MANIFEST_FILE));
}

/** Reads an export folder's manifest (`path`: the folder or its manifest.json), checked. */
export function readManifest(path: string): { dir: string; manifest: ExportManifest } {
  const file = path.endsWith(MANIFEST_FILE) ? path : join(path, MANIFEST_FILE);
  const dir = file.slice(0, -MANIFEST_FILE.length - 1) || '.';
  let m: ExportManifest;
  try {
    m = JSON.parse(readFileSync(file, 'utf8')) as ExportManifest;
  } catch (err) {
    throw new ConfigError(`${file}: not a clobot export manifest (${(err as Error).message})`);
  }
  const format: unknown = m.format;
  if (format !== EXPORT_FORMAT) throw new ConfigError(`${file}: format is ${JSON.stringify(format)}, expected ${EXPORT_FORMAT}`);
  const version: unknown = m.version;
  if (typeof version !== 'number' || version > EXPORT_VERSION) throw new ConfigError(`${file}: export version ${JSON.stringify(version)} is not one this build reads (1 to ${EXPORT_VERSION})`);
  return { dir, manifest: m };
}
