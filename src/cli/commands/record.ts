import { InvalidArgumentError, type Command } from 'commander';
import { asyncScheduler } from 'rxjs';
import { longTimer } from '../../core/long-timer.ts';
import { loadConfig } from '../../config/load-config.ts';
import { createLogger } from '../../core/log.ts';
import { collectSet, parseDurationOption, parsePathOption, parseUrlOption, SET_HELP } from '../options.ts';
import type { ConfigOverride } from '../../config/config-overrides.ts';
import { formatBytes } from '../format-bytes.ts';
import { reachingVenue, remoteVenueOf } from '../venue-unreachable.ts';

interface RecordOptions {
  out: string;
  venue?: string;
  duration?: number;
  toBinary?: boolean;
  transport: 'ws' | 'poll';
  set: ConfigOverride[];
}

function parseTransport(value: string): string {
  if (value !== 'ws' && value !== 'poll') throw new InvalidArgumentError(`expected ws or poll, got '${value}'`);
  return value;
}

/** Progress lines: refreshed in place on a terminal, one every few seconds otherwise. */
const TTY_REFRESH_MS = 1_000;
const LINE_EVERY_MS = 5_000;

/**
 * `clobot record <config> --out <file>`: records the config's markets (over the WS market channel
 * by default: books, trades, prices; `--transport poll`: the REST book routes) from its venue (embedded sandbox or URL, or
 * `--venue`) into a recording for `clobot backtest`. Progress on stderr. SIGINT, SIGTERM or the
 * end of `--duration` flush and close the file (gzip properly ended) and exit 0.
 */
export function registerRecord(program: Command): void {
  program
    .command('record')
    .description('record market data (books, prices) of a config\'s markets for backtests')
    .argument('<config>', 'path to the YAML run config (its venue and market selection)', parsePathOption)
    .requiredOption('--out <file>', 'the recording to write (.gz: gzipped)', parsePathOption)
    .option('--venue <url>', 'venue base URL (overrides the config)', parseUrlOption)
    .option('--duration <time>', 'stop after this long (e.g. 90s, 5m, 1h)', parseDurationOption)
    .option('--to-binary', 'write the binary form (fast replay) instead of JSON lines')
    .option('--transport <ws|poll>', 'how to read the venue: ws (the default: the market channel, with every book change and trade print) or poll (the REST book routes; no trades); over data.transport', parseTransport, 'ws')
    .option('--set <key=value>', SET_HELP, collectSet, [])
    .action(async (configPath: string, opts: RecordOptions) => {
      // a recording is for backtests, where trades matter: over WS unless told otherwise (a --set
      // of data.transport comes after, and wins)
      const transport: ConfigOverride = { flag: '--set', key: 'data.transport', value: opts.transport };
      const config = loadConfig(configPath, process.env, { venueUrl: opts.venue, overrides: [transport, ...opts.set] });
      for (const warning of config.source.warnings) process.stderr.write(`warning: ${warning}\n`);
      const logger = createLogger({ level: config.logging.level, file: config.logging.file, stdout: false });
      const { startRecorder } = await import('../../app/recorder.ts');
      const recorder = await reachingVenue(remoteVenueOf(config, opts.venue), () =>
        startRecorder({ config, logger, out: opts.out, venueUrl: opts.venue, form: opts.toBinary ? 'binary' : 'text' }),
      );
      const stats0 = recorder.stats();
      process.stderr.write(
        `recording ${stats0.markets} markets (${stats0.tokens} tokens) from ${recorder.url} over ${recorder.transport} to ${recorder.path}\n`,
      );

      const tty = process.stderr.isTTY === true;
      const line = (): string => {
        const s = recorder.stats();
        return (
          `${s.events.toLocaleString('en-US')} events (${s.byType.book.toLocaleString('en-US')} books), ${formatBytes(s.bytes)}, ` +
          `${s.markets} markets, ${clockTime(s.elapsedMs)}${s.errors > 0 ? `, ${s.errors} errors` : ''}`
        );
      };
      const progress = setInterval(
        () => process.stderr.write(tty ? `\r${line()}\u001b[K` : `${line()}\n`),
        tty ? TTY_REFRESH_MS : LINE_EVERY_MS,
      );

      let failure: Error | undefined;
      await new Promise<void>((done) => {
        const finish = () => {
          process.off('SIGINT', finish);
          process.off('SIGTERM', finish);
          timer?.unsubscribe();
          done();
        };
        const timer = opts.duration !== undefined ? longTimer(opts.duration, asyncScheduler, finish) : undefined;
        process.once('SIGINT', finish);
        process.once('SIGTERM', finish);
        recorder.failed.catch((err: unknown) => {
          failure = err instanceof Error ? err : new Error(String(err));
          finish();
        });
      });
      clearInterval(progress);
      const s = await recorder.stop();
      if (tty) process.stderr.write('\n');
      process.stderr.write(
        `recorded ${s.events.toLocaleString('en-US')} events (${s.byType.book} books, ${s.byType.prices} prices, ${s.byType.trade} trades, ${s.byType.tickSize} tick changes${s.byType.walletTrade > 0 ? `, ${s.byType.walletTrade} wallet trades` : ''}${s.byType.feeRate > 0 ? `, ${s.byType.feeRate} fee changes` : ''}${s.byType.marketCleared > 0 ? `, ${s.byType.marketCleared} game-start clears` : ''}) ` +
          `from ${s.markets} markets in ${clockTime(s.elapsedMs)}: ${recorder.path} (${formatBytes(s.bytes)})\n`,
      );
      logger.flush();
      if (failure !== undefined) throw failure;
    });
}

function clockTime(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(h)}:${pad(m)}:${pad(sec)}`;
}
