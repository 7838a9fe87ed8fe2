import type { TokenId } from '../core/types.ts';

/**
 * What a market-data source says about itself (not market data): the WS connections it holds and
 * how its watchdog handled a silent subscription. The app logs them and counts them in the run
 * summary (`marketData`).
 *
 * - `FeedConnected`: a WS connection opened and sent its subscription (`connection` numbers the
 *   source's connections from 1; `attempt` counts the opens of that connection, 1 = first).
 * - `FeedSplit`: the assets need more than one connection at `maxAssetsPerConnection` each.
 * - `FeedSilent`: no market message on a connection for `silentMs` (PONGs do not count): the
 *   watchdog resubscribed its assets (fresh snapshots), or, silent again right after a
 *   resubscription, dropped and remade the connection; either way it asked for the books by REST.
 * - `FeedRefreshed`: the REST books of a silent connection's assets arrived (`books` of them).
 */
export type FeedEvent =
  | { readonly type: 'FeedConnected'; readonly connection: number; readonly attempt: number; readonly tokenIds: readonly TokenId[]; readonly tsInit: number }
  | { readonly type: 'FeedSplit'; readonly connections: number; readonly assets: number; readonly maxAssetsPerConnection: number; readonly tsInit: number }
  | {
      readonly type: 'FeedSilent';
      readonly connection: number;
      readonly tokenIds: readonly TokenId[];
      readonly silentMs: number;
      readonly action: 'resubscribe' | 'reconnect';
      readonly tsInit: number;
    }
  | { readonly type: 'FeedRefreshed'; readonly connection: number; readonly books: number; readonly tsInit: number };
