import type { WireSignedOrder } from '../wire/account.ts';

/**
 * The JSON text of order submissions, written by hand for the orders the signer made. On the
 * live path JSON.stringify of a 15-order POST /orders body took about 35 µs of a tick (measured
 * in .prof, issue 11 point 9); concatenating the known fields takes a third of that.
 *
 * Writing strings without escaping is only sound for values known to need none, so the fast
 * path takes only order objects the signer built and froze (`sealSignedOrder`): every string in
 * them was checked or produced as hex, decimal digits, BUY/SELL or a checksummed address. Any
 * other object (a copy, one built elsewhere) goes through JSON.stringify. Either way the text is
 * the same as JSON.stringify of `toOrderSubmission`'s object: keys in the object's own order,
 * undefined members left out (pinned in test/venue/signing/order-json.test.ts).
 */

const sealed = new WeakSet<object>();

/** Freezes an order the signer built from checked values and marks it for the fast path. */
export function sealSignedOrder(order: WireSignedOrder): WireSignedOrder {
  sealed.add(Object.freeze(order));
  return order;
}

/** JSON text of one wire order (JSON.stringify's text). */
export function wireOrderJson(order: WireSignedOrder): string {
  if (!sealed.has(order)) return JSON.stringify(order);
  let out = '{';
  const fields = order as unknown as Record<string, string | number | undefined>;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined) continue;
    if (out.length > 1) out += ',';
    // numbers here are safe integers (salt, signatureType): String and JSON.stringify agree
    out += typeof value === 'string' ? '"' + key + '":"' + value + '"' : '"' + key + '":' + value;
  }
  return out + '}';
}

/** What of a signed order a submission item carries besides the owner (order-signer.ts's SignedOrder). */
export interface SubmittedOrder {
  readonly order: WireSignedOrder;
  readonly orderType: string;
  readonly postOnly: boolean;
}

/**
 * JSON text of one POST /order(s) item as toOrderSubmission builds it: order, orderType, owner,
 * then postOnly when set and deferExec when given. `ownerJson` is the API key as JSON text
 * (stringified once per request).
 */
export function submissionJson(signed: SubmittedOrder, ownerJson: string, deferExec?: boolean): string {
  let out = '{"order":' + wireOrderJson(signed.order) + ',"orderType":' + JSON.stringify(signed.orderType) + ',"owner":' + ownerJson;
  if (signed.postOnly) out += ',"postOnly":true';
  if (deferExec !== undefined) out += ',"deferExec":' + String(deferExec);
  return out + '}';
}
