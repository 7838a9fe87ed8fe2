import { DecodeError } from '../../core/errors.ts';
import { decodeAccountOrder, decodeAccountTrade } from '../../venue/decode/account-data.ts';
import { unixToMs } from '../../venue/decode/fields.ts';
import type { AccountOrder, AccountTrade } from '../../venue/domain/account.ts';

/** What an `order` message says happened (the venue's `type`). */
export const USER_ORDER_EVENTS = ['PLACEMENT', 'UPDATE', 'CANCELLATION'] as const;
export type UserOrderEvent = (typeof USER_ORDER_EVENTS)[number];

/**
 * One message of the venue's user channel, decoded: `trade` (one of our trades at one status;
 * the same trade id comes again at each status, and may come twice at one) or `order` (one of our
 * orders placed, matched in part or whole, or cancelled). `ts` is the venue's `timestamp` (epoch
 * ms) when it sends one, else the match/update time; `text` the message as received (one JSON
 * object), for the run's journal.
 */
export type UserChannelMessage =
  | { readonly kind: 'trade'; readonly trade: AccountTrade; readonly ts: number | undefined; readonly text: string }
  | { readonly kind: 'order'; readonly event: UserOrderEvent; readonly order: AccountOrder; readonly ts: number | undefined; readonly text: string };

const ORDER_EVENT_SET: ReadonlySet<string> = new Set(USER_ORDER_EVENTS);

/**
 * A user-channel frame into its messages: one JSON object or an array of them; `PONG` and other
 * plain-text notices are none. Messages of other kinds are skipped. A malformed `trade` or `order`
 * is a DecodeError naming the field.
 */
export function decodeUserChannelText(text: string): UserChannelMessage[] {
  const first = text.charCodeAt(0);
  if (first !== 123 /* { */ && first !== 91 /* [ */) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DecodeError('user channel message', 'JSON', text.slice(0, 80));
  }
  const items = Array.isArray(value) ? value : [value];
  const out: UserChannelMessage[] = [];
  items.forEach((item, i) => {
    const m = decodeUserChannelItem(item, Array.isArray(value) ? `message[${i}]` : 'message');
    if (m !== undefined) out.push(m);
  });
  return out;
}

function decodeUserChannelItem(item: unknown, path: string): UserChannelMessage | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
  const o = item as Record<string, unknown>;
  const kind = typeof o['event_type'] === 'string' ? o['event_type'].toLowerCase() : '';
  const ts = epochMs(o['timestamp']);
  const text = JSON.stringify(o);
  // `type` is the message kind here (TRADE, PLACEMENT...), not the account trade's role or the order type
  const { type, event_type: _eventType, ...fields } = o;
  if (kind === 'trade') {
    const trade = decodeAccountTrade(fields, path);
    return { kind: 'trade', trade, ts: ts ?? trade.lastUpdate ?? trade.matchTime, text };
  }
  if (kind === 'order') {
    const event = typeof type === 'string' ? type.toUpperCase() : '';
    if (!ORDER_EVENT_SET.has(event)) throw new DecodeError(`${path}.type`, `one of ${USER_ORDER_EVENTS.join(', ')}`, String(type));
    const order = decodeAccountOrder(fields, path);
    return { kind: 'order', event: event as UserOrderEvent, order, ts, text };
  }
  return undefined;
}

/** The `timestamp` field: epoch ms, or unix seconds (the docs' examples send both). */
function epochMs(raw: unknown): number | undefined {
  const n = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
  return n === undefined ? undefined : unixToMs(n);
}
