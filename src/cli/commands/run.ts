import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { asyncScheduler } from 'rxjs';
import { EXIT_FAIL_CLOSED, EXIT_ORDERS_LIVE, RunEndError } from '../../core/errors.ts';
import { longTimer } from '../../core/long-timer.ts';
import { loadCheckedConfig } from '../../config/load-config.ts';
import { createLogger } from '../../core/log.ts';
import type { EngineCommand } from '../../engine/commands.ts';
import type { StopReport } from '../../engine/engine-summary.ts';
import { collectSet, parseDurationOption, parseIntOption, parseOutputFileOption, parsePathOption, parseUrlOption, SET_HELP } from '../options.ts';
import { bindingRefusal, controlToken, DEFAULT_CONTROL_HOST, DEFAULT_CONTROL_PORT } from '../../control/access.ts';
import { LogLines } from '../../control/log-lines.ts';
import { UsageError } from '../usage-error.ts';
import type { ConfigOverride } from '../../config/config-overrides.ts';
import { takeEarlyUsr2 } from '../early-signals.ts';
import { reachingVenue, remoteVenueOf } from '../venue-unreachable.ts';
import type { RunSession } from '../../app/run-session.ts';
import type { RunConfig } from '../../config/run-config.ts';
import type { RunningMetricsServer } from '../../telemetry/metrics-server.ts';

/** Who applies SIGUSR2's commands: the run's engine. */
interface Commandable {
  command(command: EngineCommand): unknown;
}

interface RunOptions {
  venue?: string;
  duration?: number;
  summary?: string;
  keepOrders?: boolean;
  status?: boolean;
  store?: string;
  set: ConfigOverride[];
  control?: boolean;
  controlPort?: number;
  controlHost?: string;
  metricsPort?: number;
  metricsHost?: string;
}

