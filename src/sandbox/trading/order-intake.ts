import { formatMicros, MICROS_PER_UNIT } from '../../core/fixed.ts';
import { ORDER_TYPES as ORDER_TYPE_LIST, type OrderType } from '../../core/types.ts';
import type { Trade } from '../../sim/types.ts';
import { ERR_INVALID_PAYLOAD, ERR_PRICE_TICK } from '../../sim/venue-messages.ts';
import { sameAddress, toChecksumAddress } from '../../venue/signing/address.ts';
import { depositWalletDigest, unwrapDepositWalletSignature } from '../../venue/signing/deposit-wallet.ts';
import { domainSeparator, orderDigest, orderDomain, typedDataDigest, type OrderStruct } from '../../venue/signing/eip712.ts';
import { toHex } from '../../venue/signing/hex.ts';
import { orderStructFromWire, recoverAddress } from '../../venue/signing/recover.ts';
import type { WireOrderResult, WireSignedOrder } from '../../venue/wire/account.ts';
import type { SandboxContext } from '../context.ts';
import { badRequest } from '../http-error.ts';
import type { Caller } from './caller.ts';
import { ERR_BAD_SIGNATURE, ERR_MAKER_NOT_CONTROLLED, ERR_OWNER_NOT_API_KEY, ERR_SIGNER_NOT_API_KEY } from './messages.ts';
import type { OrderLogEntry } from './order-log.ts';
import { transactionHashOf } from './transaction-hash.ts';

/**
 * One order item of `POST /orders` or `POST /order`, from JSON to the engine, with the venue's
 * `errorMsg` on refusal. Checks, in order: the item's shape (`Invalid order payload`), the token
 * and, when sent, its `conditionId`; the EIP-712 hash under the market's exchange (neg-risk
 * markets use the neg-risk exchange) and the signature recovering to `signer`
 * (`invalid signature`; type 3, profile `polymarket` only: the wrapped signature recovers to the
 * deposit wallet's owner, see depositWalletSignedBy); `owner` is the caller's API key; the key
 * that signed is the caller's address; the caller controls `maker` with the signature type
 * (trading/wallets.ts: 0 the key itself, 1 its proxy, 2 its safe, 3 its deposit wallet); the price
 * implied by the amounts is a whole number of micros (else the tick error). The engine then
 * checks duplicates, whether the market accepts orders, the tick grid and [tick, 1 - tick], the
 * minimum size, the 0.01 lot and the balance of `maker`, and matches.
 *
 * `conditionId` may be sent or omitted in either profile. `deferExec` is accepted and ignored.
 * `expiration` (unix seconds) is read for GTD orders only; `checkExpiration` refuses the whole
 * request (400) before any item is placed when one is not unix seconds, or is not "0" on an order
 * that is not GTD.
 */

const ORDER_TYPES: ReadonlySet<string> = new Set(ORDER_TYPE_LIST);

/**
 * The `order.expiration` of one item, checked before any item of the request is placed: absent, or
 * a decimal string of unix seconds; "0" (no expiry) for GTC, FOK and FAK, which never expire. A
 * GTD item without a positive one is refused item by item (`Invalid order payload`).
 */
export function checkExpiration(item: unknown, where: string): void {
  if (typeof item !== 'object' || item === null) return;
  const it = item as Record<string, unknown>;
  const order = it['order'];
  if (typeof order !== 'object' || order === null) return;
  const expiration = (order as Record<string, unknown>)['expiration'];
  if (expiration === undefined) return;
  const shown = (JSON.stringify(expiration) ?? '').slice(0, 40);
  if (typeof expiration !== 'string' || !/^\d{1,12}$/.test(expiration)) {
    throw badRequest(`${ERR_INVALID_PAYLOAD}: ${where}.order.expiration must be unix seconds as a decimal string, was ${shown}`);
  }
  const orderType = it['orderType'];
  if (orderType !== 'GTD' && typeof orderType === 'string' && ORDER_TYPES.has(orderType) && Number(expiration) !== 0) {
    throw badRequest(`${ERR_INVALID_PAYLOAD}: ${where}.order.expiration must be "0" or absent for a ${orderType} order (only GTD orders expire), was ${shown}`);
  }
}

export interface ItemOutcome {
  readonly result: WireOrderResult;
  readonly entry: OrderLogEntry;
}

