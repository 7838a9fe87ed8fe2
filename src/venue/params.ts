import { ParameterError } from '../core/errors.ts';
import { SIDES } from '../core/types.ts';
import { PRICE_HISTORY_INTERVALS } from './domain/trading.ts';
import type { RouteId } from './endpoints.ts';

/**
 * The parameter rules of interface part 4, as data, checked by one function on both sides of the
 * wire: the client calls `checkQuery` before sending (a ParameterError, no request), the sandbox
 * calls it on what it received (a 400 whose `error` is the same message).
 *
 * Values are checked in their query-string form, the form both sides share.
 */
export type ParamRule =
  | { readonly kind: 'int'; readonly min?: number; readonly max?: number; readonly required?: boolean }
  | { readonly kind: 'number'; readonly min?: number; readonly required?: boolean }
  | { readonly kind: 'bool'; readonly required?: boolean }
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly required?: boolean }
  | { readonly kind: 'string'; readonly maxLength?: number; readonly required?: boolean }
  /** A wallet address: `0x` and 40 hex digits (any case). */
  | { readonly kind: 'address'; readonly required?: boolean }
  /** Comma-separated list (condition ids). */
  | { readonly kind: 'list'; readonly required?: boolean };

export interface RouteRules {
  readonly params: Readonly<Record<string, ParamRule>>;
  /** `[a, b]`: when `a` is given, `b` must be too. */
  readonly requires?: readonly (readonly [string, string])[];
  /** Reject query parameters not listed (off: venues ignore unknown ones). */
  readonly strict?: boolean;
}

const int = (min?: number, max?: number, required = false): ParamRule => ({ kind: 'int', min, max, required });
const str = (maxLength?: number, required = false): ParamRule => ({ kind: 'string', maxLength, required });
const bool: ParamRule = { kind: 'bool' };
const list = (required = false): ParamRule => ({ kind: 'list', required });
const oneOf = (values: readonly string[], required = false): ParamRule => ({ kind: 'enum', values, required });
const required = str(undefined, true);
const address = (required = false): ParamRule => ({ kind: 'address', required });
/**
 * Largest unix-seconds value a time parameter takes: 9999-12-31T23:59:59Z, the last second a
 * date can be written in (beyond it a "timestamp" is a typo or a probe, not a time).
 */
export const MAX_UNIX_SECONDS = 253_402_300_799;
const unixSeconds = int(0, MAX_UNIX_SECONDS);

const PAGE_COMMENTS = { limit: int(1, 100), offset: int(0) };