/**
 * `clobot run <config>`: runs the config's strategies live (against the venue URL, or the sandbox
 * embedded in-process). SIGINT, SIGTERM or the end of `--duration` stop the strategies, cancel
 * open orders unless `--keep-orders` and check that none is live at the venue, write `--summary`,
 * and exit 0; exit 3 when orders stay live (listed). A fatal fault in our process (a store write,
 * an unexpected exception) halts trading and takes the same stop, then exits 4. SIGUSR2 toggles the
 * `signal` halt (a client of the engine's commands: the halt file's own halt is apart). On a terminal a status view refreshes every 2 s; JSON logs go to the config's
 * log file, and to stdout when stdout is not a terminal.
 */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run a config live or paper (against a venue URL or the embedded sandbox)')
    .argument('<config>', 'path to the YAML run config', parsePathOption)
    .option('--venue <url>', 'venue base URL (overrides the config)', parseUrlOption)
    .option('--duration <time>', 'stop after this long (e.g. 90s, 5m, 1h)', parseDurationOption)
    .option('--summary <file>', 'write the run summary as JSON to this file', parseOutputFileOption)
    .option('--keep-orders', 'leave open orders resting when stopping')
    .option('--store <file>', 'SQLite state file (overrides store.path); an existing one is resumed', parsePathOption)
    .option('--no-status', 'no status view even on a terminal')
    .option('--set <key=value>', SET_HELP, collectSet, [])
    .option('--control', `serve the control API and dashboard (${DEFAULT_CONTROL_HOST}:${DEFAULT_CONTROL_PORT}; bearer token from CLOBOT_CONTROL_TOKEN)`)
    .option('--control-port <port>', `the control server's port (0: any free one); implies --control`, parseIntOption(0, 65_535))
    .option('--control-host <address>', `the control server's address (default ${DEFAULT_CONTROL_HOST}; any other needs CLOBOT_CONTROL_TOKEN); implies --control`)
    .option('--metrics-port <n>', 'serve the run\'s metrics in Prometheus format on GET /metrics at this port (0: any free port)', parseIntOption(0, 65_535))
    .option('--metrics-host <address>', '/metrics listen address (default 127.0.0.1; any other needs CLOBOT_METRICS_TOKEN)')
    .action(async (configPath: string, opts: RunOptions) => {
      // the control server's binding is checked first: a refused one starts nothing
      const control = opts.control === true || opts.controlPort !== undefined || opts.controlHost !== undefined;
      const controlHost = opts.controlHost ?? DEFAULT_CONTROL_HOST;
      const token = controlToken(process.env);
      if (control) {
        const refusal = bindingRefusal(controlHost, token);
        if (refusal !== undefined) throw new UsageError(refusal);
      }
      // every check a run makes of its config and strategies, before anything starts (no sandbox, no venue call)
      // --venue is the venue whatever the file says (a paper config need not name one then)
      const config = await loadCheckedConfig(configPath, process.env, { requireStrategy: true, venueUrl: opts.venue, overrides: opts.set, modeRule: runModeRule });
      for (const warning of config.source.warnings) process.stderr.write(`warning: ${warning}\n`);
      const noStore = storelessLiveRun(config, opts.venue, opts.store);
      if (noStore !== undefined) process.stderr.write(`warning: ${noStore}\n`);
      const tty = process.stdout.isTTY === true && opts.status !== false;
      const logLines = control ? new LogLines() : undefined;
      const logger = createLogger({ level: config.logging.level, file: config.logging.file, stdout: !tty, tap: logLines?.tap });
      // SIGUSR2 is listened to before the run starts: one sent while it starts halts it before
      // its first order (and does not kill the process, SIGUSR2's default). It raises and lifts
      // the `signal` halt only: a halt file or a fault stays on.
      let halted = false;
      let engine: Commandable | undefined;
      const onUsr2 = () => {
        halted = !halted;
        engine?.command(halted ? { type: 'halt', name: 'signal', reason: 'SIGUSR2' } : { type: 'resume', name: 'signal' });
      };
      process.on('SIGUSR2', onUsr2);
      // the ones that came while the sources loaded (bin/clobot.mjs counted them)
      for (let n = takeEarlyUsr2(); n > 0; n--) onUsr2();
      logger.info({ config: config.source.file, mode: config.mode }, 'run starting');
      if (noStore !== undefined) logger.warn(noStore);
      // loaded on use, so other commands start without the engine's modules
      const { startRunSession } = await import('../../app/run-session.ts');
      const { StatusView } = await import('../status-view.ts');
      // the control server listens before the run starts (its port is checked before anything is sent)
      const controlServer = control ? await startControlServer(controlHost, opts.controlPort ?? DEFAULT_CONTROL_PORT, token) : undefined;
      // so does --metrics-port's /metrics: a refused address or a busy port is exit 2 with nothing sent
      const running: { session?: RunSession } = {};
      const metricsServer = await serveMetrics(opts, () => running.session).catch(async (err: unknown) => {
        await controlServer?.close();
        throw err;
      });
      // on stderr, as the control server's: on a terminal the log goes to its file only, and --metrics-port 0 picks the port
      if (metricsServer) process.stderr.write(`metrics on ${metricsServer.url}/metrics${metricsTokenSet() ? '; bearer token from CLOBOT_METRICS_TOKEN' : ''}\n`);
      const storePath = opts.store !== undefined ? resolve(opts.store) : undefined;
      // a venue URL that does not answer is one line naming it (the embedded sandbox is ours)
      const session = await reachingVenue(remoteVenueOf(config, opts.venue), () =>
        startRunSession({
          config,
          logger,
          venueUrl: opts.venue,
          storePath,
          prometheus: metricsServer !== undefined || controlServer !== undefined,
          beforeStart: (built) => {
            engine = built;
            if (halted) built.command({ type: 'halt', name: 'signal', reason: 'SIGUSR2' });
          },
        }),
      ).catch(async (err: unknown) => {
        await controlServer?.close();
        await metricsServer?.close();
        throw err;
      });
      running.session = session;
      if (metricsServer) logger.info({ url: `${metricsServer.url}/metrics` }, 'metrics served');
      const prometheus = session.prometheus;
      if (controlServer && prometheus) {
        controlServer.mount('/metrics', { summary: 'the run\'s metrics in Prometheus text format', contentType: prometheus.contentType, body: () => prometheus.text() });
      }
      let controlSource: { close(): void } | undefined;
      if (controlServer && logLines) {
        const { liveControlSource } = await import('../../app/run-control.ts');
        const source = liveControlSource(session, config, logLines, storePath ?? config.store.path);
        controlServer.attach(source);
        controlSource = source;
      }
      const view = tty ? new StatusView(session) : undefined;
      view?.start();

      // an exception nobody caught (a stream's, a timer's) fails the run closed instead of killing it with orders live
      const onException = (err: unknown) => session.fail('unexpected exception', err);
      process.on('uncaughtException', onException);
      process.on('unhandledRejection', onException);

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
        void session.fatal.then(finish);
      });
      process.off('SIGUSR2', onUsr2);
      view?.stop();
      const summary = await session.stop({ keepOrders: opts.keepOrders === true ? true : undefined });
      controlSource?.close();
      await controlServer?.close();
      await metricsServer?.close();
      process.off('uncaughtException', onException);
      process.off('unhandledRejection', onException);
      if (opts.summary) writeSummary(resolve(opts.summary), summary);
      process.stderr.write(
        `stopped: ${summary.ordersSubmitted} orders submitted, ${summary.ordersAccepted} accepted, ${summary.fills} fills, ` +
          `cash ${summary.account.cash}, equity ${summary.account.equity}, realized ${summary.account.realized}, unrealized ${summary.account.unrealized}, fees ${summary.account.fees}\n`,
      );
      // a strategy that faulted: the summary says so, with its stack (the log has it too)
      if (summary.firstFault) process.stderr.write(`${summary.faults} strategy fault(s); the first, at ${summary.firstFault.at}:\n${summary.firstFault.stack}\n`);
      logger.flush();
      const fault = await Promise.race([session.fatal, Promise.resolve(undefined)]);
      // the fault's stack only when asked: the one line below says what failed
      if (fault && process.env['CLOBOT_DEBUG'] === '1') process.stderr.write(`${fault.cause instanceof Error ? (fault.cause.stack ?? fault.message) : fault.message}\n`);
      const live = summary.stop?.verified === false ? summary.stop.live : [];
      if (live.length > 0 || summary.stop?.verified === false) {
        throw new RunEndError(unverifiedStopMessage(summary.stop ?? { verified: false, rounds: 0, live }, fault), EXIT_ORDERS_LIVE);
      }
      if (fault) throw new RunEndError(`failed closed: ${fault.what}: ${fault.message}; trading stopped, no order of ours live at the venue`, EXIT_FAIL_CLOSED, { cause: fault.cause });
    });
}

