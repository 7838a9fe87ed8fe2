import { InvalidArgumentError, Option, type Command } from 'commander';
import { pino } from 'pino';
import { MAX_SANDBOX_MARKETS, startSandbox } from '../../sandbox/server.ts';
import { SANDBOX_PROFILES, type SandboxProfile } from '../../sandbox/profile.ts';
import { parseIntOption } from '../options.ts';

/** Port `clobot sandbox` listens on when `--port` is not given. */
export const DEFAULT_SANDBOX_PORT = 8765;

interface SandboxFlags {
  port: number;
  seed: number;
  markets: number;
  events: number;
  profile: SandboxProfile;
  latencyMs: number;
  errorRate: number;
}

/**
 * `clobot sandbox`: the local venue on loopback until SIGINT or SIGTERM, then a clean close and
 * exit 0. Prints exactly `listening on http://127.0.0.1:<port>` on stdout once it accepts
 * connections; logs go to stderr as pino JSON.
 */
export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('run the local sandbox venue (every read route, seeded world) until SIGINT or SIGTERM')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parseIntOption(0, 65_535), DEFAULT_SANDBOX_PORT)
    .option('--seed <n>', 'seed of the generated world', parseIntOption(0, 0xffff_ffff), 1)
    .option('--markets <n>', 'number of markets', parseIntOption(1, MAX_SANDBOX_MARKETS), 200)
    .option('--events <n>', 'number of events (at most the number of markets)', parseIntOption(1, MAX_SANDBOX_MARKETS), 50)
    .addOption(new Option('--profile <p>', 'wire profile').choices(SANDBOX_PROFILES).default('interface'))
    .option('--latency-ms <n>', 'delay added to every request, ms', parseIntOption(0, 600_000), 0)
    .option('--error-rate <x>', 'share of requests answered 500, 0..1 (seeded)', parseShare, 0)
    .action(async (flags: SandboxFlags) => {
      const logger = pino({ name: 'clobot-sandbox', level: 'info' }, pino.destination({ dest: 2, sync: true }));
      const sandbox = await startSandbox({
        port: flags.port,
        seed: flags.seed,
        markets: flags.markets,
        events: flags.events,
        profile: flags.profile,
        faults: { latencyMs: flags.latencyMs, errorRate: flags.errorRate },
        logger,
      });
      process.stdout.write(`listening on ${sandbox.url}\n`);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        const stop = (sig: NodeJS.Signals): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          resolve(sig);
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      logger.info({ signal }, 'sandbox closing');
      await sandbox.close();
    });
}

/** A share in [0, 1], e.g. `0.25`. */
function parseShare(value: string): number {
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(value)) throw new InvalidArgumentError(`expected a number in 0..1, got '${value}'`);
  return Number(value);
}