export function processOrderItem(ctx: SandboxContext, caller: Caller, item: unknown, route: OrderLogEntry['route']): ItemOutcome {
  const now = ctx.clock.now();
  const entry = ctx.orderLog.start(route, caller.apiKey, now);
  const refuse = (errorMsg: string): ItemOutcome => {
    entry.errorMsg = errorMsg;
    return { entry, result: { success: false, errorMsg, orderID: '', status: '', makingAmount: '', takingAmount: '' } };
  };

  if (typeof item !== 'object' || item === null || Array.isArray(item)) return refuse(ERR_INVALID_PAYLOAD);
  const it = item as Record<string, unknown>;
  const owner = it['owner'];
  if (typeof owner === 'string') entry.owner = owner;
  const postOnly = it['postOnly'];
  entry.postOnly = postOnly === true;
  const orderType = it['orderType'];
  if (typeof orderType === 'string' && ORDER_TYPES.has(orderType)) entry.orderType = orderType as OrderType;
  const order = it['order'];
  if (typeof order !== 'object' || order === null || Array.isArray(order)) return refuse(ERR_INVALID_PAYLOAD);
  const wire = order as WireSignedOrder;
  notePlainFields(entry, wire);
  if (typeof owner !== 'string' || entry.orderType === undefined) return refuse(ERR_INVALID_PAYLOAD);
  if (postOnly !== undefined && typeof postOnly !== 'boolean') return refuse(ERR_INVALID_PAYLOAD);
  const deferExec = it['deferExec'];
  if (deferExec !== undefined && typeof deferExec !== 'boolean') return refuse(ERR_INVALID_PAYLOAD);

  let struct: OrderStruct;
  try {
    struct = orderStructFromWire(wire);
  } catch {
    return refuse(ERR_INVALID_PAYLOAD);
  }
  const tokenId = struct.tokenId.toString(10);
  entry.tokenId = tokenId;
  const token = ctx.world.token(tokenId);
  if (token === undefined) return refuse(ERR_INVALID_PAYLOAD);
  const market = token.market;
  const conditionId = wire.conditionId;
  if (conditionId !== undefined && (typeof conditionId !== 'string' || conditionId.toLowerCase() !== market.conditionId)) {
    return refuse(ERR_INVALID_PAYLOAD);
  }
  entry.conditionId = market.conditionId;

  const exchange = market.negRisk ? ctx.trading.exchanges.negRisk : ctx.trading.exchanges.standard;
  const digest = orderDigest(domainSeparator(orderDomain(exchange, ctx.trading.chainId)), struct);
  const hash = toHex(digest);
  entry.hash = hash;
  const sigType = struct.signatureType;
  if (sigType > 3 || (sigType === 3 && ctx.profile !== 'polymarket')) return refuse(ERR_INVALID_PAYLOAD);
  // the key that signed: the order's signer for types 0-2, the deposit wallet's owner for 3
  const signedBy = sigType === 3 ? depositWalletSignedBy(ctx, struct, digest, wire.signature) : recoveredSigner(digest, struct, wire.signature);
  if (signedBy === undefined) return refuse(ERR_BAD_SIGNATURE);
  if (owner !== caller.apiKey) return refuse(ERR_OWNER_NOT_API_KEY);
  if (!sameAddress(signedBy, caller.address)) return refuse(ERR_SIGNER_NOT_API_KEY);
  if (!ctx.wallets.controls(caller.address, struct.maker, sigType)) return refuse(ERR_MAKER_NOT_CONTROLLED);

  const amounts = priceAndSize(struct);
  if (amounts === 'invalid') return refuse(ERR_INVALID_PAYLOAD);
  if (amounts === 'off-grid') return refuse(ERR_PRICE_TICK);
  entry.price = amounts.price;
  entry.size = amounts.size;

  let expirationMs: number | undefined;
  if (entry.orderType === 'GTD') {
    const e = wire.expiration;
    if (typeof e !== 'string' || !/^\d{1,12}$/.test(e) || Number(e) === 0) return refuse(ERR_INVALID_PAYLOAD);
    entry.expiration = Number(e);
    expirationMs = Number(e) * 1000;
  }

  const submitted = ctx.engine.submit(
    {
      id: hash,
      owner: caller.apiKey,
      address: toChecksumAddress(struct.maker),
      tokenId,
      side: struct.side === 0 ? 'BUY' : 'SELL',
      price: amounts.price,
      size: amounts.size,
      type: entry.orderType,
      postOnly: entry.postOnly,
      expiration: expirationMs,
      createdAt: now,
      clientMetadata: struct.metadata.toLowerCase(),
    },
    now,
  );
  if (submitted.status === 'REJECTED') return refuse(submitted.errorMsg);
  entry.accepted = true;
  entry.answeredStatus = submitted.status.toLowerCase();
  const result: WireOrderResult = {
    success: true,
    errorMsg: '',
    orderID: hash,
    status: entry.answeredStatus,
    makingAmount: formatMicros(submitted.makingAmount),
    takingAmount: formatMicros(submitted.takingAmount),
  };
  if (submitted.trades.length > 0) {
    result.tradeIDs = submitted.trades.map((t: Trade) => t.id);
    result.transactionsHashes = [...new Set(submitted.trades.map((t: Trade) => transactionHashOf(t)))];
  }
  return { entry, result };
}

