import type { OrderRequest } from '../core/intents.ts';
import type { VenueState } from '../core/types.ts';
import { formatMicros } from '../core/fixed.ts';
import { deny } from './deny.ts';
import type { Denial, RiskState } from './types.ts';

const RECONCILING_MESSAGE = 'market has orders of unknown outcome under reconciliation';

/**
 * The engine's own gates, in this order: a manual halt (the message carries `haltReason`; a
 * reduce-only SELL within the position passes it), a
 * heartbeat `late` or `lost` (`idle`, before any chain started, and `healthy` pass), the venue's
 * state (restarting or cancel-only: no order; post-only: only a post-only GTC/GTD order) and the
 * order's market under reconciliation (orders of unknown outcome there, or our trades at the
 * venue not yet read in full since the start), and the order's market cleared at its game start
 * with no book back yet. They run before every configured check and no config
 * removes them: the checks of `risk.checks` are the optional ones. Pure.
 */
export function engineGates(req: OrderRequest, state: RiskState): Denial | undefined {
  const amount = amountGate(req);
  if (amount !== undefined) return amount;
  if (state.manualHalt && !closesOnly(req, state)) return deny('TRADING_HALTED', 'halt', `manual halt: ${state.haltReason ?? 'no reason given'}`);
  if (state.heartbeat === 'late' || state.heartbeat === 'lost') return deny('TRADING_HALTED', 'heartbeat', `heartbeat ${state.heartbeat}`);
  if (state.venueState !== undefined && state.venueState !== 'open') {
    const venue = venueGate(req, state.venueState);
    if (venue !== undefined) return venue;
  }
  if (state.reconciling.has(req.conditionId)) return deny('RECONCILING', 'reconciling', state.reconciling.why?.(req.conditionId) ?? RECONCILING_MESSAGE);
  if (state.cleared?.has(req.conditionId) === true) return deny('MARKET_CLEARED', 'cleared', 'the venue cleared the market\'s book at its game start; no order until its book has orders again');
  if (req.side === 'SELL' && state.outside !== undefined) return outsideGate(req, state, state.outside);
  return undefined;
}

/**
 * A reduce-only SELL (the flatten command's, set by the engine) of no more than the run holds of
 * the token: it closes a position, so a halt lets it through.
 */
function closesOnly(req: OrderRequest, state: RiskState): boolean {
  return req.reduceOnly === true && req.side === 'SELL' && req.size <= (state.positions.get(req.tokenId) ?? 0);
}

/**
 * The venue restarts or takes only cancels: no order. It takes only post-only orders: a taker, a
 * marketable order not marked post-only, a FAK or a FOK is denied (a post-only order that would
 * cross is the venue's to refuse, as always).
 */
function venueGate(req: OrderRequest, venue: Exclude<VenueState, 'open'>): Denial | undefined {
  if (venue === 'restarting') return deny('VENUE_RESTRICTED', 'venue', 'the venue is restarting: no order is sent until it answers again');
  if (venue === 'cancelOnly') return deny('VENUE_RESTRICTED', 'venue', 'the venue takes only cancels');
  const type = req.orderType ?? 'GTC';
  if (req.postOnly === true && (type === 'GTC' || type === 'GTD')) return undefined;
  return deny('VENUE_RESTRICTED', 'venue', `the venue takes only post-only GTC/GTD orders (this one is ${type}${req.postOnly === true ? '' : ', not post-only'})`);
}

/**
 * Every amount of an order must be one the venue can represent: a price and a size that are
 * positive whole numbers of micros, and a notional (price x size) within 2^53 - 1 micros. This is
 * where an amount is bounded (not in a strategy's params, which may hold times or counts of any
 * size): a strategy that asks for `size: 1e300` is told, with a code, whatever risk.checks holds.
 */
function amountGate(req: OrderRequest): Denial | undefined {
  const { price, size } = req;
  if (!(Number.isSafeInteger(price) && price > 0)) return deny('AMOUNT_OUT_OF_RANGE', 'amount', `price ${String(price)} micros is not a positive whole number of micros`);
  if (!(Number.isSafeInteger(size) && size > 0)) return deny('AMOUNT_OUT_OF_RANGE', 'amount', `size ${String(size)} micros is not a positive whole number of micros below 2^53`);
  // at a price of at most 1 (1e6 micros) the notional is at most the size, already in range; only
  // a larger price (denied later by priceBounds) can take it past the limit, checked exactly
  if (price > 1_000_000 && BigInt(price) * BigInt(size) > MAX_NOTIONAL_PRODUCT) {
    return deny('AMOUNT_OUT_OF_RANGE', 'amount', `notional of ${formatMicros(size)} at ${formatMicros(price)} is beyond ${formatMicros(Number.MAX_SAFE_INTEGER)}`);
  }
  return undefined;
}

const MAX_NOTIONAL_PRODUCT = BigInt(Number.MAX_SAFE_INTEGER) * 1_000_000n;

/**
 * A SELL of a token the account also holds outside the bot (bought by hand) may sell only the
 * bot's own shares: the bot's position less what its open SELL orders already offer. Past that,
 * the venue would take the shares from the outside part, so it is refused (POSITION_LIMIT).
 */
function outsideGate(req: OrderRequest, state: RiskState, outside: ReadonlyMap<string, number>): Denial | undefined {
  const held = outside.get(req.tokenId);
  if (held === undefined || held <= 0) return undefined;
  const own = Math.max(0, state.positions.get(req.tokenId) ?? 0);
  let offered = 0;
  for (const o of state.openOrders) if (o.tokenId === req.tokenId && o.side === 'SELL') offered += o.remaining;
  if (offered + req.size <= own) return undefined;
  return deny(
    'POSITION_LIMIT',
    'outside',
    `SELL of ${formatMicros(req.size)} in token ${req.tokenId} would sell shares held outside the bot (bot holds ${formatMicros(own)}, offers ${formatMicros(offered)}, outside ${formatMicros(held)})`,
  );
}
