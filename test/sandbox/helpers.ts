import { expect } from 'vitest';

/**
 * Test helpers for the sandbox: plain-fetch calls and a shape checker that compares an answer
 * with the field list of the interface (exact key set, JSON type per field).
 */

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export async function call<T = any>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<Answer<T>> {
  const { json, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    ...(json === undefined ? {} : { method: rest.method ?? 'POST', body: JSON.stringify(json), headers: { 'content-type': 'application/json' } }),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body: body as T, text };
}

/** A JSON type name; `'?'` suffix on a key marks it optional; `a|b` allows either type. */
export type Kind = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object' | 'null';
export type Shape = Readonly<Record<string, string>>;

function kindOf(value: unknown): Kind[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number') return Number.isInteger(value) ? ['number', 'integer'] : ['number'];
  return [typeof value as Kind];
}

/** Asserts `value` has exactly the keys of `shape` (optional ones may be missing) with the stated types. */
export function expectShape(value: unknown, shape: Shape, path = '$'): void {
  expect(kindOf(value), `${path} is an object`).toContain('object');
  const obj = value as Record<string, unknown>;
  const keys = new Map(Object.entries(shape).map(([k, v]) => [k.replace(/\?$/, ''), { types: v.split('|'), optional: k.endsWith('?') }]));
  for (const key of Object.keys(obj)) expect(keys.has(key), `${path}.${key} is not a field of the shape`).toBe(true);
  for (const [key, { types, optional }] of keys) {
    if (!(key in obj)) {
      expect(optional, `${path}.${key} is missing`).toBe(true);
      continue;
    }
    const kinds = kindOf(obj[key]);
    expect(types.some((t) => kinds.includes(t as Kind)), `${path}.${key} is ${kinds.join('/')}, expected ${types.join('|')}`).toBe(true);
  }
}

export function expectEach(values: unknown, shape: Shape, path = '$'): void {
  expect(Array.isArray(values), `${path} is an array`).toBe(true);
  (values as unknown[]).forEach((v, i) => expectShape(v, shape, `${path}[${i}]`));
}

const S = 'string';
const B = 'boolean';
const N = 'number';
const I = 'integer';

