import type { VenuePosition } from '../domain/account.ts';
import type { Activity, ClosedPosition, Holder, HolderGroup, TradeFill } from '../domain/analytics.ts';
import {
  arrayOrEnvelope,
  asObj,
  list,
  mapArray,
  optBool,
  optDate,
  optInt,
  optMicros,
  optNum,
  optSide,
  optStr,
  reqId,
  reqMicros,
  reqNum,
  reqSide,
  reqStr,
  reqUnixMs,
} from './fields.ts';

/**
 * Decoders of wallet analytics (interface 2.2-2.5): camelCase per the interface; the venue's newer
 * snake_case shape (`{data, pagination}` envelope) is read too.
 */

function decodeTradeFill(v: unknown, path: string): TradeFill {
  const o = asObj(v, path);
  return {
    proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
    side: reqSide(o, path, 'side'),
    asset: reqStr(o, path, 'asset', 'token_id'),
    conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
    size: reqNum(o, path, 'size'),
    price: reqNum(o, path, 'price'),
    tsEvent: reqUnixMs(o, path, 'timestamp'),
    usdcSize: optNum(o, path, 'usdcSize', 'usdc_size'),
    title: optStr(o, path, 'title'),
    slug: optStr(o, path, 'slug'),
    eventSlug: optStr(o, path, 'eventSlug', 'event_slug'),
    outcome: optStr(o, path, 'outcome'),
    icon: optStr(o, path, 'icon'),
    outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
    name: optStr(o, path, 'name'),
    pseudonym: optStr(o, path, 'pseudonym'),
    bio: optStr(o, path, 'bio'),
    profileImage: optStr(o, path, 'profileImage', 'profile_image'),
    profileImageOptimized: optStr(o, path, 'profileImageOptimized', 'profile_image_optimized'),
    transactionHash: optStr(o, path, 'transactionHash', 'transaction_hash'),
  };
}

/** `GET /trades`. */
export function decodeTradeFills(value: unknown): TradeFill[] {
  const [arr, path] = arrayOrEnvelope(value, 'trades');
  return mapArray(arr, path, decodeTradeFill);
}

function decodeClosedPosition(v: unknown, path: string): ClosedPosition {
  const o = asObj(v, path);
  return {
    proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
    asset: reqStr(o, path, 'asset', 'token_id'),
    conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
    size: optNum(o, path, 'size', 'current_size'),
    avgPrice: optNum(o, path, 'avgPrice', 'avg_price'),
    initialValue: optNum(o, path, 'initialValue', 'initial_value'),
    currentValue: optNum(o, path, 'currentValue', 'current_value'),
    cashPnl: optNum(o, path, 'cashPnl', 'cash_pnl'),
    totalBought: optNum(o, path, 'totalBought', 'total_size'),
    realizedPnl: optNum(o, path, 'realizedPnl', 'realized_pnl'),
    percentPnl: optNum(o, path, 'percentPnl', 'percent_pnl'),
    percentRealizedPnl: optNum(o, path, 'percentRealizedPnl', 'percent_realized_pnl'),
    curPrice: optNum(o, path, 'curPrice', 'current_price'),
    redeemable: optBool(o, path, 'redeemable'),
    mergeable: optBool(o, path, 'mergeable'),
    title: optStr(o, path, 'title'),
    slug: optStr(o, path, 'slug'),
    eventSlug: optStr(o, path, 'eventSlug', 'event_slug'),
    outcome: optStr(o, path, 'outcome'),
    oppositeOutcome: optStr(o, path, 'oppositeOutcome', 'opposite_outcome'),
    oppositeAsset: optStr(o, path, 'oppositeAsset', 'opposite_token_id'),
    icon: optStr(o, path, 'icon'),
    outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
    tsEvent: optDate(o, path, 'timestamp', 'last_event_at'),
    endDate: optDate(o, path, 'endDate', 'end_date'),
  };
}

/** `GET /closed-positions`. */
export function decodeClosedPositions(value: unknown): ClosedPosition[] {
  const [arr, path] = arrayOrEnvelope(value, 'positions');
  return mapArray(arr, path, decodeClosedPosition);
}