export const ROUTE_RULES: Readonly<Partial<Record<RouteId, RouteRules>>> = Object.freeze({
  // 4.3 wallet analytics
  getTrades: {
    params: {
      limit: int(0, 10_000),
      offset: int(0, 10_000),
      takerOnly: bool,
      filterType: oneOf(['CASH', 'TOKENS']),
      filterAmount: { kind: 'number', min: 0 },
      market: list(),
      user: address(),
      side: oneOf(SIDES),
    },
    requires: [['filterType', 'filterAmount']],
  },
  getClosedPositions: {
    params: {
      user: address(true),
      market: list(),
      title: str(100),
      limit: int(0, 50),
      offset: int(0, 100_000),
      sortBy: oneOf(['REALIZEDPNL', 'TITLE', 'PRICE', 'AVGPRICE', 'TIMESTAMP']),
      sortDirection: oneOf(['ASC', 'DESC']),
    },
  },
  getActivity: { params: { user: address(true), limit: int(0, 500), offset: int(0, 10_000) } },
  getHolders: { params: { market: list(true), limit: int(0, 500), minBalance: { kind: 'number', min: 0 } } },
  getPositions: {
    params: {
      user: address(true),
      market: list(),
      eventId: list(),
      sizeThreshold: { kind: 'number', min: 0 },
      redeemable: bool,
      mergeable: bool,
      limit: int(0, 500),
      offset: int(0, 10_000),
      sortBy: oneOf(['CURRENT', 'INITIAL', 'TOKENS', 'CASHPNL', 'PERCENTPNL', 'TITLE', 'RESOLVING', 'PRICE', 'AVGPRICE']),
      sortDirection: oneOf(['ASC', 'DESC']),
      title: str(100),
    },
  },
  // 4.4 comments
  getComments: {
    params: {
      ...PAGE_COMMENTS,
      order: str(),
      parent_entity_type: oneOf(['Event', 'Series', 'market']),
      parent_entity_id: str(),
      event_slug: str(),
      holders_only: bool,
    },
  },
  getCommentsByUser: { params: PAGE_COMMENTS },
  getCommentReplies: { params: PAGE_COMMENTS },
  // 4.5, 4.9 metadata
  getMarketBySlug: { params: { creator: str() } },
  getMetadataMarket: { params: { creator: str() } },
  getEventBySlug: { params: { creator: str() } },
  getEventCreators: {
    params: { limit: int(1, 100), offset: int(0), order: str(), ascending: bool, creator_name: str(), creator_handle: str() },
  },
  getEvents: {
    params: {
      limit: int(0, 1_000),
      offset: int(0),
      order: str(),
      ascending: bool,
      slug: str(),
      tag_id: str(),
      active: bool,
      closed: bool,
      archived: bool,
    },
  },
  getTags: { params: { limit: int(0, 1_000), offset: int(0) } },
  publicSearch: { params: { q: required, limit_per_type: int(1, 100) } },
  // 4.6 cursor routes
  getMarkets: { params: { next_cursor: str() } },
  getSamplingMarkets: { params: { next_cursor: str() } },
  getSimplifiedMarkets: { params: { next_cursor: str() } },
  getSamplingSimplifiedMarkets: { params: { next_cursor: str() } },
  // PROTOCOL's small trading routes
  getOrderBook: { params: { token_id: required } },
  getPrice: { params: { token_id: required, side: oneOf(SIDES, true) } },
  getMidpoint: { params: { token_id: required } },
  getPricesHistory: {
    params: {
      market: required,
      startTs: unixSeconds,
      endTs: unixSeconds,
      interval: oneOf(PRICE_HISTORY_INTERVALS),
      fidelity: int(1),
    },
  },
  getTickSize: { params: { token_id: required } },
  getNegRisk: { params: { token_id: required } },
  getFeeRate: { params: { token_id: required } },
  // 4.8 account data
  getAccountTrades: {
    params: { id: str(), taker: str(), maker: str(), market: str(), before: unixSeconds, after: unixSeconds, next_cursor: str() },
  },
  getAccountOrders: { params: { id: str(), market: str(), asset_id: str(), next_cursor: str() } },
  // account state (docs/protocol-additions.md); token_id is required with CONDITIONAL (checked by both sides)
  getBalanceAllowance: {
    params: { asset_type: oneOf(['COLLATERAL', 'CONDITIONAL'], true), token_id: str(), signature_type: int(0, 3) },
  },
  // liquidity rewards (docs/rewards.md): the order's id (its hash)
  getOrderScoring: { params: { order_id: required } },
  // the wallet whose share: by signature type (the key's own, proxy, safe, deposit), or named
  getRewardPercentages: { params: { signature_type: int(0, 3), maker_address: address() } },
});

/** Most token ids one `POST /books` or `POST /prices` body may carry (our choice; the venue caps it). */
export const MAX_TOKENS_PER_BOOKS_REQUEST = 500;

const INT_RE = /^-?\d+$/;
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const NUM_RE = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/**
 * Checks a query (string values as they travel) against a route's rules. Throws a
 * ParameterError naming the route, the parameter and the broken rule.
 */
export function checkQuery(route: RouteId, query: Readonly<Record<string, string | undefined>>): void {
  const rules = ROUTE_RULES[route];
  if (!rules) return;
  checkRules(route, rules, query);
}