/** Field lists of the interface's part 2 (and PROTOCOL's table for the rest). */
export const SHAPES = {
  eventSummary: {
    id: S, ticker: S, slug: S, title: S, description: S, resolutionSource: S, image: S, icon: S,
    startDate: S, creationDate: S, endDate: S, createdAt: S, updatedAt: S, active: B, closed: B, archived: B,
    // the real venue's neg-risk flags of an event (docs/protocol-additions.md)
    'negRisk?': B, 'enableNegRisk?': B, 'negRiskAugmented?': B,
  },
  metadataMarket: {
    id: S, question: S, conditionId: S, slug: S, resolutionSource: S, image: S, icon: S, description: S, questionID: S,
    startDate: S, endDate: S, createdAt: S, updatedAt: S, outcomes: S, clobTokenIds: S, active: B, closed: B, archived: B,
    'events?': 'array',
  },
  tag: { id: S, label: S, slug: S, createdAt: S, updatedAt: S, requiresTranslation: B },
  series: {
    id: S, ticker: S, slug: S, title: S, seriesType: S, recurrence: S, image: S, icon: S, active: B, closed: B, archived: B,
    createdAt: S, updatedAt: S,
  },
  creator: { id: S, creatorName: S, creatorHandle: S, creatorUrl: S, creatorImage: S, createdAt: S, updatedAt: S },
  searchProfile: { id: S, name: S, pseudonym: S, bio: S, proxyWallet: S, profileImage: S },
  tradingMarket: {
    enable_order_book: B, active: B, closed: B, archived: B, accepting_orders: B, neg_risk: B, notifications_enabled: B,
    is_50_50_outcome: B, itode: B, blockaid_check_enabled: B,
    accepting_order_timestamp: 'string|null', condition_id: S, question_id: S, question: S, description: S, market_slug: S,
    end_date_iso: 'string|null', game_start_time: 'string|null', fpmm: S, neg_risk_market_id: S, neg_risk_request_id: S, icon: S, image: S,
    minimum_order_size: N, minimum_tick_size: N, seconds_delay: N, maker_base_fee: N, taker_base_fee: N, taker_order_delay_ms: N,
    order_age_seconds: N, rewards: 'object', tokens: 'array', tags: 'array',
  },
  tradingDetailExtra: { status: S, market_id: I, slug: S, assets_ids: 'array', outcomes: 'array', event: 'object', raw_metadata: 'object' },
  simplifiedMarket: {
    condition_id: S, status: S, question: S, slug: S, neg_risk: B, active: B, closed: B, archived: B, accepting_orders: B,
    market_id: I, tokens: 'array', rewards: 'object', assets_ids: 'array', outcomes: 'array',
  },
  marketToken: { token_id: S, outcome: S, price: N, winner: B },
  rewards: { rates: 'array|null', min_size: N, max_spread: N },
  page: { data: 'array', next_cursor: S, limit: I, count: I },
  book: {
    market: S, asset_id: S, timestamp: S, hash: S, bids: 'array', asks: 'array', min_order_size: S, tick_size: S,
    neg_risk: B, last_trade_price: S,
  },
  level: { price: S, size: S },
  tradeFill: {
    proxyWallet: S, side: S, asset: S, conditionId: S, size: N, price: N, timestamp: I, usdcSize: N, title: S, slug: S,
    eventSlug: S, outcome: S, icon: S, outcomeIndex: I, name: S, pseudonym: S, bio: S, profileImage: S,
    profileImageOptimized: S, transactionHash: S,
  },
  closedPosition: {
    proxyWallet: S, asset: S, conditionId: S, size: N, avgPrice: N, initialValue: N, currentValue: N, cashPnl: N,
    totalBought: N, realizedPnl: N, percentPnl: N, percentRealizedPnl: N, curPrice: N, redeemable: B, mergeable: B,
    title: S, slug: S, eventSlug: S, outcome: S, oppositeOutcome: S, oppositeAsset: S, icon: S, outcomeIndex: I,
    timestamp: I, endDate: S,
  },
  activity: {
    proxyWallet: S, conditionId: S, transactionHash: S, asset: S, title: S, slug: S, eventSlug: S, outcome: S, name: S,
    pseudonym: S, bio: S, timestamp: I, type: S, size: N, usdcSize: N, price: N, side: S, outcomeIndex: I, icon: S,
    profileImage: S, profileImageOptimized: S,
  },
  holderGroup: { token: S, holders: 'array' },
  holder: {
    proxyWallet: S, bio: S, asset: S, pseudonym: S, name: S, amount: N, displayUsernamePublic: B, outcomeIndex: I,
    profileImage: S, profileImageOptimized: S,
  },
  comment: {
    id: S, body: S, parentEntityType: S, parentEntityID: I, parentCommentID: S, userAddress: S, replyAddress: S,
    createdAt: S, updatedAt: S, profile: 'object', reactions: 'array', reportCount: I, reactionCount: I, replyCount: I,
    replies: 'array',
  },
  commentProfile: {
    name: S, pseudonym: S, bio: S, proxyWallet: S, baseAddress: S, profileImage: S, displayUsernamePublic: B, isMod: B,
    isCreator: B, profileImageOptimized: 'object', positions: 'array',
  },
  reaction: { id: S, commentID: 'integer|string', reactionType: S, icon: S, userAddress: S, createdAt: S },
} satisfies Record<string, Shape>;

export const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const CONDITION_RE = /^0x[0-9a-f]{64}$/;
export const TOKEN_RE = /^[1-9]\d{0,77}$/;
export const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
export const DECIMAL_RE = /^\d+(\.\d+)?$/;
