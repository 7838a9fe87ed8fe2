import type { Command } from 'commander';
import { bindingRefusal, controlToken, DEFAULT_CONTROL_HOST, DEFAULT_CONTROL_PORT } from '../../control/access.ts';
import { parseIntOption, parsePathOption } from '../options.ts';
import { UsageError } from '../usage-error.ts';

interface DashboardFlags {
  port: number;
  host: string;
}

/**
 * `clobot dashboard <store>`: the run dashboard of `clobot run --control`, read-only, from a store
 * file (a run in progress or finished): it reads the store without its lock and shows what the
 * journal adds as it grows. No actions. Loopback by default; another address needs
 * CLOBOT_CONTROL_TOKEN. Runs until SIGINT or SIGTERM.
 */
export function registerDashboard(program: Command): void {
  program
    .command('dashboard')
    .description("serve a run store's dashboard, read-only (the page of `clobot run --control`)")
    .argument('<store>', 'path to the run store (SQLite file)', parsePathOption)
    .option('--port <port>', 'port to serve on (0: any free one)', parseIntOption(0, 65_535), DEFAULT_CONTROL_PORT)
    .option('--host <address>', 'address to serve on (any but loopback needs CLOBOT_CONTROL_TOKEN)', DEFAULT_CONTROL_HOST)
    .action(async (path: string, flags: DashboardFlags) => {
      const token = controlToken(process.env);
      const refusal = bindingRefusal(flags.host, token, '--host');
      if (refusal !== undefined) throw new UsageError(refusal);
      const { StoreSource } = await import('../../control/store-source.ts');
      const { ControlServer } = await import('../../control/control-server.ts');
      const source = new StoreSource(path);
      let server;
      try {
        server = await ControlServer.start({ host: flags.host, port: flags.port, token, version: '0.1.0' });
      } catch (err) {
        source.close();
        const code = (err as NodeJS.ErrnoException).code;
        throw new UsageError(`--host ${flags.host} --port ${flags.port}: cannot listen there (${code === 'EADDRINUSE' ? 'the port is in use' : err instanceof Error ? err.message : String(err)})`);
      }
      server.attach(source);
      process.stderr.write(`dashboard of ${path} (read-only) on ${server.url}/\n`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      source.close();
      await server.close();
    });
}