/** Types 0-2: the address the signature recovers to, when it is the order's `signer`. */
function recoveredSigner(digest: Uint8Array, struct: OrderStruct, signature: unknown): string | undefined {
  const recovered = typeof signature === 'string' ? recoverAddress(digest, signature) : undefined;
  return recovered !== undefined && sameAddress(recovered, struct.signer) ? recovered : undefined;
}

/**
 * Type 3 (deposit wallet), as the wallet's EIP-1271 check does (venue/signing/deposit-wallet.ts):
 * `signer` is the wallet and the `maker`; the wrapped signature carries the exchange's domain
 * separator and the order's struct hash, which must rebuild the order's digest; its inner 65
 * bytes must recover, over the wallet's TypedDataSign digest, to the wallet's owner (from the
 * wallet registry). Returns that owner, or undefined for any mismatch.
 */
function depositWalletSignedBy(ctx: SandboxContext, struct: OrderStruct, digest: Uint8Array, signature: unknown): string | undefined {
  if (typeof signature !== 'string' || !sameAddress(struct.maker, struct.signer)) return undefined;
  const parts = unwrapDepositWalletSignature(signature);
  if (parts === undefined) return undefined;
  if (!bytesEqual(typedDataDigest(parts.separator, parts.contentsHash), digest)) return undefined;
  const walletDigest = depositWalletDigest(parts.separator, parts.contentsHash, ctx.trading.chainId, struct.signer);
  const recovered = recoverAddress(walletDigest, toHex(parts.inner));
  const owner = ctx.wallets.ownerOf(struct.signer);
  return recovered !== undefined && owner !== undefined && sameAddress(recovered, owner) ? recovered : undefined;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Fields the log keeps even when the order does not parse as a whole. */
function notePlainFields(entry: OrderLogEntry, wire: WireSignedOrder): void {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  entry.maker = str(wire.maker);
  entry.signer = str(wire.signer);
  entry.metadata = str(wire.metadata);
  entry.tokenId = str(wire.tokenId);
  entry.side = wire.side === 'BUY' || wire.side === 'SELL' ? wire.side : undefined;
  entry.signatureType = typeof wire.signatureType === 'number' ? wire.signatureType : undefined;
}

const MAX_SIZE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Price and size from the signed amounts (6-decimal base units, which are micros): a BUY gives
 * `makerAmount` collateral for `takerAmount` tokens, a SELL gives `makerAmount` tokens for
 * `takerAmount` collateral; price = collateral / tokens. 'off-grid' when that price is not a
 * whole number of micros or is outside (0, 1).
 */
function priceAndSize(struct: OrderStruct): { price: number; size: number } | 'invalid' | 'off-grid' {
  const maker = BigInt(struct.makerAmount);
  const taker = BigInt(struct.takerAmount);
  const [collateral, tokens] = struct.side === 0 ? [maker, taker] : [taker, maker];
  if (tokens <= 0n || collateral <= 0n || tokens > MAX_SIZE) return 'invalid';
  const scaled = collateral * BigInt(MICROS_PER_UNIT);
  if (scaled % tokens !== 0n) return 'off-grid';
  const price = scaled / tokens;
  if (price >= BigInt(MICROS_PER_UNIT)) return 'off-grid';
  return { price: Number(price), size: Number(tokens) };
}
