import type { Logger } from 'pino';
import { firstValueFrom } from 'rxjs';
import { AuthError } from '../core/errors.ts';
import type { LiveRunConfig, SecretEnvNames } from '../config/run-config.ts';
import type { Micros } from '../core/fixed.ts';
import type { TokenId } from '../core/types.ts';
import type { AccountReading, AccountSource } from '../engine/ports.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import { getBalanceAllowance } from '../venue/actions/get-balance-allowance.ts';
import { getRewardPercentages } from '../venue/actions/get-reward-percentages.ts';
import { getAllPositions } from '../venue/actions/get-positions.ts';
import { withL2Auth } from '../venue/auth/with-l2-auth.ts';
import type { ApiCredentials } from '../venue/auth/api-credentials.ts';
import { LiveExecutionClient, type LiveExecutionOptions } from '../execution/live-execution-client.ts';
import { userChannelUrl } from '../execution/live/user-channel.ts';
import { getOrCreateApiKey } from '../venue/actions/get-or-create-api-key.ts';
import { apiCredentials } from '../venue/auth/api-credentials.ts';
import { withL1Auth } from '../venue/auth/with-l1-auth.ts';
import type { VenueClient } from '../venue/client.ts';
import { createOrderSigner } from '../venue/signing/order-signer.ts';
import type { ExecutionEdge } from './execution-edge.ts';
import { collectLiveEdge } from './run-metrics.ts';

/**
 * Live: signed orders to the venue with L2 auth; credentials derived when the config has none.
 * `engine` gives the engine once built (the client asks it for a token's market rules). The
 * credentials are tried once (the account's open orders) before anything is sent: a 401 is an
 * AuthError naming the credential the venue refused, never its value.
 */
export async function liveEdge(
  config: LiveRunConfig,
  venue: VenueClient,
  logger: Logger,
  fillsSinceMs: number | undefined,
  engine: () => TradingEngine | undefined,
): Promise<ExecutionEdge> {
  const account = config.account;
  const venueConfig = config.venue;
  const l1 = withL1Auth(venue, { privateKey: account.privateKey, address: account.address, chainId: venueConfig.chainId });
  const given = account.apiCredentials;
  const credentials = given
    ? apiCredentials(given.apiKey.reveal(), given.secret.reveal(), given.passphrase.reveal())
    : await getOrCreateApiKey(l1, { privateKey: account.privateKey, address: account.address, chainId: venueConfig.chainId });
  const signer = createOrderSigner(
    { privateKey: account.privateKey, signerAddress: account.address, maker: account.funder, signatureType: account.signatureType },
    {
      profile: venueConfig.profile,
      chainId: venueConfig.chainId,
      exchanges: { standard: venueConfig.contracts.exchange, negRisk: venueConfig.contracts.negRiskExchange },
      signingHelpers: config.execution.signing.helpers,
      helperSpinMs: config.execution.signing.spinMs,
    },
  );
  const execution = new LiveExecutionClient({
    venue,
    credentials,
    signer,
    markets: (tokenId) => {
      const state = engine()?.cache.get(tokenId);
      if (!state) return undefined;
      return { conditionId: state.token.conditionId, tickSize: state.rules.tickSize, negRisk: state.rules.negRisk };
    },
    logger: logger.child({ component: 'execution' }),
    // after a restart, fills are asked for from the newest one stored (minus the poller's margin)
    fills: fillsSinceMs !== undefined ? { sinceMs: fillsSinceMs } : undefined,
    userChannel: userChannelOf(config, venue),
  });
  try {
    await firstValueFrom(execution.openOrders());
  } catch (err) {
    execution.close();
    signer.close();
    if (err instanceof AuthError) throw refusedCredential(err, given !== undefined, account.env);
    throw err;
  }
  return {
    execution,
    close: () => signer.close(),
    account: venueAccount(venue, credentials, account, engine),
    // our share of each reward market as the venue computes it, for the funder's wallet
    rewardShares: rewardSharesOf(venue, credentials, account),
    collect: (m) => collectLiveEdge(m, execution.counters, signer.signingCounters),
    userMessages$: execution.userMessages$,
  };
}

