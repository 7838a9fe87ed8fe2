import type { CallOptions, VenueClient } from '../client.ts';
import { decodePositions } from '../decode.ts';
import type { VenuePosition } from '../domain/account.ts';
import { toQuery } from '../params.ts';
import { requestJson } from '../request.ts';

export interface GetPositionsParams {
  /** Wallet address (required): the funder that holds the tokens. */
  readonly user: string;
  /** Condition ids (not with `eventId`). */
  readonly market?: readonly string[];
  readonly eventId?: readonly string[];
  /** Smallest size listed, >= 0; the venue's default is 1. */
  readonly sizeThreshold?: number;
  readonly redeemable?: boolean;
  readonly mergeable?: boolean;
  /** 0..500, the venue's default 100. */
  readonly limit?: number;
  /** 0..10000. */
  readonly offset?: number;
  readonly sortBy?: 'CURRENT' | 'INITIAL' | 'TOKENS' | 'CASHPNL' | 'PERCENTPNL' | 'TITLE' | 'RESOLVING' | 'PRICE' | 'AVGPRICE';
  readonly sortDirection?: 'ASC' | 'DESC';
  /** Substring of the market title, at most 100 characters. */
  readonly title?: string;
}

/** `GET /positions?user=`: a wallet's current positions from the analytics API (docs/protocol-additions.md). */
export async function getPositions(client: VenueClient, params: GetPositionsParams, options: CallOptions = {}): Promise<VenuePosition[]> {
  const { value } = await requestJson(client, {
    route: 'getPositions',
    query: toQuery({
      user: params.user,
      market: params.market,
      eventId: params.eventId,
      sizeThreshold: params.sizeThreshold,
      redeemable: params.redeemable,
      mergeable: params.mergeable,
      limit: params.limit,
      offset: params.offset,
      sortBy: params.sortBy,
      sortDirection: params.sortDirection,
      title: params.title,
    }),
    ...options,
  });
  return decodePositions(value);
}

/** Largest page of `GET /positions`. */
export const POSITIONS_PAGE = 500;

/**
 * Every position of a wallet with a size above zero: pages of POSITIONS_PAGE (sorted by tokens,
 * size threshold 0) until a short page, at most the route's offset range (10,500 positions).
 */
export async function getAllPositions(client: VenueClient, user: string, options: CallOptions = {}): Promise<VenuePosition[]> {
  const out: VenuePosition[] = [];
  for (let offset = 0; offset <= 10_000; offset += POSITIONS_PAGE) {
    const page = await getPositions(client, { user, sizeThreshold: 0, limit: POSITIONS_PAGE, offset, sortBy: 'TOKENS', sortDirection: 'DESC' }, options);
    for (const p of page) if (p.size > 0) out.push(p);
    if (page.length < POSITIONS_PAGE) break;
  }
  return out;
}
