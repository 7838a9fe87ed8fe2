import { AuthError, VenueRejectError } from '../../core/errors.ts';
import { formatMicros } from '../../core/fixed.ts';
import type { LiveRunConfig } from '../../config/run-config.ts';
import type { MarketSelection } from '../../data/market-selection.ts';
import type { TradingMarket } from '../../venue/domain/trading.ts';
import { getAccountOrders } from '../../venue/actions/get-account-orders.ts';
import { getBalanceAllowance } from '../../venue/actions/get-balance-allowance.ts';
import { getMarketBySlug } from '../../venue/actions/get-market-by-slug.ts';
import { getOk } from '../../venue/actions/get-ok.ts';
import { getOrCreateApiKey } from '../../venue/actions/get-or-create-api-key.ts';
import { getOrderBook } from '../../venue/actions/get-order-book.ts';
import { getServerTime } from '../../venue/actions/get-server-time.ts';
import { getTradingMarket } from '../../venue/actions/get-trading-market.ts';
import { postHeartbeat } from '../../venue/actions/post-heartbeat.ts';
import { apiCredentials, type ApiCredentials } from '../../venue/auth/api-credentials.ts';
import { withL1Auth } from '../../venue/auth/with-l1-auth.ts';
import { withL2Auth } from '../../venue/auth/with-l2-auth.ts';
import type { VenueClient } from '../../venue/client.ts';
import { resolveMarkets } from '../../data/market-selection.ts';
import { refusedCredential } from '../live-edge.ts';
import { fail, ok, reasonOf, skip, warn, type DoctorLine } from './doctor-line.ts';

/** A clock this far off the venue's is worth a warning (GTD expirations, auth timestamps), ms. */
export const CLOCK_WARN_MS = 2_000;
/** This far off, signed requests risk being refused as stale or early, ms. */
export const CLOCK_FAIL_MS = 10_000;

/** The venue answers at all (`GET /`), with the round trip. */
export async function checkVenue(venue: VenueClient, url: string): Promise<DoctorLine> {
  const started = performance.now();
  try {
    await getOk(venue);
    const ms = performance.now() - started;
    return ok('venue', `${url} answers (${ms.toFixed(0)} ms)`, { roundTripMs: round(ms) });
  } catch (err) {
    return fail('venue', `${url} does not answer: ${reasonOf(err)}`);
  }
}

/**
 * Our clock against the venue's (`GET /time`, whole seconds): the skew is the venue's time less
 * the middle of our request, so it is known to about a second plus half the round trip.
 */
export async function checkClock(venue: VenueClient): Promise<DoctorLine> {
  const sent = Date.now();
  let serverMs: number;
  let received: number;
  try {
    const time = await getServerTime(venue);
    serverMs = time.serverTimeMs;
    received = Date.now();
  } catch (err) {
    return fail('clock', `GET /time failed: ${reasonOf(err)}`);
  }
  // the venue's second is [serverMs, serverMs + 1000): its middle against the middle of our request
  const skewMs = serverMs + 500 - (sent + received) / 2;
  const text = `${skewMs >= 0 ? 'venue ahead by' : 'venue behind by'} ${(Math.abs(skewMs) / 1000).toFixed(1)} s (±${((received - sent) / 2000 + 0.5).toFixed(1)} s)`;
  const figures = { skewMs: Math.round(skewMs), roundTripMs: received - sent };
  if (Math.abs(skewMs) > CLOCK_FAIL_MS) return fail('clock', `${text}: signed requests carry our clock and will be refused; set the system clock (NTP)`, figures);
  if (Math.abs(skewMs) > CLOCK_WARN_MS) return warn('clock', `${text}: check NTP (GTD expirations and auth timestamps use our clock)`, figures);
  return ok('clock', text, figures);
}

/** What the credential checks leave for the later ones. */
export interface AccountAccess {
  readonly l2: VenueClient;
  readonly openOrders: number;
}

/**
 * The credentials: derived with an L1 signature when the config gives none (created when the
 * venue has none), then one L2 call (the first page of our open orders). A refusal names the
 * credential by its environment variable, never its value.
 */
export async function checkCredentials(venue: VenueClient, config: LiveRunConfig): Promise<{ line: DoctorLine; access?: AccountAccess }> {
  const account = config.account;
  const given = account.apiCredentials;
  let credentials: ApiCredentials;
  let how: string;
  try {
    if (given) {
      credentials = apiCredentials(given.apiKey.reveal(), given.secret.reveal(), given.passphrase.reveal());
      how = `given (${account.env.apiKey})`;
    } else {
      const auth = { privateKey: account.privateKey, address: account.address, chainId: config.venue.chainId };
      credentials = await getOrCreateApiKey(withL1Auth(venue, auth), auth);
      how = 'derived with an L1 signature';
    }
  } catch (err) {
    const why = err instanceof AuthError ? refusedCredential(err, false, account.env).message : reasonOf(err);
    return { line: fail('credentials', `L1: ${why}`) };
  }
  const l2 = withL2Auth(venue, { address: account.address, credentials });
  try {
    const page = await getAccountOrders(l2);
    const more = page.done ? '' : '+';
    return {
      line: ok('credentials', `API key ${how}; an L2 call answered (${page.items.length}${more} open order(s) of ours)`, { openOrders: page.items.length }),
      access: { l2, openOrders: page.items.length },
    };
  } catch (err) {
    const why = err instanceof AuthError ? refusedCredential(err, given !== undefined, account.env).message : reasonOf(err);
    return { line: fail('credentials', `L2: ${why}`) };
  }
}