/**
 * Rules for the fields of JSON request bodies of read routes, in the same string form as
 * queries (arrays comma-joined by `toQuery`). Kept apart from ROUTE_RULES because these
 * fields travel in the body, not the query string.
 */
export const BODY_RULES: Readonly<Partial<Record<RouteId, RouteRules>>> = Object.freeze({
  getBatchPricesHistory: {
    params: {
      markets: list(true),
      start_ts: unixSeconds,
      end_ts: unixSeconds,
      interval: oneOf(PRICE_HISTORY_INTERVALS),
      fidelity: int(1),
    },
  },
});

/** Checks a request body's fields (string form) against BODY_RULES; throws a ParameterError. */
export function checkBody(route: RouteId, fields: Readonly<Record<string, string | undefined>>): void {
  const rules = BODY_RULES[route];
  if (!rules) return;
  checkRules(route, rules, fields);
}

function checkRules(route: RouteId, rules: RouteRules, query: Readonly<Record<string, string | undefined>>): void {
  for (const [name, rule] of Object.entries(rules.params)) {
    const value = query[name];
    if (value === undefined || value === '') {
      if (rule.required) throw new ParameterError(route, name, 'is required');
      continue;
    }
    checkValue(route, name, rule, value);
  }
  for (const [a, b] of rules.requires ?? []) {
    if (query[a] !== undefined && query[a] !== '' && (query[b] === undefined || query[b] === '')) {
      throw new ParameterError(route, b, `is required when '${a}' is given`);
    }
  }
  if (rules.strict) {
    for (const name of Object.keys(query)) {
      if (!(name in rules.params)) throw new ParameterError(route, name, 'is not a parameter of this route');
    }
  }
}

function checkValue(route: RouteId, name: string, rule: ParamRule, value: string): void {
  switch (rule.kind) {
    case 'int': {
      if (!INT_RE.test(value)) throw new ParameterError(route, name, `must be an integer, was '${clip(value)}'`);
      const n = Number(value);
      if (rule.min !== undefined && n < rule.min) throw new ParameterError(route, name, `must be >= ${rule.min}, was ${n}`);
      if (rule.max !== undefined && n > rule.max) throw new ParameterError(route, name, `must be <= ${rule.max}, was ${n}`);
      return;
    }
    case 'number': {
      if (!NUM_RE.test(value)) throw new ParameterError(route, name, `must be a number, was '${clip(value)}'`);
      const n = Number(value);
      if (rule.min !== undefined && n < rule.min) throw new ParameterError(route, name, `must be >= ${rule.min}, was ${n}`);
      return;
    }
    case 'bool':
      if (value !== 'true' && value !== 'false') throw new ParameterError(route, name, `must be true or false, was '${clip(value)}'`);
      return;
    case 'enum':
      if (!rule.values.includes(value)) {
        throw new ParameterError(route, name, `must be one of ${rule.values.join(', ')}, was '${clip(value)}'`);
      }
      return;
    case 'string':
      if (rule.maxLength !== undefined && value.length > rule.maxLength) {
        throw new ParameterError(route, name, `must be at most ${rule.maxLength} characters, was ${value.length}`);
      }
      return;
    case 'address':
      if (!ADDRESS_RE.test(value)) throw new ParameterError(route, name, `must be a 0x address (40 hex digits), was '${clip(value)}'`);
      return;
    case 'list':
      if (value.split(',').some((item) => item.trim() === '')) {
        throw new ParameterError(route, name, 'must be a comma-separated list without empty items');
      }
      return;
  }
}

function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

/** A value a query string can carry. */
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

/** Turns typed parameters into their query-string form (drops undefined; arrays comma-joined). */
export function toQuery(params: Readonly<Record<string, QueryValue>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'object' ? value.join(',') : String(value);
  }
  return out;
}
