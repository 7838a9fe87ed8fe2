import type { Clock } from '../../../src/core/clock.ts';
import { MICROS_PER_UNIT, type Micros } from '../../../src/core/fixed.ts';
import { Secret } from '../../../src/core/secret.ts';
import type { Side } from '../../../src/core/types.ts';
import type { SandboxProfile } from '../../../src/sandbox/profile.ts';
import type { RunningSandbox } from '../../../src/sandbox/server.ts';
import type { SandboxMarket } from '../../../src/sandbox/world/model.ts';
import { privateKeyToAddress } from '../../../src/venue/signing/address.ts';
import { buildL1Headers } from '../../../src/venue/signing/clob-auth.ts';
import { createL2Signer, type ApiCredentials } from '../../../src/venue/signing/l2-auth.ts';
import { createOrderSigner, type OrderSigner, type SignedOrder } from '../../../src/venue/signing/order-signer.ts';
import { hexToBytes } from '../../../src/venue/signing/hex.ts';
import type { WireOrderSubmission } from '../../../src/venue/wire/account.ts';
import type { OrderType } from '../../../src/core/types.ts';
import { sandboxWalletAddress, type WalletKind } from '../../../src/sandbox/trading/wallets.ts';

const WALLET_SIGNATURE_TYPE: Readonly<Record<WalletKind, 1 | 2 | 3>> = { proxy: 1, safe: 2, deposit: 3 };

