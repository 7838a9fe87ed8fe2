/**
 * Wire types of the authenticated routes: orders, cancels, account data, heartbeats, API keys
 * (interface 2.14-2.17, 4.1, 4.2, 4.8; PROTOCOL "Orders" and "Heartbeats").
 */

import type { OrderType } from '../../core/types.ts';

/** The signed order as it travels in JSON (2.16). Amounts are integer strings of 6-decimal units. */
export interface WireSignedOrder {
  salt: string | number;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: 'BUY' | 'SELL';
  signatureType: number;
  /** Milliseconds since epoch, as a decimal string. */
  timestamp: string;
  /** 0x-prefixed 32 bytes. */
  metadata: string;
  /** 0x-prefixed 32 bytes. */
  builder: string;
  /** Sent in the `interface` profile, omitted in the `polymarket` profile. */
  conditionId?: string;
  expiration?: string;
  signature: string;
}

/** The wire spells the order types as the domain does. */
export type WireOrderType = OrderType;

/** One item of `POST /orders`, or the body of `POST /order`. */
export interface WireOrderSubmission {
  order: WireSignedOrder;
  orderType: WireOrderType;
  /** The API key of the caller. */
  owner: string;
  postOnly?: boolean;
  deferExec?: boolean;
}

/** One result of `POST /orders` / the answer of `POST /order`. */
export interface WireOrderResult {
  success: boolean;
  /** `null` in some captures. */
  errorMsg: string | null;
  /** Empty or `null` when the item failed. */
  orderID: string | null;
  takingAmount?: string;
  makingAmount?: string;
  status?: string;
  transactionsHashes?: string[];
  tradeIDs?: string[];
}

/** Answer of the cancel family. */
export interface WireCancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

export interface WireMakerOrder {
  order_id: string;
  maker_address: string;
  owner: string;
  matched_amount: string;
  fee_rate_bps: string;
  price: string;
  asset_id: string;
  outcome: string;
  side: string;
}

/** Account trade (2.14), element of `GET /data/trades`. */
export interface WireAccountTrade {
  id: string;
  taker_order_id: string;
  market: string;
  asset_id: string;
  side: string;
  size: string;
  fee_rate_bps: string;
  price: string;
  status: string;
  match_time: string;
  last_update: string;
  outcome: string;
  bucket_index: number;
  owner: string;
  maker_address: string;
  transaction_hash: string;
  type: string;
  maker_orders: WireMakerOrder[];
}

/** Account order (2.15), element of `GET /data/orders`. */
export interface WireAccountOrder {
  id: string;
  status: string;
  market: string;
  originalSize: string;
  outcome: string;
  makerAddress: string;
  owner: string;
  price: string;
  side: string;
  sizeMatched: string;
  assetId: string;
  type: string;
  createdAt: string;
  associateTrades: string[] | null;
  /** Not in the interface; the sandbox adds the order's 32-byte metadata for reconciliation. */
  metadata?: string;
  expiration?: string;
}

export interface WireHeartbeatRequest {
  heartbeat_id: string;
}

export interface WireHeartbeat {
  heartbeat_id: string;
}

export interface WireHeartbeatStatus {
  status: string;
}

export interface WireApiKey {
  apiKey: string;
  secret: string;
  passphrase: string;
}

/** Every non-2xx answer (PROTOCOL "Errors"); the heartbeat 400 adds the expected id. */
export interface WireError {
  error: string;
  heartbeat_id?: string;
  code?: string;
  retry_after_seconds?: number;
}
