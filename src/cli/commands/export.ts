import type { Command } from 'commander';
import { parsePathOption } from '../options.ts';

interface ExportOptions {
  out: string;
  csv?: boolean;
}

/**
 * `clobot export <input> --out <dir> [--csv]`: a recording, a backtest's output folder or a run
 * store as Parquet tables (CSV with `--csv`) that DuckDB, pandas and polars read, with
 * `manifest.json` naming each table and its rows (src/app/export-data.ts; docs/research.md).
 */
export function registerExport(program: Command): void {
  program
    .command('export')
    .description('write a recording, a backtest\'s results or a run store as Parquet (or CSV) tables for DuckDB, pandas, polars')
    .argument('<input>', "a recording, a backtest's --out folder, or a run store (.sqlite)", parsePathOption)
    .requiredOption('--out <dir>', 'the folder to write the tables and manifest.json to', parsePathOption)
    .option('--csv', 'write CSV instead of Parquet')
    .action(async (input: string, opts: ExportOptions) => {
      const started = performance.now();
      const { exportData } = await import('../../app/export-data.ts');
      const { manifest, manifestPath } = await exportData(input, opts.out, opts.csv === true ? 'csv' : 'parquet');
      const lines = Object.entries(manifest.tables).map(([name, t]) => `  ${name.padEnd(13)} ${t.rows.toLocaleString('en-US').padStart(12)} rows  ${t.file}`);
      process.stdout.write(`exported ${manifest.kind} ${input} in ${((performance.now() - started) / 1000).toFixed(1)} s:\n${lines.join('\n')}\nwrote ${manifestPath}\n`);
    });
}
