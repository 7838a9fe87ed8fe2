import type Database from 'better-sqlite3';
import { replayPortfolio } from './replay-portfolio.ts';
import { readBalances, readCursors, readFills, readHeartbeat, readJournalSeq, readOrders } from './store-queries.ts';
import type { LoadedRun, RunInfo } from './store-types.ts';

/**
 * Everything a restarted run needs (RunStore.load: in one transaction, a consistent read): its
 * orders (`open` skips finished ones), fills, the positions and balance replayed from them
 * (replay-portfolio.ts), the heartbeat chain, cursors and the journal's newest sequence.
 */
export function readLoadedRun(db: Database.Database, info: RunInfo, nextId: number, orders: 'all' | 'open'): LoadedRun {
  const fills = readFills(db);
  const balances = readBalances(db);
  const portfolio = replayPortfolio(fills, balances);
  const heartbeat = readHeartbeat(db);
  return {
    runId: info.runId,
    runName: info.runName,
    nextId,
    orders: readOrders(db, orders),
    fills,
    heartbeatId: heartbeat?.id,
    heartbeatAt: heartbeat?.at,
    positions: portfolio.positions(),
    balance: portfolio.balance(),
    balances,
    cursors: readCursors(db),
    journalSeq: readJournalSeq(db),
  };
}
