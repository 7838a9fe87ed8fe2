import type { Micros } from '../../core/fixed.ts';
import type { ConditionId, OrderType, Side, TokenId } from '../../core/types.ts';
import { encodeClientOrderId } from './client-order-id.ts';
import type { OrderStruct } from './eip712.ts';
import { computeOrderAmounts } from './order-amounts.ts';
import { OrderBuildError } from './order-build-error.ts';
import type { VenueProfile } from './profile.ts';

/** What a caller asks for: one limit order, exact prices and sizes, salt and time already drawn. */
export interface OrderParams {
  /** uint256 as decimal text. */
  readonly tokenId: TokenId;
  /** Sent in the order JSON in the `interface` profile (required there), not signed. */
  readonly conditionId?: ConditionId;
  readonly price: Micros;
  readonly size: Micros;
  readonly side: Side;
  /** The market's tick, from the newest book. */
  readonly tick: Micros;
  /** Selects the neg-risk exchange as the verifying contract. */
  readonly negRisk: boolean;
  readonly orderType: OrderType;
  /** Unix seconds; GTD only (required there). */
  readonly expiration?: number;
  /** Only with GTC or GTD. */
  readonly postOnly?: boolean;
  /** Travels in `metadata` (see client-order-id.ts); absent means 32 zero bytes. */
  readonly clientOrderId?: string;
  /** A safe non-negative integer from an injected salt source. */
  readonly salt: number;
  /** Epoch milliseconds from the injected clock. */
  readonly timestamp: number;
}

/** Who signs and for whom (resolved once per account, see order-signer.ts). */
export interface OrderParty {
  /** Funder address (checksummed): the EOA for type 0, the proxy or safe for 1 and 2, the deposit wallet for 3. */
  readonly maker: string;
  /** EOA that signs (checksummed); for type 3 the deposit wallet, as the maker. */
  readonly signer: string;
  readonly signatureType: 0 | 1 | 2 | 3;
  /** bytes32 builder code, 0x-hex. */
  readonly builder: string;
}

/** An order ready to hash and sign, with the JSON-only fields kept beside the struct. */
export interface UnsignedOrder {
  readonly struct: OrderStruct;
  readonly negRisk: boolean;
  readonly orderType: OrderType;
  readonly postOnly: boolean;
  readonly conditionId: ConditionId | undefined;
  /** Unix seconds, 0 when the order does not expire. */
  readonly expiration: number;
}

const TOKEN_ID_RE = /^[0-9]{1,78}$/;
const CONDITION_ID_RE = /^0x[0-9a-fA-F]{64}$/;
const UINT256_LIMIT = 1n << 256n;

// Books are quoted on few tokens: remember the last parse, and the last condition id that passed.
let lastTokenText = '';
let lastTokenValue = 0n;
let lastConditionId = '';

/** Builds the struct of one order: checks the parameters, computes amounts, encodes metadata. */
export function buildOrder(params: OrderParams, party: OrderParty, profile: VenueProfile): UnsignedOrder {
  const { makerAmount, takerAmount } = computeOrderAmounts(params.side, params.price, params.size, params.tick);
  const tokenId = parseTokenId(params.tokenId);
  const salt = params.salt;
  if (!Number.isSafeInteger(salt) || salt < 0) throw new OrderBuildError('salt', 'must be a safe non-negative integer');
  const timestamp = params.timestamp;
  if (!Number.isSafeInteger(timestamp) || timestamp <= 0) throw new OrderBuildError('timestamp', 'must be positive epoch milliseconds');

  const orderType = params.orderType;
  const postOnly = params.postOnly === true;
  if (postOnly && orderType !== 'GTC' && orderType !== 'GTD') {
    throw new OrderBuildError('postOnly', `is only allowed with GTC or GTD, not ${orderType}`);
  }
  let expiration = 0;
  if (orderType === 'GTD') {
    const e = params.expiration;
    if (e === undefined || !Number.isSafeInteger(e) || e <= 0) {
      throw new OrderBuildError('expiration', 'must be positive unix seconds for a GTD order');
    }
    expiration = e;
  } else if (params.expiration !== undefined && params.expiration !== 0) {
    throw new OrderBuildError('expiration', `is only allowed with GTD, not ${orderType}`);
  } else if (orderType !== 'GTC' && orderType !== 'FOK' && orderType !== 'FAK') {
    throw new OrderBuildError('orderType', `must be GTC, GTD, FOK or FAK, was ${String(orderType)}`);
  }

  const conditionId = params.conditionId;
  if (conditionId !== undefined && conditionId !== lastConditionId && !CONDITION_ID_RE.test(conditionId)) {
    throw new OrderBuildError('conditionId', 'must be 0x and 32 bytes of hex');
  }
  if (profile === 'interface' && conditionId === undefined) {
    throw new OrderBuildError('conditionId', 'is required in the interface profile');
  }
  if (conditionId !== undefined) lastConditionId = conditionId;

  return {
    struct: {
      salt,
      maker: party.maker,
      signer: party.signer,
      tokenId,
      makerAmount,
      takerAmount,
      side: params.side === 'BUY' ? 0 : 1,
      signatureType: party.signatureType,
      timestamp,
      metadata: encodeClientOrderId(params.clientOrderId),
      builder: party.builder,
    },
    negRisk: params.negRisk,
    orderType,
    postOnly,
    conditionId,
    expiration,
  };
}

/** uint256 of a decimal token id; throws OrderBuildError when it is not one. */
export function parseTokenId(text: string): bigint {
  if (text === lastTokenText) return lastTokenValue;
  if (typeof text !== 'string' || !TOKEN_ID_RE.test(text)) throw new OrderBuildError('tokenId', 'must be a uint256 in decimal');
  const value = BigInt(text);
  if (value >= UINT256_LIMIT) throw new OrderBuildError('tokenId', 'must be a uint256 in decimal');
  lastTokenText = text;
  lastTokenValue = value;
  return value;
}