/** `GET /positions` (analytics): sizes and prices to Micros, a position without a size refused. */
export function decodePositions(value: unknown): VenuePosition[] {
  const [arr, root] = arrayOrEnvelope(value, 'positions');
  return mapArray(arr, root, (v, path): VenuePosition => {
    const o = asObj(v, path);
    return {
      proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
      asset: reqId(o, path, 'asset', 'token_id'),
      conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
      outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
      outcome: optStr(o, path, 'outcome'),
      size: reqMicros(o, path, 'size', 'current_size'),
      avgPrice: optMicros(o, path, 'avgPrice', 'avg_price'),
      curPrice: optMicros(o, path, 'curPrice', 'current_price'),
      initialValue: optNum(o, path, 'initialValue', 'initial_value'),
      currentValue: optNum(o, path, 'currentValue', 'current_value'),
      cashPnl: optNum(o, path, 'cashPnl', 'cash_pnl'),
      realizedPnl: optNum(o, path, 'realizedPnl', 'realized_pnl'),
      redeemable: optBool(o, path, 'redeemable'),
      mergeable: optBool(o, path, 'mergeable'),
      negativeRisk: optBool(o, path, 'negativeRisk', 'negative_risk'),
      title: optStr(o, path, 'title'),
      endDate: optDate(o, path, 'endDate', 'end_date'),
    };
  });
}

/** `GET /activity`. */
export function decodeActivity(value: unknown): Activity[] {
  const [arr, root] = arrayOrEnvelope(value, 'activity');
  return mapArray(arr, root, (v, path): Activity => {
    const o = asObj(v, path);
    return {
      proxyWallet: reqStr(o, path, 'proxyWallet', 'proxy_wallet'),
      conditionId: reqStr(o, path, 'conditionId', 'condition_id'),
      type: reqStr(o, path, 'type'),
      tsEvent: reqUnixMs(o, path, 'timestamp'),
      transactionHash: optStr(o, path, 'transactionHash', 'transaction_hash'),
      asset: optStr(o, path, 'asset', 'token_id'),
      title: optStr(o, path, 'title'),
      slug: optStr(o, path, 'slug'),
      eventSlug: optStr(o, path, 'eventSlug', 'event_slug'),
      outcome: optStr(o, path, 'outcome'),
      name: optStr(o, path, 'name'),
      pseudonym: optStr(o, path, 'pseudonym'),
      bio: optStr(o, path, 'bio'),
      size: optNum(o, path, 'size'),
      usdcSize: optNum(o, path, 'usdcSize', 'usdc_size'),
      price: optNum(o, path, 'price'),
      side: optSide(o, path, 'side'),
      outcomeIndex: optInt(o, path, 'outcomeIndex', 'outcome_index'),
      icon: optStr(o, path, 'icon'),
      profileImage: optStr(o, path, 'profileImage', 'profile_image'),
      profileImageOptimized: optStr(o, path, 'profileImageOptimized', 'profile_image_optimized'),
    };
  });
}

/** `GET /holders`. */
export function decodeHolderGroups(value: unknown): HolderGroup[] {
  return mapArray(value, 'holders', (v, path): HolderGroup => {
    const o = asObj(v, path);
    return {
      token: reqStr(o, path, 'token'),
      holders: list(o, path, 'holders', (h, p): Holder => {
        const ho = asObj(h, p);
        return {
          proxyWallet: reqStr(ho, p, 'proxyWallet', 'proxy_wallet'),
          asset: reqStr(ho, p, 'asset', 'token_id'),
          amount: reqNum(ho, p, 'amount'),
          bio: optStr(ho, p, 'bio'),
          pseudonym: optStr(ho, p, 'pseudonym'),
          name: optStr(ho, p, 'name'),
          displayUsernamePublic: optBool(ho, p, 'displayUsernamePublic'),
          outcomeIndex: optInt(ho, p, 'outcomeIndex', 'outcome_index'),
          profileImage: optStr(ho, p, 'profileImage', 'profile_image'),
          profileImageOptimized: optStr(ho, p, 'profileImageOptimized', 'profile_image_optimized'),
        };
      }),
    };
  });
}
