import { ORDER_TYPES, type OrderType } from '../../core/types.ts';
import type { WireSignedOrder } from '../wire/account.ts';
import type { UnsignedOrder } from './order-builder.ts';
import type { VenueProfile } from './profile.ts';

/**
 * The JSON of signed orders: the wire object the signer makes, and the text of order
 * submissions written by hand. On the live path JSON.stringify of a 15-order POST /orders body
 * took about 35 µs of a tick (issue 11 point 9); the templates below take half of that and
 * leave less garbage.
 *
 * Writing strings without escaping is only sound for values known to need none, so the fast
 * path takes only SignerWireOrder objects: the signer makes them (order-signer.ts) from a
 * struct that buildOrder and the EIP-712 encoder checked, so every string is hex, decimal
 * digits, BUY/SELL or a checksummed address, and they are frozen. Any other object (a copy, one
 * built elsewhere) goes through JSON.stringify. Either way the text is JSON.stringify's: keys
 * in the object's own order, undefined members left out (pinned in test/venue/signing/order-json.test.ts).
 */

/**
 * The decimal text of the last value printed in one field. The orders of a batch mostly share
 * their token, timestamp (one clock reading) and often their amounts, and printing is what the
 * wire object costs: a 77-digit token id about 0.5 µs, a number above 2^31 about 0.2 µs.
 */
class LastText {
  #value: number | bigint = -1;
  #text = '-1';
  of(value: number | bigint): string {
    if (value !== this.#value) {
      this.#text = String(value);
      this.#value = value;
    }
    return this.#text;
  }
}
const tokenIds = new LastText();
const timestamps = new LastText();
const makerAmounts = new LastText();
const takerAmounts = new LastText();

/**
 * The order JSON (2.16) of an order the signer built and signed: amounts and timestamp as
 * decimal strings, side as BUY/SELL. In the `interface` profile `salt` is a string,
 * `conditionId` is sent and `expiration` only for GTD; in the `polymarket` profile `salt` is a
 * number (as the official SDK sends it), `conditionId` is omitted and `expiration` is always
 * sent ("0" when none). Members are set in wire order (JSON.stringify keeps it); frozen.
 */
export class SignerWireOrder implements WireSignedOrder {
  declare readonly salt: string | number;
  declare readonly maker: string;
  declare readonly signer: string;
  declare readonly tokenId: string;
  declare readonly conditionId?: string;
  declare readonly makerAmount: string;
  declare readonly takerAmount: string;
  declare readonly side: 'BUY' | 'SELL';
  declare readonly signatureType: number;
  declare readonly timestamp: string;
  declare readonly expiration?: string;
  declare readonly metadata: string;
  declare readonly builder: string;
  declare readonly signature: string;

  constructor(unsigned: UnsignedOrder, signature: string, profile: VenueProfile) {
    const s = unsigned.struct;
    const self = this as { -readonly [K in keyof WireSignedOrder]: WireSignedOrder[K] };
    const polymarket = profile === 'polymarket';
    self.salt = polymarket ? Number(s.salt) : String(s.salt);
    self.maker = s.maker;
    self.signer = s.signer;
    self.tokenId = tokenIds.of(s.tokenId);
    if (!polymarket) self.conditionId = unsigned.conditionId;
    self.makerAmount = makerAmounts.of(s.makerAmount);
    self.takerAmount = takerAmounts.of(s.takerAmount);
    self.side = s.side === 0 ? 'BUY' : 'SELL';
    self.signatureType = s.signatureType;
    self.timestamp = timestamps.of(s.timestamp);
    if (polymarket) self.expiration = String(unsigned.expiration);
    self.metadata = s.metadata;
    self.builder = s.builder;
    self.signature = signature;
    if (!polymarket && unsigned.expiration !== 0) self.expiration = String(unsigned.expiration);
    Object.freeze(this);
  }
}

/** JSON text of one wire order (JSON.stringify's text). */
export function wireOrderJson(order: WireSignedOrder): string {
  if (!(order instanceof SignerWireOrder)) return JSON.stringify(order);
  // one template per profile (its salt is a number in `polymarket` only), in the member order
  // of SignerWireOrder: fewer and larger string pieces than a loop over the keys (half the time
  // and half the garbage of a generic writer, measured in .prof)
  const o = order;
  if (typeof o.salt === 'number') {
    return `{"salt":${o.salt},"maker":"${o.maker}","signer":"${o.signer}","tokenId":"${o.tokenId}","makerAmount":"${o.makerAmount}","takerAmount":"${o.takerAmount}","side":"${o.side}","signatureType":${o.signatureType},"timestamp":"${o.timestamp}","expiration":"${o.expiration as string}","metadata":"${o.metadata}","builder":"${o.builder}","signature":"${o.signature}"}`;
  }
  const condition = o.conditionId === undefined ? '' : `,"conditionId":"${o.conditionId}"`;
  const expiration = o.expiration === undefined ? '}' : `,"expiration":"${o.expiration}"}`;
  return `{"salt":"${o.salt}","maker":"${o.maker}","signer":"${o.signer}","tokenId":"${o.tokenId}"${condition},"makerAmount":"${o.makerAmount}","takerAmount":"${o.takerAmount}","side":"${o.side}","signatureType":${o.signatureType},"timestamp":"${o.timestamp}","metadata":"${o.metadata}","builder":"${o.builder}","signature":"${o.signature}"${expiration}`;
}

const ORDER_TYPE_JSON = new Map<string, string>(ORDER_TYPES.map((t) => [t, `"${t}"`]));

/** What of a signed order a submission item carries besides the owner (order-signer.ts's SignedOrder). */
export interface SubmittedOrder {
  readonly order: WireSignedOrder;
  readonly orderType: OrderType;
  readonly postOnly: boolean;
}

/**
 * JSON text of one POST /order(s) item as toOrderSubmission builds it: order, orderType, owner,
 * then postOnly when set and deferExec when given. `ownerJson` is the API key as JSON text
 * (stringified once per request).
 */
export function submissionJson(signed: SubmittedOrder, ownerJson: string, deferExec?: boolean): string {
  const orderType = ORDER_TYPE_JSON.get(signed.orderType) ?? JSON.stringify(signed.orderType);
  let out = `{"order":${wireOrderJson(signed.order)},"orderType":${orderType},"owner":${ownerJson}`;
  if (signed.postOnly) out += ',"postOnly":true';
  if (deferExec !== undefined) out += ',"deferExec":' + String(deferExec);
  return out + '}';
}
