/**
 * Interface part 2 (and PROTOCOL's shapes for the routes the interface does not show) as data:
 * for each resource, every field with its JSON type. `checkShape` lists every field that is
 * missing or of another type, so a contract test shows all the differences at once.
 */
export type FieldType =
  | 'string'
  | 'number'
  | 'integer'
  | 'boolean'
  | 'date-time'
  | 'json-string-array'
  | 'string[]'
  | 'object'
  | 'array'
  | Shape
  | readonly [Shape]
  | OrNull;

/**
 * A field the wire types declare as `T | null` (src/venue/wire/*.ts): captured venue payloads
 * send null there, and so does the sandbox. Present either way.
 */
export class OrNull {
  constructor(readonly type: FieldType) {}
}
const orNull = (type: FieldType): OrNull => new OrNull(type);

export interface Shape {
  readonly [field: string]: FieldType;
}

const s = 'string';
const n = 'number';
const i = 'integer';
const b = 'boolean';
const dt = 'date-time';

/** 2.1 page envelope (its `data` items are checked separately). */
export const PAGE: Shape = { data: 'array', next_cursor: s, limit: i, count: i };

/** 2.2 */
export const TRADE_FILL: Shape = {
  proxyWallet: s,
  side: s,
  asset: s,
  conditionId: s,
  size: n,
  price: n,
  timestamp: i,
  usdcSize: n,
  title: s,
  slug: s,
  eventSlug: s,
  outcome: s,
  icon: s,
  outcomeIndex: i,
  name: s,
  pseudonym: s,
  bio: s,
  profileImage: s,
  profileImageOptimized: s,
  transactionHash: s,
};

/** 2.3 */
export const CLOSED_POSITION: Shape = {
  proxyWallet: s,
  asset: s,
  conditionId: s,
  size: n,
  avgPrice: n,
  initialValue: n,
  currentValue: n,
  cashPnl: n,
  totalBought: n,
  realizedPnl: n,
  percentPnl: n,
  percentRealizedPnl: n,
  curPrice: n,
  redeemable: b,
  mergeable: b,
  title: s,
  slug: s,
  eventSlug: s,
  outcome: s,
  oppositeOutcome: s,
  oppositeAsset: s,
  icon: s,
  outcomeIndex: i,
  timestamp: i,
  endDate: dt,
};

/** 2.4 */
export const ACTIVITY: Shape = {
  proxyWallet: s,
  conditionId: s,
  transactionHash: s,
  asset: s,
  title: s,
  slug: s,
  eventSlug: s,
  outcome: s,
  name: s,
  pseudonym: s,
  bio: s,
  timestamp: i,
  type: s,
  size: n,
  usdcSize: n,
  price: n,
  side: s,
  outcomeIndex: i,
  icon: s,
  profileImage: s,
  profileImageOptimized: s,
};

/** 2.5 */
export const HOLDER: Shape = {
  proxyWallet: s,
  bio: s,
  asset: s,
  pseudonym: s,
  name: s,
  amount: n,
  displayUsernamePublic: b,
  outcomeIndex: i,
  profileImage: s,
  profileImageOptimized: s,
};
export const HOLDER_GROUP: Shape = { token: s, holders: [HOLDER] };

/** 2.6 */
export const COMMENT_PROFILE: Shape = {
  name: s,
  pseudonym: s,
  bio: s,
  proxyWallet: s,
  baseAddress: s,
  profileImage: s,
  displayUsernamePublic: b,
  isMod: b,
  isCreator: b,
  profileImageOptimized: 'object',
  positions: [{ tokenId: s, positionSize: s }],
};
export const COMMENT: Shape = {
  id: s,
  body: s,
  parentEntityType: s,
  parentEntityID: i,
  parentCommentID: s,
  userAddress: s,
  replyAddress: s,
  createdAt: dt,
  updatedAt: dt,
  profile: COMMENT_PROFILE,
  reactions: 'array',
  reportCount: i,
  reactionCount: i,
  replyCount: i,
  replies: 'array',
};

/** 2.7 event summary */
export const EVENT_SUMMARY: Shape = {
  id: s,
  ticker: s,
  slug: s,
  title: s,
  description: s,
  resolutionSource: s,
  image: s,
  icon: s,
  startDate: dt,
  creationDate: dt,
  endDate: dt,
  createdAt: dt,
  updatedAt: dt,
  active: b,
  closed: b,
  archived: b,
};

/** 2.7 market, metadata form, without `events` (as inside an event). */
export const METADATA_MARKET: Shape = {
  id: s,
  question: s,
  conditionId: s,
  slug: s,
  resolutionSource: s,
  image: s,
  icon: s,
  description: s,
  questionID: s,
  startDate: dt,
  endDate: dt,
  createdAt: dt,
  updatedAt: dt,
  outcomes: 'json-string-array',
  clobTokenIds: 'json-string-array',
  active: b,
  closed: b,
  archived: b,
};
/** 2.7 on the single-market routes of 4.5: with `events`. */
export const METADATA_MARKET_SINGLE: Shape = { ...METADATA_MARKET, events: [EVENT_SUMMARY] };

/** 2.8 */
export const TAG: Shape = { id: s, label: s, slug: s, createdAt: dt, updatedAt: dt, requiresTranslation: b };
export const SERIES: Shape = {
  id: s,
  ticker: s,
  slug: s,
  title: s,
  seriesType: s,
  recurrence: s,
  image: s,
  icon: s,
  active: b,
  closed: b,
  archived: b,
  createdAt: dt,
  updatedAt: dt,
};
export const EVENT: Shape = {
  ...EVENT_SUMMARY,
  tags: [TAG],
  markets: [METADATA_MARKET],
  series: [SERIES],
  eventMetadata: 'object',
};