/**
 * Test traders for the sandbox's trading routes: plain fetch, real ClobAuth and order
 * signatures, real L2 HMACs from the signing module. Nothing here goes through the venue client.
 */

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function send<T = any>(url: string, method: string, headers: Record<string, string>, bodyText?: string): Promise<Answer<T>> {
  const init: RequestInit = { method, headers: { ...headers, ...(bodyText === undefined ? {} : { 'content-type': 'application/json' }) } };
  if (bodyText !== undefined) init.body = bodyText;
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/** A deterministic test private key. */
export function testKey(n: number): string {
  return '0x' + n.toString(16).padStart(2, '0').repeat(32);
}

export interface OrderSpec {
  readonly market: SandboxMarket;
  /** 0 YES, 1 NO. */
  readonly outcome?: 0 | 1;
  readonly side: Side;
  /** Units, e.g. 0.45. Converted exactly through micros. */
  readonly price: number;
  readonly size: number;
  readonly orderType?: OrderType;
  readonly postOnly?: boolean;
  readonly clientOrderId?: string;
  readonly expiration?: number;
  /** Override the tick used to build the amounts (for off-tick orders). */
  readonly tick?: Micros;
  /** Override the exchange the order is signed for (default: the market's). */
  readonly negRisk?: boolean;
}

const micros = (units: number): Micros => Math.round(units * MICROS_PER_UNIT);

export class TestTrader {
  readonly address: string;
  readonly privateKey: string;
  credentials: { apiKey: string; secret: string; passphrase: string } | undefined;
  readonly signer: OrderSigner;
  #salt = 1;

  constructor(
    readonly url: string,
    readonly profile: SandboxProfile,
    readonly clock: Clock,
    keyNumber: number,
    /** `wallet`: trade through the key's own sandbox wallet of that kind (type 1, 2 or 3, trading/wallets.ts). */
    options: { signatureType?: 0 | 1 | 2 | 3; maker?: string; wallet?: WalletKind } = {},
  ) {
    this.privateKey = testKey(keyNumber);
    this.address = privateKeyToAddress(hexToBytes(this.privateKey, 32) as Uint8Array);
    const signatureType = options.wallet === undefined ? (options.signatureType ?? 0) : WALLET_SIGNATURE_TYPE[options.wallet];
    const maker = options.wallet === undefined ? options.maker : sandboxWalletAddress(this.address, options.wallet);
    this.signer = createOrderSigner({ privateKey: new Secret(this.privateKey), signerAddress: this.address, signatureType, maker }, { profile });
  }

  get apiKey(): string {
    return this.creds.apiKey;
  }

  get creds(): { apiKey: string; secret: string; passphrase: string } {
    if (!this.credentials) throw new Error('no credentials yet: call login()');
    return this.credentials;
  }

  /** The four L1 headers at the clock's time (plus `skewSec`). */
  l1Headers(nonce = 0, skewSec = 0): Record<string, string> {
    return buildL1Headers({
      privateKey: new Secret(this.privateKey),
      address: this.address,
      timestampSec: Math.floor(this.clock.now() / 1000) + skewSec,
      nonce,
      profile: this.profile,
    });
  }

  async createKey(nonce = 0): Promise<Answer> {
    return send(`${this.url}/auth/api-key`, 'POST', this.l1Headers(nonce));
  }

  async deriveKey(nonce = 0): Promise<Answer> {
    return send(`${this.url}/auth/derive-api-key`, 'GET', this.l1Headers(nonce));
  }

  async login(nonce = 0): Promise<this> {
    const answer = await this.createKey(nonce);
    if (answer.status !== 200) throw new Error(`login failed: ${answer.status} ${answer.text}`);
    this.credentials = answer.body;
    return this;
  }

  /** The five L2 headers for a request (path without query and mount prefix). */
  l2Headers(method: string, path: string, bodyText: string | undefined, skewSec = 0): Record<string, string> {
    const creds: ApiCredentials = { apiKey: this.creds.apiKey, secret: new Secret(this.creds.secret), passphrase: new Secret(this.creds.passphrase) };
    return createL2Signer(this.address, creds, this.profile).headers(method, path, bodyText, Math.floor(this.clock.now() / 1000) + skewSec);
  }

  /** An L2-signed request; `mount` is the URL prefix (e.g. '/clob'), not signed. */
  async l2<T = any>(method: string, pathAndQuery: string, body?: unknown, options: { mount?: string; tamper?: (h: Record<string, string>) => void } = {}): Promise<Answer<T>> {
    const bodyText = body === undefined ? undefined : JSON.stringify(body);
    const path = pathAndQuery.split('?')[0] as string;
    const headers = this.l2Headers(method, path, bodyText);
    options.tamper?.(headers);
    return send<T>(`${this.url}${options.mount ?? ''}${pathAndQuery}`, method, headers, bodyText);
  }

  sign(spec: OrderSpec): SignedOrder {
    const token = spec.market.tokens[spec.outcome ?? 0];
    return this.signer.sign({
      tokenId: token.tokenId,
      conditionId: this.profile === 'interface' ? spec.market.conditionId : undefined,
      price: micros(spec.price),
      size: micros(spec.size),
      side: spec.side,
      tick: spec.tick ?? spec.market.tickSize,
      negRisk: spec.negRisk ?? spec.market.negRisk,
      orderType: spec.orderType ?? 'GTC',
      expiration: spec.expiration,
      postOnly: spec.postOnly,
      clientOrderId: spec.clientOrderId,
      salt: this.#salt++,
      timestamp: this.clock.now(),
    });
  }

  item(signed: SignedOrder, owner = this.apiKey): WireOrderSubmission {
    const item: WireOrderSubmission = { order: signed.order, orderType: signed.orderType, owner };
    if (signed.postOnly) item.postOnly = true;
    return item;
  }

  async post(...specs: OrderSpec[]): Promise<Answer<any[]>> {
    return this.l2('POST', '/orders', specs.map((s) => this.item(this.sign(s))));
  }
}

/** Open markets the tests trade in: binary, accepting orders, the given tick. */
export function openMarkets(sb: RunningSandbox, filter: (m: SandboxMarket) => boolean = () => true): SandboxMarket[] {
  return sb.world.markets.filter((m) => m.acceptingOrders && !m.closed && m.enableOrderBook && filter(m));
}

/**
 * A market to trade in: open, the given neg-risk flag and tick, no fees, and at least
 * `minSpreadTicks` ticks between the seeded best bid and ask (room to rest inside the spread).
 */
export function pickMarket(sb: RunningSandbox, options: { negRisk?: boolean; tick?: Micros; minSpreadTicks?: number; skip?: number } = {}): SandboxMarket {
  const found = openMarkets(
    sb,
    (m) =>
      m.negRisk === (options.negRisk ?? false) &&
      m.tickSize === (options.tick ?? 10_000) &&
      m.makerBaseFee === 0 &&
      m.takerBaseFee === 0 &&
      (() => {
        const t = top(sb, m);
        return t.ask - t.bid >= (options.minSpreadTicks ?? 1) * m.tickSize && t.bid >= 100_000 && t.ask <= 900_000;
      })(),
  )[options.skip ?? 0];
  if (!found) throw new Error('no market fits the test');
  return found;
}

/** The YES book's best bid and ask of a market, in micros. */
export function top(sb: RunningSandbox, market: SandboxMarket): { bid: Micros; ask: Micros } {
  const view = sb.world.books.book(market.tokens[0].tokenId);
  if (!view || !view.bids[0] || !view.asks[0]) throw new Error(`market ${market.conditionId} has an empty side`);
  return { bid: view.bids[0].price, ask: view.asks[0].price };
}

export const units = (m: Micros): number => m / MICROS_PER_UNIT;
