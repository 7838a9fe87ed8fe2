import { ERR_INVALID_PAYLOAD } from '../../sim/venue-messages.ts';
import type { WireOrderSubmission, WireSignedOrder } from '../../venue/wire/account.ts';
import { badRequest } from '../http-error.ts';

/**
 * The JSON shape of one order submission (interface 2.16, PROTOCOL "Orders"), checked for every
 * item before any item of the request is placed: a body that is not that shape is malformed, a
 * 400 for the whole request (PROTOCOL "Errors") whose `error` names the field, never a 200 with
 * the item taken or refused. Checked here: the item's and the order's keys (no key the wire does
 * not define) and each field's JSON type: the amounts, token id and timestamp are decimal
 * strings (a JSON number loses digits past 2^53; the venue's own clients send strings), `salt` a
 * string or a number (the official SDK sends a number), `signatureType` a number, `postOnly` and
 * `deferExec` booleans. The values themselves (digits, hex, the signature) are the intake's
 * (order-intake.ts), item by item with the venue's `errorMsg`.
 */

type JsonType = 'string' | 'number' | 'boolean' | 'object';
/** A field's JSON types and how an error says them. */
type Field = readonly [types: readonly JsonType[], says: string];

const DECIMAL: Field = [['string'], 'a decimal string'];
const HEX: Field = [['string'], 'a 0x hex string'];

const ITEM_FIELDS: Readonly<Record<keyof WireOrderSubmission, Field>> = {
  order: [['object'], 'an object'],
  orderType: [['string'], 'a string'],
  owner: [['string'], 'a string'],
  postOnly: [['boolean'], 'true or false'],
  deferExec: [['boolean'], 'true or false'],
};

const ORDER_FIELDS: Readonly<Record<keyof WireSignedOrder, Field>> = {
  salt: [['string', 'number'], 'a decimal string or a JSON integer'],
  maker: HEX,
  signer: HEX,
  tokenId: DECIMAL,
  makerAmount: DECIMAL,
  takerAmount: DECIMAL,
  side: [['string'], '"BUY" or "SELL"'],
  signatureType: [['number'], 'a JSON integer'],
  timestamp: DECIMAL,
  metadata: HEX,
  builder: HEX,
  conditionId: HEX,
  expiration: DECIMAL,
  signature: HEX,
};

/** Throws a 400 `Invalid order payload: <where>.<field> ...` when the item is not the wire's shape. */
export function checkOrderShape(item: unknown, where: string): void {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    throw badRequest(`${ERR_INVALID_PAYLOAD}: ${where} must be an order item {order, orderType, owner}, was ${shown(item)}`);
  }
  checkFields(item as Record<string, unknown>, ITEM_FIELDS, where, 'an order item');
  const order = (item as Record<string, unknown>)['order'];
  if (typeof order === 'object' && order !== null) checkFields(order as Record<string, unknown>, ORDER_FIELDS, `${where}.order`, 'an order');
}

function checkFields(object: Record<string, unknown>, fields: Readonly<Record<string, Field>>, where: string, what: string): void {
  for (const [name, value] of Object.entries(object)) {
    if (!Object.hasOwn(fields, name)) {
      throw badRequest(`${ERR_INVALID_PAYLOAD}: ${where}.${name.slice(0, 40)} is not a field of ${what} (fields: ${Object.keys(fields).join(', ')})`);
    }
    const [types, says] = fields[name] as Field;
    const type = value === null || Array.isArray(value) ? 'null or array' : typeof value;
    if (!(types as readonly string[]).includes(type)) throw badRequest(`${ERR_INVALID_PAYLOAD}: ${where}.${name} must be ${says}, was ${shown(value)}`);
  }
}

function shown(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 40);
}
