/**
 * Wire types of the metadata routes (interface 2.7-2.9, 4.5, 4.9; PROTOCOL "routes whose shapes
 * the interface does not show"). Field names and JSON types exactly as the venue sends them.
 * Numbers on these routes are JSON numbers; date-times are ISO 8601 strings.
 */

/** Event summary, embedded in single-market answers (2.7 `events`). */
export interface WireEventSummary {
  id: string;
  ticker: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  image: string;
  icon: string;
  startDate: string;
  creationDate: string;
  endDate: string;
  createdAt: string;
  updatedAt: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  /** Neg-risk flags of the event (the real venue's metadata sends them; older payloads may not). */
  negRisk?: boolean;
  enableNegRisk?: boolean;
  /** The event has an implicit, unlisted "Other" outcome. */
  negRiskAugmented?: boolean;
}

/** Market, metadata form (2.7). `outcomes` and `clobTokenIds` are JSON-encoded string arrays. */
export interface WireMetadataMarket {
  id: string;
  question: string;
  conditionId: string;
  slug: string;
  resolutionSource: string;
  image: string;
  icon: string;
  description: string;
  questionID: string;
  startDate: string;
  endDate: string;
  createdAt: string;
  updatedAt: string;
  /** JSON text of an array of outcome names, e.g. `"[\"Yes\", \"No\"]"`. */
  outcomes: string;
  /** JSON text of an array of token ids (decimal strings). */
  clobTokenIds: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  /** Present on the single-market routes of 4.5. */
  events?: WireEventSummary[];
}

export interface WireTag {
  id: string;
  label: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  requiresTranslation: boolean;
}

export interface WireSeries {
  id: string;
  ticker: string;
  slug: string;
  title: string;
  seriesType: string;
  recurrence: string;
  image: string;
  icon: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Event, full form (2.8): the summary plus tags, markets, series and eventMetadata. */
export interface WireEvent extends WireEventSummary {
  tags: WireTag[];
  markets: WireMetadataMarket[];
  series: WireSeries[];
  eventMetadata: Record<string, unknown>;
}

/** Event creator (2.9). */
export interface WireEventCreator {
  id: string;
  creatorName: string;
  creatorHandle: string;
  creatorUrl: string;
  creatorImage: string;
  createdAt: string;
  updatedAt: string;
}

/** Public profile as returned by `GET /public-search`. */
export interface WireSearchProfile {
  id: string;
  name: string;
  pseudonym: string;
  bio: string;
  proxyWallet: string;
  profileImage: string;
}

/** `GET /public-search` answer. */
export interface WirePublicSearch {
  events: WireEvent[];
  tags: WireTag[];
  profiles: WireSearchProfile[];
}
