import { InvalidArgumentError, Option, type Command } from 'commander';
import { pino } from 'pino';
import { DEFAULT_HEARTBEAT_TIMEOUT_MS, DEFAULT_STARTING_BALANCE, MAX_SANDBOX_MARKETS, startSandbox } from '../../sandbox/server.ts';
import { TRADING_MODES, type TradingMode } from '../../sandbox/faults.ts';
import { SANDBOX_PROFILES, type SandboxProfile } from '../../sandbox/profile.ts';
import { DEFAULT_MAX_CONNECTIONS_PER_CALLER, DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER } from '../../sandbox/ws/caller-caps.ts';
import { DEFAULT_FLOW_PARAMS, MAX_FLOW_ACTIONS_PER_SECOND, MAX_FLOW_INTENSITY } from '../../sandbox/flow/flow-params.ts';
import { parseIntOption } from '../options.ts';
import { UsageError } from '../usage-error.ts';

/** Port `clobot sandbox` listens on when `--port` is not given. */
export const DEFAULT_SANDBOX_PORT = 8765;

interface SandboxFlags {
  port: number;
  clockSkewMs: number;
  seed: number;
  markets: number;
  events: number;
  profile: SandboxProfile;
  latencyMs: number;
  errorRate: number;
  stallMs: number;
  dropAfterAccept: number;
  mode: TradingMode;
  ignoreHeartbeats: boolean;
  startingBalance: number;
  heartbeatTimeoutMs: number;
  flow: boolean;
  flowIntensity: number;
  flowActionsPerSecond: number;
  rewardSampleMs: number;
  negRiskEpisodes: number;
  leaderEpisodes: number;
  nearEndEpisodes: number;
  nearEndWithinMs: number;
  nearEndBreakdownShare: number;
  withdrawLegShare: number;
  resolveMarkets: number;
  resolveWithinMs: number;
  newMarketsEvery: number;
  feeChangeAfterMs?: number;
  feeChangeBps?: number;
  feeChangeMarkets?: number;
  gameStarts: number;
  gameStartWithinMs: number;
  wsSilent: boolean;
  wsMaxConnectionsPerCaller: number;
  wsMaxSubscriptionsPerCaller?: number;
  wsUserResendRate: number;
  resolveAfterMs: number;
  settleMinedMs: number;
  settleConfirmedMs: number;
  settleRetryRate: number;
  settleFailRate: number;
  matchingDelayMs?: number;
  serverSecret?: string;
  deterministicKeys: boolean;
  adminToken?: string;
}

/** Environment variables that may carry the secrets instead of the command line (which `ps` shows). */
export const SERVER_SECRET_ENV = 'CLOBOT_SANDBOX_SERVER_SECRET';
export const ADMIN_TOKEN_ENV = 'CLOBOT_SANDBOX_ADMIN_TOKEN';

/**
 * `clobot sandbox`: the local venue on loopback until SIGINT or SIGTERM, then a clean close and
 * exit 0. Prints exactly `listening on http://127.0.0.1:<port>` on stdout once it accepts
 * connections; logs go to stderr as pino JSON.
 */
