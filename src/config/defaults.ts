import type { Address, SecretEnvNames } from './run-config.ts';

/**
 * Defaults of the run configuration that other code may want to name. Everything else defaults
 * inline in the schema (src/config/schema.ts), next to the key it belongs to.
 */

/** Environment variables the secrets are read from unless `account.*Env` names others. */
export const DEFAULT_SECRET_ENV: SecretEnvNames = Object.freeze({
  privateKey: 'CLOBOT_PRIVATE_KEY',
  apiKey: 'CLOBOT_API_KEY',
  apiSecret: 'CLOBOT_API_SECRET',
  apiPassphrase: 'CLOBOT_API_PASSPHRASE',
});

/** PROTOCOL "Orders": the exchange contracts, used as the EIP-712 verifying contract. */
export const DEFAULT_EXCHANGE: Address = '0xE111180000d2663C0091e4f400237545B87B996B';
export const DEFAULT_NEG_RISK_EXCHANGE: Address = '0xe2222d279d744050d28e00520010520000310F59';

/** Polygon; the chain id of both EIP-712 domains (PROTOCOL "L1 key derivation", "Orders"). */
export const DEFAULT_CHAIN_ID = 137;

/** The venue cancels every open order after 10 s without a valid heartbeat (PROTOCOL "Heartbeats"). */
export const VENUE_HEARTBEAT_DEADLINE_MS = 10_000;
