import { fileErrorReason } from '../../core/errors.ts';
import { closeSync, openSync, readSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../usage-error.ts';
import { formatBytes } from '../format-bytes.ts';
import { parseIntOption, parsePathOption } from '../options.ts';

interface ImportOptions {
  out: string;
  limitMarkets?: number;
  slugs?: string;
  match?: string;
  toBinary?: boolean;
  /** A path, false for `--no-markets`, undefined for the default (beside the input). */
  markets?: string | false;
}

/**
 * `clobot import <file> --out <file>`: a Parquet file of top-of-book quotes becomes a replayable
 * recording (synthetic markets and one-level books, see src/data/import-quotes.ts); a recording
 * is rewritten in the other form (`--to-binary`, or back to text without it); a folder `clobot
 * export` wrote becomes the recording it holds (src/app/export-data.ts). Gzip when `--out`
 * ends in `.gz`. Progress on stderr, the summary on stdout.
 */
export function registerImport(program: Command): void {
  program
    .command('import')
    .description('turn Parquet top-of-book quotes into a recording, or convert a recording (text <-> binary)')
    .argument('<file>', 'a quotes .parquet file, a recording to convert, or a folder clobot export wrote', parsePathOption)
    .requiredOption('--out <file>', 'the recording to write (.gz: gzipped)', parsePathOption)
    .option('--limit-markets <n>', 'keep only the first N markets (slugs, in file order)', parseIntOption(1))
    .option('--slugs <a,b,...>', 'keep only these market slugs (Parquet quotes)')
    .option('--match <regex>', 'keep only market slugs matching this regular expression (Parquet quotes)')
    .option('--to-binary', 'write the binary form (fast replay) instead of JSON lines')
    .option('--markets <file>', 'markets.parquet for questions (default: the one beside the input)', parsePathOption)
    .option('--no-markets', 'do not look up questions; use the slugs')
    .action(async (input: string, opts: ImportOptions) => {
      const form = opts.toBinary ? 'binary' : 'text';
      const started = performance.now();
      const tty = process.stderr.isTTY === true;
      const { importExport, isExportFolder } = await import('../../app/export-data.ts');
      if (isExportFolder(input)) {
        if (opts.limitMarkets !== undefined) throw new UsageError('--limit-markets applies to Parquet quotes only');
        const r = await importExport(input, opts.out, form);
        process.stdout.write(`wrote ${r.path} (${form}, ${formatBytes(r.bytes)}): ${n(r.events)} events, ${r.markets} markets from the ${r.kind} export ${input} in ${seconds(started)}\n`);
        return;
      }
      if (isParquet(input)) {
        const { importQuotes } = await import('../../data/import-quotes.ts');
        const wanted = opts.slugs !== undefined ? new Set(opts.slugs.split(',').map((x) => x.trim()).filter((x) => x !== '')) : undefined;
        const result = await importQuotes({
          input,
          out: opts.out,
          limitMarkets: opts.slugs !== undefined ? Math.min(opts.limitMarkets ?? Infinity, wanted!.size) : opts.limitMarkets,
          selectSlug: slugFilter(wanted, opts.match),
          form,
          marketsFile: opts.markets === false ? null : opts.markets,
          onProgress: (p) => {
            const line = `reading row group ${p.rowGroups} (of ${p.rowGroupsTotal}): ${p.rows.toLocaleString('en-US')} rows, ${p.quotes.toLocaleString('en-US')} quotes`;
            process.stderr.write(tty ? `\r${line}\u001b[K` : `${line}\n`);
          },
        });
        if (tty) process.stderr.write('\n');
        const span = result.firstTs !== undefined && result.lastTs !== undefined ? `${iso(result.firstTs)} .. ${iso(result.lastTs)}` : 'no quotes';
        const ticks = Object.entries(result.ticks)
          .map(([tick, n]) => `${n} at ${tick}`)
          .join(', ');
        process.stdout.write(
          [
            `wrote ${result.path} (${form}, ${formatBytes(result.bytes)}) in ${seconds(started)}`,
            `markets: ${result.markets}${ticks ? ` (tick ${ticks})` : ''}${result.marketsWithoutQuotes > 0 ? `; ${result.marketsWithoutQuotes} without a usable quote left out` : ''}`,
            `events: ${result.families} (families of markets sharing a question: each one event of its outcome markets, not neg-risk, as the data does not say)`,
            `updates: a market every ${result.medianUpdateMs === undefined ? 'n/a (no market quoted twice)' : `${(result.medianUpdateMs / 1000).toFixed(1)} s (median): a backtest warns when risk.staleBookMs is shorter`}`,
            `rows read: ${n(result.rows)} (${result.rowGroupsRead} of ${result.rowGroupsTotal} row groups)`,
            `quotes: ${n(result.quotes)} -> ${n(result.events)} book events, ${span}${result.sorted ? ' (sorted by time)' : ''}`,
            `  one-sided: ${n(result.oneSided)}, empty books: ${n(result.empty)}`,
            `depth: synthesised: the source has only the top of book, so each book is one level a side at the quoted prices with a made-up size of 100 shares, not the market's`,
            `skipped: ${n(result.skipped.crossed)} crossed or locked (ask <= bid), ${n(result.skipped.invalid)} invalid`,
          ].join('\n') + '\n',
        );
        return;
      }
      if (opts.limitMarkets !== undefined) throw new UsageError('--limit-markets applies to Parquet input only');
      const { convertRecording } = await import('../../data/recording/convert-recording.ts');
      const result = await convertRecording(input, opts.out, form);
      process.stdout.write(`wrote ${result.path} (${form}, ${formatBytes(result.bytes)}): ${n(result.events)} events, ${result.markets} markets in ${seconds(started)}\n`);
    });
}

/** The slug filter of `--slugs` and `--match` (both: a slug must pass both). */
function slugFilter(wanted: ReadonlySet<string> | undefined, match: string | undefined): ((slug: string) => boolean) | undefined {
  let re: RegExp | undefined;
  if (match !== undefined) {
    try {
      re = new RegExp(match);
    } catch (err) {
      throw new UsageError(`--match: not a regular expression: ${(err as Error).message}`);
    }
  }
  if (wanted === undefined && re === undefined) return undefined;
  return (slug) => (wanted === undefined || wanted.has(slug)) && (re === undefined || re.test(slug));
}

/** Parquet files start (and end) with `PAR1`. */
function isParquet(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw new UsageError(`${path}: cannot read (${fileErrorReason(err)})`);
  }
  try {
    const head = Buffer.alloc(4);
    return readSync(fd, head, 0, 4, 0) === 4 && head.toString('latin1') === 'PAR1';
  } finally {
    closeSync(fd);
  }
}

function n(x: number): string {
  return x.toLocaleString('en-US');
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function seconds(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`;
}
