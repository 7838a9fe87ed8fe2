import { formatMicros } from '../../core/fixed.ts';
import { deny, unknownMarket } from '../deny.ts';
import { complementTokenOf, isOnComplement } from '../market-lookup.ts';
import { big, formatPicos } from '../money.ts';
import type { OrderRequest } from '../../core/intents.ts';
import type { RiskCheck, RiskLimits, RiskState } from '../types.ts';

/**
 * maxPosition, two limits (each skipped when undefined; exactly at a limit is allowed):
 * - per token -> POSITION_LIMIT: projected = position + (open orders on the token on the same
 *   side as this order + this order), added for BUY and subtracted for SELL;
 *   `|projected| > maxPositionPerToken` denies. Needs no market view.
 * - per market -> MARKET_POSITION_LIMIT: YES and NO netted, net = pos(YES) - pos(NO) where YES
 *   is outcome 0 (buying YES or selling NO moves net up, buying NO or selling YES moves it
 *   down). projected = net + the moves of this order and of every open order on either token
 *   that moves net the same way; `|projected| > maxPositionPerMarket` denies. Needs the view
 *   (UNKNOWN_MARKET otherwise); the complement is `complementTokenId` or the other token of the
 *   condition in `state.markets` (a complement never seen counts as position 0).
 * An order that moves the projection toward zero (|projected| not above |projected without it|,
 * e.g. selling down a position that is over a lowered limit) is always allowed: risk never
 * blocks reducing risk. Only orders with `remaining > 0` count. Sums are exact at any size.
 *
 * Speed: the sums are first made in plain numbers (`passes`), exact while the sum of the
 * magnitudes involved stays below 2^53; only an order that may be denied, or a state that needs
 * more (an amount too large or not whole, an unknown market), goes through the BigInt reference
 * `maxPositionExact`, which also words the denial. Every order of the engine is checked here.
 */
export const maxPosition: RiskCheck = (req, state, limits) => (passes(req, state, limits) ? undefined : maxPositionExact(req, state, limits));

/**
 * True only when the order surely passes both limits, in plain numbers: every amount read is a
 * safe integer and the sum of their magnitudes is too, so every partial sum is exact (a float
 * sum of integers is exact below 2^53 and, rounding being monotonic, a true sum at or above
 * 2^53 never comes out below it). False means "ask the exact check", not "denied".
 */
function passes(req: OrderRequest, state: RiskState, limits: RiskLimits): boolean {
  const perToken = limits.maxPositionPerToken;
  const perMarket = limits.maxPositionPerMarket;
  if (perToken === undefined && perMarket === undefined) return true;
  const size = req.size;
  if (!Number.isSafeInteger(size)) return false;
  const sideSign = req.side === 'BUY' ? 1 : -1;
  const own = state.positions.get(req.tokenId) ?? 0;
  if (!Number.isSafeInteger(own)) return false;

  if (perToken !== undefined) {
    let pending = 0;
    for (const o of state.openOrders) {
      if (o.tokenId === req.tokenId && o.side === req.side && o.remaining > 0) {
        if (!Number.isSafeInteger(o.remaining)) return false;
        pending += o.remaining;
      }
    }
    if (!Number.isSafeInteger(Math.abs(own) + pending + size)) return false;
    const before = own + sideSign * pending;
    if (exceedsNumber(before + sideSign * size, before, perToken)) return false;
  }

  if (perMarket !== undefined) {
    const view = state.markets.get(req.tokenId);
    if (view === undefined) return false;
    const complementId = complementTokenOf(view, state);
    const tokenSign = view.outcomeIndex === 0 ? 1 : -1;
    const direction = sideSign * tokenSign;
    const other = complementId === undefined ? 0 : (state.positions.get(complementId) ?? 0);
    if (!Number.isSafeInteger(other)) return false;
    let pending = 0;
    for (const o of state.openOrders) {
      if (!(o.remaining > 0)) continue;
      let move: number;
      if (o.tokenId === req.tokenId) move = (o.side === 'BUY' ? 1 : -1) * tokenSign;
      else if (isOnComplement(o, req.tokenId, view.conditionId, complementId)) move = (o.side === 'BUY' ? -1 : 1) * tokenSign;
      else continue;
      if (move !== direction) continue;
      if (!Number.isSafeInteger(o.remaining)) return false;
      pending += o.remaining;
    }
    if (!Number.isSafeInteger(Math.abs(own) + Math.abs(other) + pending + size)) return false;
    const before = tokenSign * (own - other) + direction * pending;
    if (exceedsNumber(before + direction * size, before, perMarket)) return false;
  }
  return true;
}

