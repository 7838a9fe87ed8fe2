import type { Logger } from 'pino';
import { LiveClock } from '../../core/clock.ts';
import type { RunConfig } from '../../config/run-config.ts';
import { openVenue, type OpenedVenue } from '../open-venue.ts';
import { doctorReport, ok, reasonOf, skip, warn, fail, type DoctorLine, type DoctorReport } from './doctor-line.ts';
import { checkRateBudget, checkSigning, checkStore } from './local-checks.ts';
import { checkBalance, checkClock, checkCredentials, checkHeartbeat, checkMarkets, checkVenue, type NamedSelection } from './venue-checks.ts';

export interface DoctorOptions {
  readonly config: RunConfig;
  /** `--venue`: the venue whatever the config says. */
  readonly venueUrl: string | undefined;
  readonly logger: Logger;
  /** Send the heartbeat even with orders of ours open (see checkHeartbeat). */
  readonly heartbeat: boolean;
}

/**
 * `clobot doctor`: every check a run's first minutes would make, made now and reported one line
 * each (config, venue, clock, signing, credentials, balance, heartbeat, markets, rate budget,
 * store). A check that cannot be made because an earlier one failed is skipped with that
 * reason. Nothing is traded; the only writes are an API key created when the venue has none
 * (as a run would) and a heartbeat when safe.
 */
export async function runDoctor(options: DoctorOptions): Promise<DoctorReport> {
  const { config } = options;
  const lines: DoctorLine[] = [configLine(config)];
  if (config.mode === 'backtest') {
    lines.push(skip('venue', 'a backtest replays recorded data: no venue, account or markets to check'));
    lines.push(checkStore(config));
    return doctorReport(lines);
  }
  let opened: OpenedVenue;
  try {
    opened = await openVenue(config, options.venueUrl, options.logger, new LiveClock());
  } catch (err) {
    lines.push(fail('venue', reasonOf(err)));
    lines.push(checkStore(config));
    return doctorReport(lines);
  }
  try {
    const { venue, url } = opened;
    const reached = await checkVenue(venue, opened.sandbox ? `${url} (the embedded sandbox)` : url);
    lines.push(reached);
    if (reached.status === 'fail') {
      for (const check of ['clock', 'signing', 'credentials', 'balance', 'heartbeat', 'markets']) lines.push(skip(check, 'the venue does not answer'));
    } else {
      lines.push(await checkClock(venue));
      if (config.mode === 'live') {
        lines.push(checkSigning(config));
        const credentials = await checkCredentials(venue, config);
        lines.push(credentials.line);
        if (credentials.access) {
          lines.push(await checkBalance(credentials.access, config));
          lines.push(await checkHeartbeat(credentials.access, options.heartbeat));
        } else {
          lines.push(skip('balance', 'no working credentials'), skip('heartbeat', 'no working credentials'));
        }
      } else {
        lines.push(skip('credentials', 'paper: orders are simulated, nothing is signed for the venue'));
      }
      const markets = await checkMarkets(venue, selectionsOf(config), config.mode === 'live');
      lines.push(markets);
      const tokens = typeof markets.figures?.['markets'] === 'number' ? markets.figures['markets'] * 2 : 0;
      lines.push(checkRateBudget(config, tokens));
    }
    lines.push(checkStore(config, opened.sandbox !== undefined));
  } finally {
    await opened.sandbox?.close();
    opened.sharedBudget?.close();
  }
  return doctorReport(lines);
}

function configLine(config: RunConfig): DoctorLine {
  const enabled = config.strategies.filter((s) => s.enabled).length;
  const text = `${config.source.file}: ${config.mode}, ${enabled} strategy(ies) enabled`;
  const warnings = config.source.warnings;
  if (warnings.length > 0) return warn('config', `${text}; ${warnings.join('; ')}`);
  return ok('config', text);
}

/** Each distinct market selection of the config with where it is written. */
function selectionsOf(config: RunConfig): NamedSelection[] {
  const out: NamedSelection[] = [];
  const seen = new Set<unknown>();
  if (config.data.markets) {
    out.push({ where: 'data.markets', selection: config.data.markets });
    seen.add(config.data.markets);
  }
  for (const s of config.strategies) {
    if (!s.enabled || s.marketsFrom === 'data' || seen.has(s.markets)) continue;
    seen.add(s.markets);
    out.push({ where: `strategies.${s.id}.markets`, selection: s.markets });
  }
  return out;
}
