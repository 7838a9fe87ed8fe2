import type {
  WireEvent,
  WireEventCreator,
  WireEventSummary,
  WireMetadataMarket,
  WireSearchProfile,
  WireSeries,
  WireTag,
} from '../../venue/wire/metadata.ts';
import { isoTime } from '../world/ids.ts';
import type { SandboxCreator, SandboxEvent, SandboxMarket, SandboxSeries, SandboxTag, SandboxWallet } from '../world/model.ts';

/** World objects in the metadata routes' wire shapes (interface 2.7-2.9). */

export function toEventSummary(e: SandboxEvent): WireEventSummary {
  return {
    id: e.id,
    ticker: e.ticker,
    slug: e.slug,
    title: e.title,
    description: e.description,
    resolutionSource: e.resolutionSource,
    image: e.image,
    icon: e.icon,
    startDate: isoTime(e.startDate),
    creationDate: isoTime(e.creationDate),
    endDate: isoTime(e.endDate),
    createdAt: isoTime(e.createdAt),
    updatedAt: isoTime(e.updatedAt),
    active: e.active,
    closed: e.closed,
    archived: e.archived,
    negRisk: e.negRisk,
    enableNegRisk: e.negRisk,
    negRiskAugmented: e.negRiskAugmented,
  };
}

/** JSON text of a string array with the venue's `", "` separator: `["Yes", "No"]`. */
function jsonList(items: readonly string[]): string {
  return `[${items.map((s) => JSON.stringify(s)).join(', ')}]`;
}

/** Market, metadata form; `events` only on the single-market routes (4.5). */
export function toMetadataMarket(m: SandboxMarket, withEvents: boolean): WireMetadataMarket {
  const out: WireMetadataMarket = {
    id: m.id,
    question: m.question,
    conditionId: m.conditionId,
    slug: m.slug,
    resolutionSource: m.resolutionSource,
    image: m.image,
    icon: m.icon,
    description: m.description,
    questionID: m.questionId,
    startDate: isoTime(m.startDate),
    endDate: isoTime(m.endDate),
    createdAt: isoTime(m.createdAt),
    updatedAt: isoTime(m.updatedAt),
    outcomes: jsonList(m.outcomes),
    clobTokenIds: jsonList(m.tokens.map((t) => t.tokenId)),
    active: m.active,
    closed: m.closed,
    archived: m.archived,
  };
  if (withEvents) out.events = [toEventSummary(m.event)];
  return out;
}

export function toTag(t: SandboxTag): WireTag {
  return { id: t.id, label: t.label, slug: t.slug, createdAt: isoTime(t.createdAt), updatedAt: isoTime(t.updatedAt), requiresTranslation: false };
}

export function toSeries(s: SandboxSeries): WireSeries {
  return {
    id: s.id,
    ticker: s.ticker,
    slug: s.slug,
    title: s.title,
    seriesType: s.seriesType,
    recurrence: s.recurrence,
    image: s.image,
    icon: s.icon,
    active: s.active,
    closed: s.closed,
    archived: false,
    createdAt: isoTime(s.createdAt),
    updatedAt: isoTime(s.updatedAt),
  };
}

/** Event, full form (2.8). */
export function toEvent(e: SandboxEvent): WireEvent {
  return {
    ...toEventSummary(e),
    tags: e.tags.map(toTag),
    markets: e.markets.map((m) => toMetadataMarket(m, false)),
    series: e.series ? [toSeries(e.series)] : [],
    eventMetadata: {},
  };
}

export function toCreator(c: SandboxCreator): WireEventCreator {
  return {
    id: c.id,
    creatorName: c.creatorName,
    creatorHandle: c.creatorHandle,
    creatorUrl: c.creatorUrl,
    creatorImage: c.creatorImage,
    createdAt: isoTime(c.createdAt),
    updatedAt: isoTime(c.updatedAt),
  };
}

export function toSearchProfile(w: SandboxWallet): WireSearchProfile {
  return {
    id: String(w.index + 1),
    name: w.name,
    pseudonym: w.pseudonym,
    bio: w.bio,
    proxyWallet: w.address,
    profileImage: w.profileImage,
  };
}
