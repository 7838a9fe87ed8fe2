import { DecodeError } from '../../core/errors.ts';
import { Secret } from '../../core/secret.ts';
import type { BalanceAllowance, CancelResult, OrderPostResult } from '../domain/account.ts';
import type { ApiCredentials } from '../signing/l2-auth.ts';
import { orderStatus } from './account-data.ts';
import { asObj, at, mapArray, optBool, optMicros, optRecord, optStr, optStrings, reqStr } from './fields.ts';

/**
 * Decoders of orders, cancels, heartbeats and API keys (interface 2.16, 2.17, 4.9; PROTOCOL "Orders",
 * "Heartbeats").
 */

/**
 * One result of `POST /orders` / the answer of `POST /order`. Accepted when `success` is true
 * and an order id came back; otherwise failed with the venue's `errorMsg` (PROTOCOL: an item
 * can fail with `success: false`, or with `success: true` and an empty `orderID`). Amounts are
 * decimal strings like every trading number; an empty string is 0.
 */
export function decodeOrderPostResult(value: unknown, path = 'result'): OrderPostResult {
  const o = asObj(value, path);
  const success = optBool(o, path, 'success') ?? false;
  const orderId = optStr(o, path, 'orderID', 'orderId', 'order_id');
  const errorMsg = optStr(o, path, 'errorMsg', 'error_msg', 'error') ?? '';
  const rawStatus = optStr(o, path, 'status');
  const status = rawStatus === undefined || rawStatus === '' ? undefined : orderStatus(rawStatus, at(path, 'status'));
  if (!success || orderId === undefined || orderId === '') {
    return {
      kind: 'failed',
      errorMsg: errorMsg === '' ? (success ? 'accepted without an order id' : 'refused') : errorMsg,
      orderId: orderId === '' ? undefined : orderId,
      status,
    };
  }
  return {
    kind: 'accepted',
    orderId,
    status: status ?? 'LIVE',
    makingAmount: optMicros(o, path, 'makingAmount', 'making_amount') ?? 0,
    takingAmount: optMicros(o, path, 'takingAmount', 'taking_amount') ?? 0,
    tradeIds: optStrings(o, path, 'tradeIDs', 'tradeIds', 'trade_ids') ?? [],
    transactionHashes: optStrings(o, path, 'transactionsHashes', 'transactionHashes', 'transaction_hashes') ?? [],
  };
}

/** `POST /orders`: exactly one result per item sent, in order (a DecodeError otherwise). */
export function decodeOrderPostResults(value: unknown, expected: number): OrderPostResult[] {
  const results = mapArray(value, 'results', decodeOrderPostResult);
  if (results.length !== expected) throw new DecodeError('results', `${expected} results, one per order sent`, value);
  return results;
}

/** The cancel family: `{canceled: [ids], not_canceled: {id: reason}}` (null for empty, as captured). */
export function decodeCancelResult(value: unknown): CancelResult {
  const path = 'cancel';
  const o = asObj(value, path);
  const canceled = optStrings(o, path, 'canceled', 'cancelled') ?? [];
  const reasons = optRecord(o, path, 'not_canceled', 'notCanceled', 'not_cancelled') ?? {};
  const notCanceled: Record<string, string> = {};
  for (const [id, reason] of Object.entries(reasons)) {
    if (typeof reason !== 'string') throw new DecodeError(at(at(path, 'not_canceled'), id), 'a string', reason);
    notCanceled[id] = reason;
  }
  return { canceled, notCanceled };
}

/** A non-negative integer of base units sent as a digit string (or a JSON integer). */
function baseUnits(v: unknown, path: string): bigint {
  if (typeof v === 'string' && /^\d{1,80}$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  throw new DecodeError(path, 'a non-negative integer of base units (6 decimals)', v);
}

/**
 * `GET /balance-allowance`: `{balance, allowances: {spender: amount}}` (CLOB V2), or the older
 * `{balance, allowance}`; amounts are integers of base units (1 unit = 1e6) as digit strings.
 */
export function decodeBalanceAllowance(value: unknown): BalanceAllowance {
  const path = 'balance-allowance';
  const o = asObj(value, path);
  const balance = baseUnits(o['balance'], at(path, 'balance'));
  if (balance > BigInt(Number.MAX_SAFE_INTEGER)) throw new DecodeError(at(path, 'balance'), 'a balance below 9e15 base units', o['balance']);
  const allowances: Record<string, bigint> = {};
  const map = optRecord(o, path, 'allowances');
  if (map !== undefined) {
    for (const [spender, amount] of Object.entries(map)) allowances[spender] = baseUnits(amount, at(at(path, 'allowances'), spender));
  }
  const single = o['allowance'];
  if (single !== undefined && single !== null) allowances[''] = baseUnits(single, at(path, 'allowance'));
  return { balance: Number(balance), allowances };
}

/** `POST /v1/heartbeats`: `{heartbeat_id}`, the id to send on the next beat. */
export function decodeHeartbeatId(value: unknown): string {
  const id = reqStr(asObj(value, 'heartbeat'), 'heartbeat', 'heartbeat_id', 'heartbeatId');
  if (id === '') throw new DecodeError('heartbeat.heartbeat_id', 'a non-empty id', id);
  return id;
}

/** `POST /heartbeats`: `{status}` (`ok`). */
export function decodeHeartbeatStatus(value: unknown): string {
  return reqStr(asObj(value, 'heartbeat'), 'heartbeat', 'status');
}

/**
 * `POST /auth/api-key`, `GET /auth/derive-api-key`: `{apiKey, secret, passphrase}`. The secret
 * and passphrase become `Secret`s at once; a DecodeError names the field and never shows them.
 */
export function decodeApiCredentials(value: unknown): ApiCredentials {
  const path = 'api-key';
  const o = asObj(value, path);
  const apiKey = reqStr(o, path, 'apiKey', 'api_key', 'key');
  const secret = o['secret'];
  const passphrase = o['passphrase'];
  // only an empty string can fail as a string, so a credential is never shown
  if (typeof secret !== 'string' || secret === '') throw new DecodeError(at(path, 'secret'), 'a non-empty string', secret);
  if (typeof passphrase !== 'string' || passphrase === '') throw new DecodeError(at(path, 'passphrase'), 'a non-empty string', passphrase);
  return Object.freeze({ apiKey, secret: new Secret(secret), passphrase: new Secret(passphrase) });
}
