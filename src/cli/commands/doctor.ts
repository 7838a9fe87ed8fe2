import type { Command } from 'commander';
import { loadCheckedConfig } from '../../config/load-config.ts';
import type { ConfigOverride } from '../../config/config-overrides.ts';
import { createLogger } from '../../core/log.ts';
import type { DoctorLine } from '../../app/doctor/doctor-line.ts';
import { CommandVerdict } from '../command-verdict.ts';
import { collectSet, parsePathOption, parseUrlOption, SET_HELP } from '../options.ts';
import { renderTable } from '../table.ts';

interface DoctorFlags {
  venue?: string;
  json?: boolean;
  heartbeat?: boolean;
  set: ConfigOverride[];
}

/**
 * `clobot doctor <config>`: checks what a run of this config needs before it trades: the venue
 * answers, our clock against its clock, the signing backend and its speed, the credentials
 * (L1 derive, an L2 call), balance and allowance, a heartbeat round trip, every configured
 * market exists and accepts orders, the rate budget the config asks for, and the store. A
 * table (or `--json`); exit 0 all good, 1 warnings, 2 failures. A config that does not load is
 * the usual one line per problem, exit 2.
 */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check a config\'s venue, clock, credentials, balance, heartbeat, markets, rate budget, store and signing before running it (exit 0 ok, 1 warnings, 2 failures)')
    .argument('<config>', 'path to the YAML run config', parsePathOption)
    .option('--venue <url>', 'venue base URL (overrides the config)', parseUrlOption)
    .option('--json', 'print the checks as JSON')
    .option('--heartbeat', 'send the heartbeat check even when orders of ours are open (a lone beat arms the venue\'s 10 s cancel deadline)')
    .option('--set <key=value>', SET_HELP, collectSet, [])
    .action(async (configPath: string, flags: DoctorFlags) => {
      const config = await loadCheckedConfig(configPath, process.env, { venueUrl: flags.venue, overrides: flags.set });
      // the embedded sandbox and the venue client log at warn and above only, on stderr
      const logger = createLogger({ level: 'warn', file: undefined, stdout: false });
      const { runDoctor } = await import('../../app/doctor/run-doctor.ts');
      const report = await runDoctor({ config, venueUrl: flags.venue, logger, heartbeat: flags.heartbeat === true });
      process.stdout.write(flags.json ? JSON.stringify({ exitCode: report.exitCode, checks: report.lines }, null, 2) + '\n' : formatDoctor(report.lines) + '\n');
      if (report.exitCode !== 0) throw new CommandVerdict(report.exitCode);
    });
}

const MARK = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' } as const;

/** The table: one row per check. */
export function formatDoctor(lines: readonly DoctorLine[]): string {
  return renderTable(['check', 'status', 'detail'], lines.map((l) => [l.check, MARK[l.status], l.detail]), [false, false, false]);
}