/** `exceeds` in plain numbers (exact: the caller bounded every magnitude below 2^53). */
function exceedsNumber(projected: number, before: number, limit: number): boolean {
  return Math.abs(projected) > limit && Math.abs(projected) > Math.abs(before);
}

/** The reference: every sum in BigInt, exact at any size; words the denial. */
export const maxPositionExact: RiskCheck = (req, state, limits) => {
  const perToken = limits.maxPositionPerToken;
  const perMarket = limits.maxPositionPerMarket;
  if (perToken === undefined && perMarket === undefined) return undefined;
  const size = big(req.size, 'order size');
  const sideSign = req.side === 'BUY' ? 1n : -1n;

  if (perToken !== undefined) {
    let pending = 0n;
    for (const o of state.openOrders) {
      if (o.tokenId === req.tokenId && o.side === req.side && o.remaining > 0) {
        pending += big(o.remaining, 'open order remaining', o.clientOrderId);
      }
    }
    const before = big(state.positions.get(req.tokenId) ?? 0, 'position', req.tokenId) + sideSign * pending;
    const projected = before + sideSign * size;
    if (exceeds(projected, before, big(perToken, 'maxPositionPerToken'))) {
      return deny(
        'POSITION_LIMIT',
        'maxPosition',
        `projected position ${formatBig(projected)} in token ${req.tokenId} exceeds max ${formatMicros(perToken)}`,
      );
    }
  }

  if (perMarket !== undefined) {
    const view = state.markets.get(req.tokenId);
    if (view === undefined) return unknownMarket('maxPosition', req.tokenId);
    const complementId = complementTokenOf(view, state);
    // +1 when this token is YES: its position adds to net; -1 when it is NO.
    const tokenSign = view.outcomeIndex === 0 ? 1n : -1n;
    const direction = sideSign * tokenSign;
    const own = big(state.positions.get(req.tokenId) ?? 0, 'position', req.tokenId);
    const other = complementId === undefined ? 0n : big(state.positions.get(complementId) ?? 0, 'position', complementId);
    const net = tokenSign * (own - other);
    let pending = 0n;
    for (const o of state.openOrders) {
      if (!(o.remaining > 0)) continue;
      let move: bigint;
      if (o.tokenId === req.tokenId) move = (o.side === 'BUY' ? 1n : -1n) * tokenSign;
      else if (isOnComplement(o, req.tokenId, view.conditionId, complementId)) move = (o.side === 'BUY' ? -1n : 1n) * tokenSign;
      else continue;
      if (move === direction) pending += big(o.remaining, 'open order remaining', o.clientOrderId);
    }
    const before = net + direction * pending;
    const projected = before + direction * size;
    if (exceeds(projected, before, big(perMarket, 'maxPositionPerMarket'))) {
      return deny(
        'MARKET_POSITION_LIMIT',
        'maxPosition',
        `projected net YES-NO ${formatBig(projected)} in market ${view.conditionId} exceeds max ${formatMicros(perMarket)}`,
      );
    }
  }
  return undefined;
};

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

/** Over the limit and further from zero than without this order. */
function exceeds(projected: bigint, before: bigint, limit: bigint): boolean {
  return abs(projected) > limit && abs(projected) > abs(before);
}

/** Micros held in a BigInt (sums may pass 2^53), as an exact decimal. */
function formatBig(micros: bigint): string {
  return formatPicos(micros * 1_000_000n);
}