/** The funder's collateral and the exchanges' allowances of it (`GET /balance-allowance`). */
export async function checkBalance(access: AccountAccess, config: LiveRunConfig): Promise<DoctorLine> {
  const account = config.account;
  try {
    const ba = await getBalanceAllowance(access.l2, { assetType: 'COLLATERAL', signatureType: account.signatureType });
    const allowances = Object.values(ba.allowances);
    const balance = formatMicros(ba.balance);
    const figures = { balance, allowances: allowances.length };
    if (ba.balance <= 0) return warn('balance', `the funder ${account.funder} holds no collateral: nothing can be bought`, figures);
    // allowances are in the collateral's base units, as the balance (6 decimals)
    const short = allowances.filter((a) => a < BigInt(ba.balance));
    if (allowances.length === 0 || short.length === allowances.length) {
      return warn('balance', `${balance} collateral, but no exchange may spend all of it (allowance below the balance): set the allowances`, figures);
    }
    return ok('balance', `${balance} collateral at ${account.funder} (signatureType ${account.signatureType}), allowance set`, figures);
  } catch (err) {
    return fail('balance', `GET /balance-allowance failed: ${reasonOf(err)}`);
  }
}

/**
 * A heartbeat round trip (`POST /heartbeats`). A beat arms the venue's dead-man deadline: if no
 * other beat follows within ~10 s, the venue cancels every open order of the key. So with
 * orders of ours open (a bot running, or orders kept on stop) it is sent only when asked.
 */
export async function checkHeartbeat(access: AccountAccess, force: boolean): Promise<DoctorLine> {
  if (access.openOrders > 0 && !force) {
    return skip('heartbeat', `not sent: ${access.openOrders} order(s) of ours are open, and a lone beat would have the venue cancel them ~10 s later unless a run keeps beating (--heartbeat sends it anyway)`);
  }
  const started = performance.now();
  try {
    await postHeartbeat(access.l2);
    const ms = performance.now() - started;
    return ok('heartbeat', `answered in ${ms.toFixed(0)} ms`, { roundTripMs: round(ms) });
  } catch (err) {
    return fail('heartbeat', `POST /heartbeats failed: ${reasonOf(err)}`);
  }
}

/**
 * Every market the config names exists and accepts orders: each token id, condition id and
 * slug on its own, so a failure names the entry and where it is written; a filter must match
 * at least one market.
 */
export async function checkMarkets(venue: VenueClient, selections: readonly NamedSelection[], live: boolean): Promise<DoctorLine> {
  const problems: string[] = [];
  const closed: string[] = [];
  const seen = new Set<string>();
  let markets = 0;
  const note = (conditionId: string, accepting: boolean, name: string) => {
    if (seen.has(conditionId)) return;
    seen.add(conditionId);
    markets++;
    if (!accepting) closed.push(name);
  };
  for (const { where, selection } of selections) {
    // each named entry on its own, so a failure names it: [key, values, how to find its market, how to quote it]
    const named: [string, readonly string[], (value: string) => Promise<TradingMarket>, (value: string) => string][] = [
      ['tokenIds', selection.tokenIds, async (id) => getTradingMarket(venue, (await getOrderBook(venue, id)).conditionId), (id) => `token ${id}`],
      ['conditionIds', selection.conditionIds, (id) => getTradingMarket(venue, id), (id) => `condition ${id}`],
      ['slugs', selection.slugs, async (slug) => getTradingMarket(venue, (await getMarketBySlug(venue, slug)).conditionId), (slug) => `'${slug}'`],
    ];
    for (const [key, values, find, quote] of named) {
      for (const value of values) {
        try {
          const market = await find(value);
          note(market.conditionId, market.acceptingOrders, quote(value));
        } catch (err) {
          problems.push(`${where}.${key}: ${quote(value)} ${notFound(err)}`);
        }
      }
    }
    if (selection.filter) {
      try {
        const found = await resolveMarkets(venue, { tokenIds: [], conditionIds: [], slugs: [], filter: selection.filter });
        for (const m of found) note(m.conditionId, m.acceptingOrders, m.marketSlug);
      } catch (err) {
        problems.push(`${where}.filter: ${reasonOf(err)}`);
      }
    }
  }
  if (problems.length > 0) return fail('markets', problems.join('; '));
  if (closed.length > 0) {
    const text = `${closed.length} of ${markets} market(s) not accepting orders: ${closed.slice(0, 5).join(', ')}${closed.length > 5 ? ', …' : ''}`;
    return live ? fail('markets', text) : warn('markets', text);
  }
  return ok('markets', `${markets} market(s) found, all accepting orders`, { markets });
}

/** A selection and where the config writes it (`data.markets`, `strategies.mm.markets`). */
export interface NamedSelection {
  readonly where: string;
  readonly selection: MarketSelection;
}

function notFound(err: unknown): string {
  if (err instanceof VenueRejectError && err.status === 404) return 'is not a market of the venue (404)';
  return `could not be read: ${reasonOf(err)}`;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