export function registerSandbox(program: Command): void {
  program
    .command('sandbox')
    .description('run the local sandbox venue (seeded world, matching engine, every route) until SIGINT or SIGTERM')
    .option('--port <n>', 'port on 127.0.0.1 (0 picks a free one)', parseIntOption(0, 65_535), DEFAULT_SANDBOX_PORT)
    .option('--seed <n>', 'seed of the generated world', parseIntOption(0, 0xffff_ffff), 1)
    .option('--markets <n>', 'number of markets', parseIntOption(1, MAX_SANDBOX_MARKETS), 200)
    .option('--events <n>', 'number of events (at most the number of markets)', parseIntOption(1, MAX_SANDBOX_MARKETS), 50)
    .addOption(new Option('--profile <p>', 'wire profile').choices(SANDBOX_PROFILES).default('interface'))
    .option('--latency-ms <n>', 'delay added to every request, ms', parseIntOption(0, 600_000), 0)
    .option('--error-rate <x>', 'share of requests answered 500, 0..1 (seeded)', parseShare, 0)
    .option('--stall-ms <n>', 'hold every answer this long after the work is done (orders are placed first), ms', parseIntOption(0, 600_000), 0)
    .option('--drop-after-accept <x>', 'share of order posts placed and then dropped without an answer, 0..1 (seeded)', parseShare, 0)
    .addOption(new Option('--mode <m>', 'trading mode: order posts answer 503 outside normal (post-only lets post-only orders through)').choices(TRADING_MODES).default('normal'))
    .option('--ignore-heartbeats', 'answer heartbeats without pushing the deadline back', false)
    .option('--starting-balance <n>', 'collateral of a new address, whole units', parseIntOption(0, 1_000_000_000), DEFAULT_STARTING_BALANCE)
    .option('--heartbeat-timeout-ms <n>', 'open orders of a key are cancelled this long after its last valid beat, ms', parseIntOption(1, 86_400_000), DEFAULT_HEARTBEAT_TIMEOUT_MS)
    .option('--no-flow', 'no synthetic order flow (books move only with your own orders)')
    .option('--flow-intensity <x>', 'scale of the synthetic order flow (visits and taker orders), > 0 and <= 100', parseIntensity, 1)
    .option('--flow-actions-per-second <n>', `the synthetic flow's budget of agent actions per second over the whole world, before the intensity (how often a large world's markets are visited and their books moved; POST /admin/flow changes it while running)`, parseIntOption(1, MAX_FLOW_ACTIONS_PER_SECOND), DEFAULT_FLOW_PARAMS.actionsPerSecond)
    .option('--reward-sample-ms <n>', 'liquidity rewards: every reward market is sampled this often, ms of sandbox time (GET /admin/rewards)', parseIntOption(10, 86_400_000), 60_000)
    .option('--neg-risk-episodes <n>', 'episodes per neg-risk event per hour in which its outcome prices sum off 1 (seeded; 0: only POST /admin/episodes)', parseRate, 2)
    .option('--leader-episodes <n>', 'leader wallet episodes per hour: a leader buys, the price moves its way seconds later, it sells (seeded; 0: only POST /admin/leaders; GET /admin/leaders lists the wallets)', parseRate, 20)
    .option('--withdraw-leg-share <x>', "share of episodes whose one outcome's depth is withdrawn at the first client order (forces partial baskets), 0..1 (seeded)", parseShare, 0)
    .option('--near-end-episodes <n>', 'near-end episodes per hour: a market nears its end date while its favourite drifts toward certainty, then closes and resolves; some favourites collapse (seeded, planned at start within --near-end-within-ms; 0: only POST /admin/near-end)', parseRate, 0)
    .option('--near-end-within-ms <n>', 'the near-end episodes\' end dates fall within this long after start, ms', parseIntOption(1, 2_592_000_000), 3_600_000)
    .option('--near-end-breakdown-share <x>', 'share of near-end episodes whose favourite collapses before the end and loses, 0..1 (seeded)', parseShare, 0.15)
    .option('--resolve-markets <n>', 'the first n open markets reach their end date during the run: closed (open orders cancelled), then resolved (seeded winner)', parseIntOption(0, 10_000), 0)
    .option('--fee-change-after-ms <n>', 'the venue changes the taker fee (GET /fee-rate) of its markets this long after start, ms (with --fee-change-bps; POST /admin/fee-rate changes one at any time)', parseIntOption(0, 2_592_000_000))
    .option('--fee-change-bps <n>', 'the new taker fee of that change, basis points', parseIntOption(0, 10_000))
    .option('--fee-change-markets <n>', 'how many markets the change touches: the first n open ones (default: all)', parseIntOption(1, 100_000))
    .option('--game-starts <n>', "the first n open sports markets' games start during the run: their book cleared (every resting order cancelled), marketable orders held for seconds_delay (3 s)", parseIntOption(0, 10_000), 0)
    .option('--game-start-within-ms <n>', 'their starts fall at seeded times within this long after start, ms', parseIntOption(1, 2_592_000_000), 60_000)
    .option('--new-markets-every <ms>', 'list a new market (seeded, open, with liquidity) every this many ms; 0: only POST /admin/markets/create', parseIntOption(0, 86_400_000), 0)
    .option('--ws-silent', 'fault: WS market connections stay open and answer PING but get no market message (POST /admin/faults {"wsSilent": false} lifts it)', false)
    .option('--ws-max-connections-per-caller <n>', 'WebSocket connections one caller (remote IP address; every bot on this machine is one) may hold on each channel; one more is closed with 1008', parseIntOption(1, 1_000_000), DEFAULT_MAX_CONNECTIONS_PER_CALLER)
    .option('--ws-max-subscriptions-per-caller <n>', `subscriptions one caller may hold over its connections to a channel (market: assets, user: markets); past it, the connection is closed with 1008 (default: twice the world's, at least ${DEFAULT_MAX_SUBSCRIPTIONS_PER_CALLER})`, parseIntOption(1, 100_000_000))
    .option('--ws-user-resend-rate <x>', 'share of the user channel\'s trade messages sent twice, as the venue re-sends, 0..1 (seeded)', parseShare, 0)
    .option('--resolve-within-ms <n>', 'their end dates fall at seeded times within this long after start, ms', parseIntOption(1, 2_592_000_000), 60_000)
    .option('--resolve-after-ms <n>', 'a closed market resolves this long after it closed, ms', parseIntOption(0, 2_592_000_000), 2_000)
    .option('--settle-mined-ms <n>', 'our trades go MINED (or RETRYING) about this long after they match, ms', parseIntOption(0, 600_000), 2_000)
    .option('--settle-confirmed-ms <n>', 'and CONFIRMED (or FAILED) about this long after that, ms', parseIntOption(0, 600_000), 3_000)
    .option('--settle-retry-rate <x>', 'share of our trades that go RETRYING, then CONFIRMED, 0..1 (seeded)', parseShare, 0)
    .option('--settle-fail-rate <x>', 'fault: share of our trades that go RETRYING, then FAILED and are reversed, 0..1 (seeded)', parseShare, 0)
    .option('--matching-delay-ms <n>', "hold every marketable order this long (DELAYED) before it meets the book, ms (default: each market's seconds_delay)", parseIntOption(0, 600_000))
    .option('--clock-skew-ms <n>', "fault: the venue's clock runs this far ahead of ours (negative: behind), ms; GET /time and the auth window follow it (write a negative value as --clock-skew-ms=-5000)", parseIntOption(-86_400_000, 86_400_000), 0)
    .addOption(
      new Option('--server-secret <hex>', `key of the API credentials, 32 to 512 hex digits (default: random at every start, so credentials do not outlive the process)`)
        .env(SERVER_SECRET_ENV)
        .conflicts('deterministicKeys'),
    )
    .option('--deterministic-keys', 'for tests: credentials follow the seed (the same at every start; anyone who knows the seed can compute them)', false)
    .addOption(
      new Option('--admin-token <token>', 'admin routes (/admin/*) need header "authorization: Bearer <token>"; 16 to 256 visible characters').env(ADMIN_TOKEN_ENV),
    )
    .addHelpText(
      'after',
      [
        '',
        'Admin routes (/admin/faults, /admin/stats, /admin/orders, ...) answer loopback callers only, with a loopback',
        'Host header (localhost, 127.x.x.x, [::1]); their POSTs take content-type application/json only (else 415), and',
        'with --admin-token every admin request needs "authorization: Bearer <token>" (else 401).',
      ].join('\n'),
    )
    .action(async (flags: SandboxFlags) => {
      // checked here, not by commander, so a malformed secret is never echoed in the error
      if (flags.serverSecret !== undefined && !/^(?:[0-9a-fA-F]{2}){16,256}$/.test(flags.serverSecret)) {
        throw new UsageError('--server-secret: expected 32 to 512 hex digits, an even number (the value is not shown)');
      }
      if (flags.adminToken !== undefined && !/^[\x21-\x7e]{16,256}$/.test(flags.adminToken)) {
        throw new UsageError('--admin-token: expected 16 to 256 visible ASCII characters without spaces (the value is not shown)');
      }
      const logger = pino({ name: 'clobot-sandbox', level: 'info' }, pino.destination({ dest: 2, sync: true }));
      const sandbox = await startSandbox({
        port: flags.port,
        seed: flags.seed,
        markets: flags.markets,
        events: flags.events,
        profile: flags.profile,
        faults: {
          latencyMs: flags.latencyMs,
          errorRate: flags.errorRate,
          stallMs: flags.stallMs,
          dropAfterAccept: flags.dropAfterAccept,
          mode: flags.mode,
          ignoreHeartbeats: flags.ignoreHeartbeats,
          wsSilent: flags.wsSilent,
          wsUserResendRate: flags.wsUserResendRate,
          clockSkewMs: flags.clockSkewMs,
          settlementMinedMs: flags.settleMinedMs,
          settlementConfirmedMs: flags.settleConfirmedMs,
          settlementRetryRate: flags.settleRetryRate,
          settlementFailRate: flags.settleFailRate,
          ...(flags.matchingDelayMs !== undefined ? { matchingDelayMs: flags.matchingDelayMs } : {}),
        },
        startingBalance: flags.startingBalance,
        heartbeatTimeoutMs: flags.heartbeatTimeoutMs,
        ws: { maxConnectionsPerCaller: flags.wsMaxConnectionsPerCaller, maxSubscriptionsPerCaller: flags.wsMaxSubscriptionsPerCaller },
        flow: { enabled: flags.flow, intensity: flags.flowIntensity, actionsPerSecond: flags.flowActionsPerSecond },
        rewards: { sampleMs: flags.rewardSampleMs },
        episodes: { ratePerHour: flags.negRiskEpisodes, withdrawLegShare: flags.withdrawLegShare },
        leaders: { ratePerHour: flags.leaderEpisodes },
        nearEnd: { ratePerHour: flags.nearEndEpisodes, withinMs: flags.nearEndWithinMs, breakdownShare: flags.nearEndBreakdownShare },
        resolution: { markets: flags.resolveMarkets, withinMs: flags.resolveWithinMs, resolveAfterMs: flags.resolveAfterMs },
        newMarkets: { everyMs: flags.newMarketsEvery },
        feeChange: {
          ...(flags.feeChangeAfterMs !== undefined ? { afterMs: flags.feeChangeAfterMs } : {}),
          ...(flags.feeChangeBps !== undefined ? { takerBps: flags.feeChangeBps } : {}),
          ...(flags.feeChangeMarkets !== undefined ? { markets: flags.feeChangeMarkets } : {}),
        },
        gameStarts: { markets: flags.gameStarts, withinMs: flags.gameStartWithinMs },
        serverSecret: flags.serverSecret,
        deterministicKeys: flags.deterministicKeys,
        adminToken: flags.adminToken,
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

/** A rate per hour: a decimal >= 0 up to 3600, e.g. `2` or `0.5`. */
function parseRate(value: string): number {
  const n = /^\d+(\.\d+)?$|^\.\d+$/.test(value) ? Number(value) : NaN;
  if (!(n >= 0 && n <= 3600)) throw new InvalidArgumentError(`expected a number in [0, 3600], got '${value}'`);
  return n;
}

/** A flow intensity: a positive decimal up to MAX_FLOW_INTENSITY, e.g. `0.5` or `4`. */
function parseIntensity(value: string): number {
  const n = /^\d+(\.\d+)?$|^\.\d+$/.test(value) ? Number(value) : NaN;
  if (!(n > 0 && n <= MAX_FLOW_INTENSITY)) throw new InvalidArgumentError(`expected a number in (0, ${MAX_FLOW_INTENSITY}], got '${value}'`);
  return n;
}