/** 2.9 */
export const EVENT_CREATOR: Shape = {
  id: s,
  creatorName: s,
  creatorHandle: s,
  creatorUrl: s,
  creatorImage: s,
  createdAt: dt,
  updatedAt: dt,
};

/** 2.10 */
const REWARDS: Shape = { rates: orNull([{ asset_address: s, rewards_daily_rate: n }]), min_size: n, max_spread: n };
const MARKET_TOKEN: Shape = { token_id: s, outcome: s, price: n, winner: b };
export const TRADING_MARKET: Shape = {
  enable_order_book: b,
  active: b,
  closed: b,
  archived: b,
  accepting_orders: b,
  neg_risk: b,
  notifications_enabled: b,
  is_50_50_outcome: b,
  itode: b,
  blockaid_check_enabled: b,
  accepting_order_timestamp: orNull(s),
  condition_id: s,
  question_id: s,
  question: s,
  description: s,
  market_slug: s,
  end_date_iso: orNull(s),
  game_start_time: orNull(s),
  fpmm: s,
  neg_risk_market_id: s,
  neg_risk_request_id: s,
  icon: s,
  image: s,
  minimum_order_size: n,
  minimum_tick_size: n,
  seconds_delay: n,
  maker_base_fee: n,
  taker_base_fee: n,
  taker_order_delay_ms: n,
  order_age_seconds: n,
  rewards: REWARDS,
  tokens: [MARKET_TOKEN],
  tags: orNull('string[]'),
};
/** Fields present only on the sampling list and the single-market route. */
export const TRADING_MARKET_EXTRA: Shape = {
  status: s,
  market_id: i,
  slug: s,
  assets_ids: 'string[]',
  outcomes: 'string[]',
  event: { id: s, slug: s, title: s, ticker: s, description: s },
  raw_metadata: 'object',
};
export const TRADING_MARKET_DETAIL: Shape = { ...TRADING_MARKET, ...TRADING_MARKET_EXTRA };

/** 2.11 */
export const SIMPLIFIED_MARKET: Shape = {
  condition_id: s,
  status: s,
  question: s,
  slug: s,
  neg_risk: b,
  active: b,
  closed: b,
  archived: b,
  accepting_orders: b,
  market_id: i,
  tokens: [MARKET_TOKEN],
  rewards: REWARDS,
  assets_ids: 'string[]',
  outcomes: 'string[]',
};

/** 2.12 */
const LEVEL: Shape = { price: s, size: s };
export const ORDER_BOOK: Shape = {
  market: s,
  asset_id: s,
  timestamp: s,
  hash: s,
  min_order_size: s,
  tick_size: s,
  last_trade_price: s,
  bids: [LEVEL],
  asks: [LEVEL],
  neg_risk: b,
};

/** 2.13, one value of the map. */
export const PRICE_PAIR: Shape = { BUY: s, SELL: s };

/** PROTOCOL's small routes. */
export const PRICE: Shape = { price: s };
export const MIDPOINT: Shape = { mid: s };
export const PRICE_POINT: Shape = { t: i, p: n };
export const PRICES_HISTORY: Shape = { history: [PRICE_POINT] };
export const TICK_SIZE: Shape = { minimum_tick_size: n };
export const NEG_RISK: Shape = { neg_risk: b };
export const FEE_RATE: Shape = { base_fee: n };
export const VERSION: Shape = { version: n };
export const SEARCH: Shape = { events: [EVENT], tags: [TAG], profiles: 'array' };

function typeOk(value: unknown, type: Exclude<FieldType, Shape | readonly [Shape] | OrNull>): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date-time':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
    case 'json-string-array': {
      if (typeof value !== 'string') return false;
      try {
        const parsed: unknown = JSON.parse(value);
        return Array.isArray(parsed) && parsed.every((x) => typeof x === 'string');
      } catch {
        return false;
      }
    }
    case 'string[]':
      return Array.isArray(value) && value.every((x) => typeof x === 'string');
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
  }
}

/** Every field of `shape` missing from `value` or of the wrong type, as `path: problem` lines. */
export function checkShape(value: unknown, shape: Shape, path: string, problems: string[] = []): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${path}: expected an object`);
    return problems;
  }
  const o = value as Record<string, unknown>;
  for (const [field, type] of Object.entries(shape)) {
    checkField(o, field, type, `${path}.${field}`, problems);
  }
  return problems;
}

function checkField(o: Record<string, unknown>, field: string, type: FieldType, p: string, problems: string[]): void {
  const v = o[field];
  if (!(field in o)) {
    problems.push(`${p}: missing`);
  } else if (type instanceof OrNull) {
    if (v !== null) checkField(o, field, type.type, p, problems);
  } else if (Array.isArray(type)) {
    if (!Array.isArray(v)) problems.push(`${p}: expected an array, got ${JSON.stringify(v)}`);
    else v.forEach((item, k) => checkShape(item, type[0] as Shape, `${p}[${k}]`, problems));
  } else if (typeof type === 'object') {
    checkShape(v, type as Shape, p, problems);
  } else if (!typeOk(v, type)) {
    problems.push(`${p}: expected ${type as string}, got ${JSON.stringify(v)?.slice(0, 60)}`);
  }
}

/** `checkShape` over every element of an array answer. */
export function checkArray(value: unknown, shape: Shape, path: string): string[] {
  if (!Array.isArray(value)) return [`${path}: expected an array`];
  const problems: string[] = [];
  value.forEach((item, k) => checkShape(item, shape, `${path}[${k}]`, problems));
  return problems;
}