/** `clobot run` runs live and paper configs; a backtest config is refused at its `mode:` before anything is logged or started. */
function runModeRule(mode: RunConfig['mode']): string | undefined {
  return mode === 'backtest' ? "a backtest runs with 'clobot backtest <config> --data <file…>', not 'clobot run'" : undefined;
}

/**
 * The warning of a live run on a venue that outlives it (not the embedded sandbox) with no store:
 * its orders and fills are kept in memory only, so after a restart the positions it bought are
 * the account's but not the bot's (held outside the bot: never sold by it), and `clobot status`
 * has nothing to read. Undefined when the run keeps a store, is paper, or is on the embedded sandbox.
 */
export function storelessLiveRun(config: RunConfig, venueFlag: string | undefined, storeFlag: string | undefined): string | undefined {
  if (config.mode !== 'live' || storeFlag !== undefined || config.store.path !== undefined) return undefined;
  const venue = remoteVenueOf(config, venueFlag);
  if (venue === undefined) return undefined;
  return (
    `store (${config.source.file}): no store.path (nor --store) for a live run on ${venue}: its orders and fills are kept in memory only, ` +
    'so after a restart the positions it bought count as held outside the bot (never sold by it) and `clobot status` has nothing to read; ' +
    'set store.path (say .clobot/live.sqlite) to resume across restarts'
  );
}

