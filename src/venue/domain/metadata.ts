import type { Micros } from '../../core/fixed.ts';
import type { ConditionId, TokenId } from '../../core/types.ts';

/**
 * Domain types of the metadata routes (2.7-2.9, PROTOCOL's event/tag/search routes). Dates are
 * epoch milliseconds; a field the venue left out, or sent as null, is undefined. Real payloads
 * carry many more fields than the interface names; only the interface's fields (and a few that
 * trading needs) are kept.
 */

export interface EventSummary {
  readonly id: string;
  readonly ticker: string | undefined;
  readonly slug: string;
  readonly title: string;
  readonly description: string | undefined;
  readonly resolutionSource: string | undefined;
  readonly image: string | undefined;
  readonly icon: string | undefined;
  readonly startDate: number | undefined;
  readonly creationDate: number | undefined;
  readonly endDate: number | undefined;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
  readonly active: boolean | undefined;
  readonly closed: boolean | undefined;
  readonly archived: boolean | undefined;
  /** Beyond the interface, sent by the venue on events (undefined when absent): mutually exclusive outcomes. */
  readonly negRisk: boolean | undefined;
  readonly enableNegRisk: boolean | undefined;
  /** The event has an implicit "Other" outcome no market lists. */
  readonly negRiskAugmented: boolean | undefined;
}

/** Market, metadata form (2.7). `outcomes` and `clobTokenIds` decoded from their JSON text. */
export interface MetadataMarket {
  readonly id: string;
  readonly question: string;
  readonly conditionId: ConditionId;
  readonly slug: string;
  readonly resolutionSource: string | undefined;
  readonly image: string | undefined;
  readonly icon: string | undefined;
  readonly description: string | undefined;
  readonly questionId: string | undefined;
  readonly startDate: number | undefined;
  readonly endDate: number | undefined;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
  readonly outcomes: readonly string[];
  readonly clobTokenIds: readonly TokenId[];
  readonly active: boolean | undefined;
  readonly closed: boolean | undefined;
  readonly archived: boolean | undefined;
  /** Beyond the interface, sent by the venue and useful to trading (undefined when absent). */
  readonly enableOrderBook: boolean | undefined;
  readonly acceptingOrders: boolean | undefined;
  readonly negRisk: boolean | undefined;
  readonly tickSize: Micros | undefined;
  readonly minOrderSize: Micros | undefined;
  /** Present on the single-market routes. */
  readonly events: readonly EventSummary[] | undefined;
}

export interface Tag {
  readonly id: string;
  readonly label: string;
  readonly slug: string;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
  readonly requiresTranslation: boolean | undefined;
}

export interface Series {
  readonly id: string;
  readonly ticker: string | undefined;
  readonly slug: string;
  readonly title: string;
  readonly seriesType: string | undefined;
  readonly recurrence: string | undefined;
  readonly image: string | undefined;
  readonly icon: string | undefined;
  readonly active: boolean | undefined;
  readonly closed: boolean | undefined;
  readonly archived: boolean | undefined;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
}

/** Event, full form (2.8). Lists the venue left out are empty. */
export interface VenueEvent extends EventSummary {
  readonly tags: readonly Tag[];
  readonly markets: readonly MetadataMarket[];
  readonly series: readonly Series[];
  readonly eventMetadata: Readonly<Record<string, unknown>> | undefined;
}

export interface EventCreator {
  readonly id: string;
  readonly creatorName: string | undefined;
  readonly creatorHandle: string | undefined;
  readonly creatorUrl: string | undefined;
  readonly creatorImage: string | undefined;
  readonly createdAt: number | undefined;
  readonly updatedAt: number | undefined;
}

export interface SearchProfile {
  readonly id: string | undefined;
  readonly name: string | undefined;
  readonly pseudonym: string | undefined;
  readonly bio: string | undefined;
  readonly proxyWallet: string | undefined;
  readonly profileImage: string | undefined;
}

/** `GET /public-search`. */
export interface SearchResults {
  readonly events: readonly VenueEvent[];
  readonly tags: readonly Tag[];
  readonly profiles: readonly SearchProfile[];
}
