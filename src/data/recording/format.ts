/**
 * The recording format (described for users in `backtest/README.md`): a text file of JSON lines,
 * gzip-compressed when its name ends in `.gz`. Line 1 is the header; every other line is one
 * market event, in `tsInit` order. Prices and sizes are decimal strings (exact); times are epoch
 * milliseconds. This is the interchange format.
 *
 * A binary form carries the same header and events for fast replay (`clobot import --to-binary`
 * converts either way); readers tell the two apart by their first bytes, and a gzip wrapper by
 * its magic bytes, whatever the file is called. Its layout is documented in `binary-codec.ts`.
 */

import type { ListedMarket } from '../../core/events.ts';
import type { EventInfo } from '../../core/types.ts';

export const RECORDING_FORMAT = 'clobot-recording';
/**
 * Version 2 added the market lifecycle events `close` and `resolve` and the `market` event (a
 * market that joined after the start; version 2 was not released before it, so it was not bumped
 * again). A version-1 file has none and reads the same; a reader refuses a version newer than its own.
 * Version 3 added `walletTrade` (a followed wallet's trade, `data.wallets`), and under the same bump
 * the venue's own events: `fee` (a token's fee rates changed) and `clear` (a sports market's book
 * cleared at its game start), with the header's `gameStartTime` on a market. A version-2 file
 * reads unchanged.
 */
export const RECORDING_VERSION = 3;

/** One market as it was when the recording started, or when it joined (a `market` event): rules the backtest needs. */
export type RecordedMarket = ListedMarket;

export interface RecordingHeader {
  readonly format: typeof RECORDING_FORMAT;
  readonly version: number;
  /** Epoch ms when the recording started. */
  readonly createdAt: number;
  /** Where the events came from: a venue URL, `import:<file>`, `journal:<file>`. */
  readonly source: string;
  readonly markets: readonly RecordedMarket[];
  /**
   * The events the markets belong to (id, slug, title, the neg-risk and augmented flags, and every
   * market the event lists); a market takes the event listing its condition id. Optional: older
   * recordings (and imported quotes) have none, and read the same.
   */
  readonly events?: readonly EventInfo[];
  /**
   * The median time between two updates of one market in the source, ms: set by `clobot import`
   * of sampled quotes (some 2 minutes for the third-party data), absent for a recording of a venue.
   * A backtest warns when it is longer than the config's `risk.staleBookMs`. Optional: reads the same without.
   */
  readonly medianUpdateMs?: number;
}

/** `[price, size]` as decimal strings. */
export type RecordedLevel = readonly [string, string];

export type RecordedEvent =
  | {
      readonly t: 'book';
      readonly tsEvent: number;
      readonly tsInit: number;
      readonly tokenId: string;
      readonly conditionId: string;
      readonly hash: string;
      readonly bids: readonly RecordedLevel[];
      readonly asks: readonly RecordedLevel[];
      readonly tickSize?: string;
      readonly minOrderSize?: string;
      readonly negRisk?: boolean;
      readonly lastTradePrice?: string;
    }
  | {
      readonly t: 'prices';
      readonly tsEvent: number;
      readonly tsInit: number;
      readonly prices: readonly { readonly tokenId: string; readonly buy?: string; readonly sell?: string }[];
    }
  | {
      readonly t: 'trade';
      readonly tsEvent: number;
      readonly tsInit: number;
      readonly tokenId: string;
      readonly price: string;
      readonly size: string;
      readonly side: 'BUY' | 'SELL';
    }
  | { readonly t: 'tick'; readonly tsEvent: number; readonly tsInit: number; readonly tokenId: string; readonly tickSize: string }
  /** The market closed to trading (version 2). */
  | { readonly t: 'close'; readonly tsEvent: number; readonly tsInit: number; readonly conditionId: string; readonly tokenIds: readonly string[] }
  /** The market resolved: `winner` pays 1, the other token 0; null: no winner, each pays 0.5 (version 2). */
  | {
      readonly t: 'resolve';
      readonly tsEvent: number;
      readonly tsInit: number;
      readonly conditionId: string;
      readonly tokenIds: readonly string[];
      readonly winner: string | null;
    }
  /**
   * A trade of a followed wallet (version 3; `data.wallets`): `tsEvent` is the trade's venue time,
   * `tsInit` when the run read it. Its token may lie outside the recorded markets.
   */
  | {
      readonly t: 'walletTrade';
      readonly tsEvent: number;
      readonly tsInit: number;
      readonly wallet: string;
      readonly txHash: string;
      readonly tokenId: string;
      readonly conditionId: string;
      readonly side: 'BUY' | 'SELL';
      readonly price: string;
      readonly size: string;
    }
  /** A market joined the recording (version 2): later events may name its tokens. */
  | { readonly t: 'market'; readonly tsEvent: number; readonly tsInit: number; readonly market: RecordedMarket }
  /** A token's fee rates changed at the venue, basis points (version 3). */
  | { readonly t: 'fee'; readonly tsEvent: number; readonly tsInit: number; readonly tokenId: string; readonly takerBps: number; readonly makerBps: number }
  /** The venue cleared the market's book at its game start: every resting order cancelled (version 3). */
  | { readonly t: 'clear'; readonly tsEvent: number; readonly tsInit: number; readonly conditionId: string; readonly tokenIds: readonly string[] };

/** The two on-disk forms of a recording. */
export type RecordingForm = 'text' | 'binary';
