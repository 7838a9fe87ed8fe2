import { exhaustMap, from, Observable, timer } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import type { MarketEvent } from '../core/events.ts';
import type { ConditionId, Side, TokenId, WalletTrade } from '../core/types.ts';
import { WalletTradeDedupe, type WalletRow } from './wallet-trade-dedupe.ts';

/** One fill of a followed wallet as the venue's analytics show it (decoded, numbers as sent). */
export interface WalletFeedRow extends WalletRow {
  /** Lowercase 0x address. */
  readonly wallet: string;
  readonly conditionId: ConditionId;
  readonly outcomeIndex: number | undefined;
  readonly side: Side;
}

/** The token a row names, with its market. */
export interface WalletRowToken {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
}

export interface WalletActivityOptions {
  readonly clock: Clock;
  /** Lowercase 0x addresses, each followed on its own. */
  readonly wallets: readonly string[];
  /** A round polls every wallet once (one request at a time, paced by the route's rate budget); rounds start this often, ms. */
  readonly pollMs: number;
  /** Rows per request. */
  readonly pageSize: number;
  /** Further pages read in one round while every row of a page is new (a wallet that traded more than a page since the last round). */
  readonly maxPages: number;
  /**
   * One page of a wallet's fills, newest first, from row `offset`; `full` when the venue gave the
   * whole `limit` (rows it gave that are not fills, left out of `rows`, count too).
   */
  readonly fetchPage: (wallet: string, limit: number, offset: number) => Promise<{ readonly rows: readonly WalletFeedRow[]; readonly full: boolean }>;
  /** The token a row's `asset` names; undefined: it cannot be known (the row is skipped and reported). */
  readonly tokenOf: (row: WalletFeedRow) => Promise<WalletRowToken | undefined>;
  /**
   * Deliver the fills the first round finds (the wallet's recent history) too; default false:
   * fills from the second the source started on are delivered (the venue's times are whole
   * seconds, so a fill up to a second before the start may be among them), older ones are only
   * learnt.
   */
  readonly backfill?: boolean;
  /** A failed request or a row that names no known token; the source goes on. */
  readonly onError: (err: unknown) => void;
}

/**
 * Follows chosen wallets through the venue's wallet analytics (`GET /activity` or
 * `GET /trades?user=`): every `pollMs` each wallet's newest fills are read, the ones not seen
 * before (WalletTradeDedupe: a transaction's several fills each once, never one twice) become
 * `walletTrade` events, oldest first, with the trade's venue time as `tsEvent` and the time we
 * read it as `tsInit`. The first round runs at subscribe. Cold; stops on unsubscribe.
 */
export function walletActivitySource(options: WalletActivityOptions): Observable<MarketEvent> {
  const { clock, wallets, pollMs, pageSize, maxPages } = options;
  return new Observable<MarketEvent>((subscriber) => {
    const dedupe = new Map(wallets.map((w) => [w, new WalletTradeDedupe()]));
    // the second the source started on: the first round delivers fills from it on
    const since = options.backfill === true ? 0 : Math.floor(clock.now() / 1000) * 1000;
    const started = new Set<string>();
    let stopped = false;

    const readWallet = async (wallet: string): Promise<{ rows: WalletFeedRow[]; full: boolean }> => {
      const rows: WalletFeedRow[] = [];
      const known = dedupe.get(wallet)!;
      for (let page = 0; page < maxPages; page++) {
        const got = await options.fetchPage(wallet, pageSize, page * pageSize);
        rows.push(...got.rows);
        if (!got.full) return { rows, full: false };
        // a later page is needed only while this one is all new (the first round reads one page)
        if (!started.has(wallet) || known.seenAny(got.rows)) break;
      }
      return { rows, full: true };
    };

    const round = async (): Promise<void> => {
      for (const wallet of wallets) {
        if (stopped) return;
        let read: { rows: WalletFeedRow[]; full: boolean };
        try {
          read = await readWallet(wallet);
        } catch (err) {
          options.onError(err);
          continue;
        }
        if (stopped) return;
        const fresh = dedupe.get(wallet)!.take(read.rows, read.full);
        started.add(wallet);
        for (const row of fresh) {
          if (row.ts < since) continue;
          let token: WalletRowToken | undefined;
          try {
            token = await options.tokenOf(row);
          } catch (err) {
            options.onError(err);
            continue;
          }
          if (stopped) return;
          if (token === undefined) {
            options.onError(new Error(`wallet ${wallet}: trade ${row.txHash} names asset '${row.asset}', not a token the venue lists`));
            continue;
          }
          const trade = walletTradeOf(row, token);
          if (trade === undefined) continue;
          subscriber.next({ type: 'walletTrade', trade, tsEvent: trade.ts, tsInit: clock.now() });
        }
      }
    };

    const rounds = timer(0, pollMs, clock.scheduler)
      .pipe(exhaustMap(() => from(round())))
      .subscribe({ error: (err: unknown) => subscriber.error(err) });
    return () => {
      stopped = true;
      rounds.unsubscribe();
    };
  });
}

/** Micros of an analytics number (a display value: rounded to the micro); undefined unless finite and >= 0. */
function micros(n: number): number | undefined {
  if (!Number.isFinite(n) || n < 0) return undefined;
  const m = Math.round(n * 1_000_000);
  return Number.isSafeInteger(m) ? m : undefined;
}

/** The typed trade of a row, or undefined when its price or size is not an amount. */
export function walletTradeOf(row: WalletFeedRow, token: WalletRowToken): WalletTrade | undefined {
  const price = micros(row.price);
  const size = micros(row.size);
  if (price === undefined || size === undefined || price > 1_000_000) return undefined;
  return { wallet: row.wallet, txHash: row.txHash, tokenId: token.tokenId, conditionId: token.conditionId, side: row.side, price, size, ts: row.ts };
}
