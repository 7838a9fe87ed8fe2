import type { IncomingHttpHeaders } from 'node:http';
import { asyncScheduler } from 'rxjs';
import type { Clock } from '../../../src/core/clock.ts';
import { Secret } from '../../../src/core/secret.ts';
import { apiCredentials } from '../../../src/venue/auth/api-credentials.ts';
import { createVenueClient, type VenueClient, type VenueProfile } from '../../../src/venue/client.ts';
import type { OrderParams } from '../../../src/venue/signing/order-builder.ts';
import { createOrderSigner, type OrderSigner } from '../../../src/venue/signing/order-signer.ts';
import { authHeaderPrefix } from '../../../src/venue/signing/profile.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { privateKeyBytes } from '../../../src/venue/signing/private-key.ts';

/** The vectors' throwaway key (0x11…11) and its address. */
export const KEY = '0x1111111111111111111111111111111111111111111111111111111111111111';
export const ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
/** A second throwaway key, for "wrong key" cases. */
export const OTHER_KEY = '0x2222222222222222222222222222222222222222222222222222222222222222';

export const API_KEY = 'f4f247b7-4ac7-ff29-a152-04fda0a8755a';
/** 32 bytes, base64url. */
export const API_SECRET = 'CzBVep_E6Q4zWH2ix-wRNluApcrvFDleg6jN8hc8YYY=';
export const API_PASSPHRASE = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
export const CREDS = apiCredentials(API_KEY, API_SECRET, API_PASSPHRASE);

/** 2026-01-01T00:00:00Z; a fixed clock so header timestamps are known. */
export const T0 = 1_767_225_600_000;

/** A clock standing still at `ms` (real scheduler: nothing in these tests waits on it). */
export function fixedClock(ms: number = T0): Clock {
  return { now: () => ms, scheduler: asyncScheduler };
}

export const CONDITION = '0x' + 'ab'.repeat(32);
export const TOKEN = '71321045679252212594626385532706912750332728571942532289631379312455583992563';

export function venue(url: string, profile: VenueProfile = 'interface', extra: { timeoutMs?: number; clock?: Clock; retries?: number } = {}): VenueClient {
  return createVenueClient({ baseUrl: url, profile, clock: extra.clock ?? fixedClock(), timeoutMs: extra.timeoutMs, retries: extra.retries ?? 0 });
}

export function signer(profile: VenueProfile = 'interface', key = KEY): OrderSigner {
  return createOrderSigner({ privateKey: new Secret(key), signerAddress: addressOf(key), signatureType: 0 }, { profile });
}

export function addressOf(key: string): string {
  return privateKeyToAddress(privateKeyBytes(new Secret(key)));
}

/** Order parameters: a BUY of 10 at 0.52 on the 0.01 tick unless overridden. */
export function orderParams(i: number, over: Partial<OrderParams> = {}): OrderParams {
  return {
    tokenId: TOKEN,
    conditionId: CONDITION,
    price: 520_000,
    size: 10_000_000,
    side: 'BUY',
    tick: 10_000,
    negRisk: false,
    orderType: 'GTC',
    salt: 1000 + i,
    timestamp: T0,
    clientOrderId: `t-${i}`,
    ...over,
  };
}

/** The value of an auth header as received (Node lower-cases names). */
export function authHeader(headers: IncomingHttpHeaders, profile: VenueProfile, name: string): string | undefined {
  const v = headers[`${authHeaderPrefix(profile)}_${name}`.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/** Names of the auth headers present (upper case, as the interface spells them). */
export function authHeaderNames(headers: IncomingHttpHeaders): string[] {
  return Object.keys(headers)
    .filter((k) => k.startsWith('service_') || k.startsWith('poly_'))
    .map((k) => k.toUpperCase())
    .sort();
}