/**
 * The control server on `host:port`, listening, its address on stderr (never its token); a port
 * in use or an address that cannot be bound is one line and exit 2.
 */
async function startControlServer(host: string, port: number, token: string | undefined) {
  const { ControlServer } = await import('../../control/control-server.ts');
  try {
    const server = await ControlServer.start({ host, port, token, version: '0.1.0' });
    process.stderr.write(`control API and dashboard on ${server.url}/ (OpenAPI: ${server.url}/openapi.json)${token === undefined ? '' : '; bearer token from CLOBOT_CONTROL_TOKEN'}\n`);
    return server;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the port is in use' : code === 'EADDRNOTAVAIL' ? 'no such address on this machine' : err instanceof Error ? err.message : String(err);
    throw new UsageError(`--control-host ${host} --control-port ${port}: cannot listen there (${why})`);
  }
}

/**
 * `--metrics-port`: the standalone /metrics server over the session's exporter (the session is
 * looked up per scrape: 500 until it is built). Off loopback it needs CLOBOT_METRICS_TOKEN.
 */
async function serveMetrics(opts: RunOptions, session: () => RunSession | undefined): Promise<RunningMetricsServer | undefined> {
  if (opts.metricsPort === undefined) {
    if (opts.metricsHost !== undefined) throw new UsageError('--metrics-host needs --metrics-port');
    return undefined;
  }
  const { startMetricsServer, MetricsServerError } = await import('../../telemetry/metrics-server.ts');
  const { PROMETHEUS_CONTENT_TYPE } = await import('../../telemetry/prometheus.ts');
  try {
    return await startMetricsServer({
      port: opts.metricsPort,
      host: opts.metricsHost,
      token: metricsTokenSet() ? process.env['CLOBOT_METRICS_TOKEN'] : undefined,
      exporter: {
        contentType: PROMETHEUS_CONTENT_TYPE,
        text: () => session()?.prometheus?.text() ?? Promise.reject(new Error('the run is still starting')),
      },
    });
  } catch (err) {
    if (err instanceof MetricsServerError) throw new UsageError(err.message);
    throw err;
  }
}

/** Whether /metrics asks for a bearer token (CLOBOT_METRICS_TOKEN set and not empty). */
function metricsTokenSet(): boolean {
  const token = process.env['CLOBOT_METRICS_TOKEN'];
  return token !== undefined && token !== '';
}

/**
 * The summary to its file; when the file cannot be written (a folder made meanwhile, a full disk,
 * no permission) the summary goes to stderr after one line naming the file and why, never lost.
 */
export function writeSummary(path: string, summary: unknown): void {
  const text = JSON.stringify(summary, null, 2) + '\n';
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  } catch (err) {
    process.stderr.write(`could not write the summary to ${path} (${err instanceof Error ? err.message : String(err)}); here it is:\n${text}`);
  }
}

/**
 * The one line of an unverified stop (exit 3): the orders the venue still listed live, or, when
 * its list never answered, that the stop could not be checked and what our own book had open.
 */
export function unverifiedStopMessage(stop: StopReport, fault: { what: string; message: string } | undefined): string {
  const ids = stop.live.map((o) => o.orderId ?? o.clientOrderId).join(', ');
  const failed = fault ? ` (the run failed on ${fault.what}: ${fault.message})` : '';
  if (stop.unlisted) {
    return (
      `the stop is unverified: the venue's list of open orders never answered within execution.stopDeadlineMs (${stop.rounds} round(s)); ` +
      `${stop.live.length} order(s) were open in our own book${stop.live.length > 0 ? `: ${ids}` : ''}; check the venue${failed}`
    );
  }
  return `${stop.live.length} order(s) still live at the venue after the stop: ${ids}${failed}`;
}

