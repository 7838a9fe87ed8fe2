import type { Logger } from 'pino';
import type { LiveRunConfig } from '../config/run-config.ts';
import type { TradingEngine } from '../engine/trading-engine.ts';
import { LiveExecutionClient } from '../execution/live-execution-client.ts';
import { getOrCreateApiKey } from '../venue/actions/get-or-create-api-key.ts';
import { apiCredentials } from '../venue/auth/api-credentials.ts';
import { withL1Auth } from '../venue/auth/with-l1-auth.ts';
import type { VenueClient } from '../venue/client.ts';
import { createOrderSigner } from '../venue/signing/order-signer.ts';
import type { ExecutionEdge } from './execution-edge.ts';

/**
 * Live: signed orders to the venue with L2 auth; credentials derived when the config has none.
 * `engine` gives the engine once built (the client asks it for a token's market rules).
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
  });
  return { execution, close: () => signer.close() };
}
