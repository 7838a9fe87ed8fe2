import type { EventCreator, EventSummary, MetadataMarket, SearchProfile, SearchResults, Series, Tag, VenueEvent } from '../domain/metadata.ts';
import {
  asObj,
  at,
  jsonStrings,
  list,
  mapArray,
  type Obj,
  optBool,
  optDate,
  optId,
  optMicros,
  optRecord,
  optStr,
  reqId,
  reqStr,
} from './fields.ts';

/**
 * Decoders of metadata (interface 2.7-2.9): markets, events, tags, series, search.
 */

function decodeEventSummaryFields(o: Obj, path: string): EventSummary {
  return {
    id: reqId(o, path, 'id'),
    ticker: optStr(o, path, 'ticker'),
    slug: reqStr(o, path, 'slug'),
    title: reqStr(o, path, 'title'),
    description: optStr(o, path, 'description'),
    resolutionSource: optStr(o, path, 'resolutionSource'),
    image: optStr(o, path, 'image'),
    icon: optStr(o, path, 'icon'),
    startDate: optDate(o, path, 'startDate'),
    creationDate: optDate(o, path, 'creationDate'),
    endDate: optDate(o, path, 'endDate'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    active: optBool(o, path, 'active'),
    closed: optBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived'),
    negRisk: optBool(o, path, 'negRisk'),
    enableNegRisk: optBool(o, path, 'enableNegRisk'),
    negRiskAugmented: optBool(o, path, 'negRiskAugmented'),
  };
}

export function decodeEventSummary(value: unknown, path = 'event'): EventSummary {
  return decodeEventSummaryFields(asObj(value, path), path);
}

/** Market, metadata form (2.7): the single-market routes and the markets inside events. */
export function decodeMetadataMarket(value: unknown, path = 'market'): MetadataMarket {
  const o = asObj(value, path);
  const events = o['events'];
  return {
    id: reqId(o, path, 'id'),
    question: reqStr(o, path, 'question'),
    conditionId: reqStr(o, path, 'conditionId'),
    slug: reqStr(o, path, 'slug'),
    resolutionSource: optStr(o, path, 'resolutionSource'),
    image: optStr(o, path, 'image'),
    icon: optStr(o, path, 'icon'),
    description: optStr(o, path, 'description'),
    questionId: optStr(o, path, 'questionID', 'questionId'),
    startDate: optDate(o, path, 'startDate'),
    endDate: optDate(o, path, 'endDate'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    outcomes: jsonStrings(o, path, 'outcomes'),
    clobTokenIds: jsonStrings(o, path, 'clobTokenIds'),
    active: optBool(o, path, 'active'),
    closed: optBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived'),
    enableOrderBook: optBool(o, path, 'enableOrderBook'),
    acceptingOrders: optBool(o, path, 'acceptingOrders'),
    negRisk: optBool(o, path, 'negRisk'),
    tickSize: optMicros(o, path, 'orderPriceMinTickSize'),
    minOrderSize: optMicros(o, path, 'orderMinSize'),
    events: events === undefined || events === null ? undefined : mapArray(events, at(path, 'events'), decodeEventSummary),
  };
}

export function decodeTag(value: unknown, path = 'tag'): Tag {
  const o = asObj(value, path);
  return {
    id: reqId(o, path, 'id'),
    label: optStr(o, path, 'label') ?? '',
    slug: optStr(o, path, 'slug') ?? '',
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
    requiresTranslation: optBool(o, path, 'requiresTranslation'),
  };
}

function decodeSeries(value: unknown, path: string): Series {
  const o = asObj(value, path);
  return {
    id: reqId(o, path, 'id'),
    ticker: optStr(o, path, 'ticker'),
    slug: reqStr(o, path, 'slug'),
    title: optStr(o, path, 'title') ?? '',
    seriesType: optStr(o, path, 'seriesType'),
    recurrence: optStr(o, path, 'recurrence'),
    image: optStr(o, path, 'image'),
    icon: optStr(o, path, 'icon'),
    active: optBool(o, path, 'active'),
    closed: optBool(o, path, 'closed'),
    archived: optBool(o, path, 'archived'),
    createdAt: optDate(o, path, 'createdAt'),
    updatedAt: optDate(o, path, 'updatedAt'),
  };
}

/** Event, full form (2.8). */
export function decodeEvent(value: unknown, path = 'event'): VenueEvent {
  const o = asObj(value, path);
  return {
    ...decodeEventSummaryFields(o, path),
    tags: list(o, path, 'tags', decodeTag),
    markets: list(o, path, 'markets', decodeMetadataMarket),
    series: list(o, path, 'series', decodeSeries),
    eventMetadata: optRecord(o, path, 'eventMetadata'),
  };
}

/** `GET /events`. */
export function decodeEvents(value: unknown): VenueEvent[] {
  return mapArray(value, 'events', decodeEvent);
}

/** `GET /tags`. */
export function decodeTags(value: unknown): Tag[] {
  return mapArray(value, 'tags', decodeTag);
}

/** `GET /events/creators`. */
export function decodeEventCreators(value: unknown): EventCreator[] {
  return mapArray(value, 'creators', (v, path): EventCreator => {
    const o = asObj(v, path);
    return {
      id: reqId(o, path, 'id'),
      creatorName: optStr(o, path, 'creatorName'),
      creatorHandle: optStr(o, path, 'creatorHandle'),
      creatorUrl: optStr(o, path, 'creatorUrl'),
      creatorImage: optStr(o, path, 'creatorImage'),
      createdAt: optDate(o, path, 'createdAt'),
      updatedAt: optDate(o, path, 'updatedAt'),
    };
  });
}

/** `GET /public-search`: `{events, tags, profiles}`, each list possibly absent or null. */
export function decodeSearchResults(value: unknown): SearchResults {
  const o = asObj(value, 'search');
  return {
    events: list(o, 'search', 'events', decodeEvent),
    tags: list(o, 'search', 'tags', decodeTag),
    profiles: list(o, 'search', 'profiles', (v, path): SearchProfile => {
      const p = asObj(v, path);
      return {
        id: optId(p, path, 'id'),
        name: optStr(p, path, 'name'),
        pseudonym: optStr(p, path, 'pseudonym'),
        bio: optStr(p, path, 'bio'),
        proxyWallet: optStr(p, path, 'proxyWallet', 'proxy_wallet'),
        profileImage: optStr(p, path, 'profileImage', 'profile_image'),
      };
    }),
  };
}