/** The user channel's settings of a live run (undefined when it is off): its URL given, or beside the trading routes. */
function userChannelOf(config: LiveRunConfig, venue: VenueClient): LiveExecutionOptions['userChannel'] {
  const channel = config.execution.userChannel;
  if (!channel.enabled) return undefined;
  return { url: channel.url ?? userChannelUrl(venue.urls.trading), auditPollMs: channel.auditPollMs };
}

/**
 * The account at the venue: the collateral of the funder (`GET /balance-allowance`, L2, with the
 * account's signature type) and the funder's positions (`GET /positions?user=`, every page). A
 * position's `asset` is a token id, or `<condition_id>:<outcome_index>` (the interface's
 * analytics form), resolved through the engine's tracked markets; one of a market the run does
 * not track keeps its asset text (it is reported, and never traded: the run has no book of it).
 */
function venueAccount(
  venue: VenueClient,
  credentials: ApiCredentials,
  account: LiveRunConfig['account'],
  engine: () => TradingEngine | undefined,
): AccountSource {
  const l2 = withL2Auth(venue, { address: account.address, credentials });
  return {
    async read(): Promise<AccountReading> {
      const [collateral, listed] = await Promise.all([
        getBalanceAllowance(l2, { assetType: 'COLLATERAL', signatureType: account.signatureType }),
        getAllPositions(venue, account.funder),
      ]);
      const byOutcome = new Map<string, TokenId>();
      const cache = engine()?.cache;
      if (cache) {
        for (const tokenId of cache.tokenIds()) {
          const token = cache.get(tokenId)?.token;
          if (token) byOutcome.set(`${token.conditionId.toLowerCase()}:${token.outcomeIndex}`, tokenId);
        }
      }
      const positions = new Map<TokenId, Micros>();
      for (const p of listed) {
        const tokenId = p.asset.includes(':') ? (byOutcome.get(p.asset.toLowerCase()) ?? p.asset) : p.asset;
        positions.set(tokenId, (positions.get(tokenId) ?? 0) + p.size);
      }
      return { cash: collateral.balance, positions };
    },
  };
}

/**
 * The venue's figure of our liquidity-reward share (docs/rewards.md "Our accrual"): one read of
 * `GET /rewards/user/percentages` for every market, for the wallet our orders are made by (the
 * account's signature type). A read that answers after the next sample instant is not taken
 * (src/engine/reward-accrual.ts); one that hangs gives up after a few seconds.
 */
function rewardSharesOf(venue: VenueClient, credentials: ApiCredentials, account: LiveRunConfig['account']) {
  const l2 = withL2Auth(venue, { address: account.address, credentials });
  return () => getRewardPercentages(l2, { signatureType: account.signatureType }, { timeoutMs: REWARD_SHARE_TIMEOUT_MS });
}

/** How long a read of our reward share may take before the sample takes the model's. */
const REWARD_SHARE_TIMEOUT_MS = 5_000;

/** The venue's 401 turned into which credential to check (by its variable name, never its value). */
export function refusedCredential(err: AuthError, given: boolean, env: SecretEnvNames): AuthError {
  const text = err.message;
  let which: string;
  if (!given) which = `the API credentials derived from the private key (${env.privateKey})`;
  else if (/unknown API key|does not belong/i.test(text)) which = `the API key (${env.apiKey})`;
  else if (/PASSPHRASE/i.test(text)) which = `the API passphrase (${env.apiPassphrase})`;
  else if (/HMAC|SIGNATURE/i.test(text)) which = `the API secret (${env.apiSecret})`;
  else if (/TIMESTAMP/i.test(text)) which = 'the request timestamp (is this clock right?)';
  else which = `the API credentials (${env.apiKey}, ${env.apiSecret}, ${env.apiPassphrase})`;
  return new AuthError(`the venue refused ${which}: ${text}`, { cause: err });
}
