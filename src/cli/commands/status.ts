import type { Command } from 'commander';
import { StoreReader } from '../../store/store-reader.ts';
import { buildStatusReport, type StatusReport } from '../../store/store-status.ts';
import type { JournalRow } from '../../store/store-types.ts';
import { parseIntOption, parsePathOption } from '../options.ts';
import { renderTable } from '../table.ts';
import { completeSetsLine, rewardsLine } from '../status-view.ts';

interface StatusFlags {
  json?: boolean;
  events: number;
}

/** A strategy fault of the run, from the journal: who, when, the message and the stack of its own code. */
export interface StatusFault {
  readonly seq: number;
  readonly at: string;
  readonly strategyId: string | null;
  readonly message: string;
  readonly stack: string | null;
}

/** At most this many faults are listed (the oldest first); the count is always whole. */
const MAX_FAULTS = 20;

/**
 * `clobot status <store>`: positions, open orders, PnL, the strategies' faults and the newest
 * journal events of a run store, as tables or JSON. Opens the store read-only WITHOUT taking its lock, so it works while
 * the run is going (it shows who holds the lock). A missing, corrupt, foreign or newer store is
 * one line on stderr and exit 2.
 */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description("show a run store's positions, open orders, PnL and latest events (read-only)")
    .argument('<store>', 'path to the run store (SQLite file)', parsePathOption)
    .option('--json', 'print JSON instead of tables')
    .option('--events <n>', 'how many of the newest journal events to show', parseIntOption(0, 100_000), 20)
    .action((path: string, flags: StatusFlags) => {
      const reader = StoreReader.open(path);
      let report: StatusReport & { faults: { count: number; list: StatusFault[] } };
      try {
        report = { ...buildStatusReport(reader.snapshot(flags.events)), faults: readFaults(reader) };
      } finally {
        reader.close();
      }
      process.stdout.write(flags.json ? JSON.stringify(report, null, 2) + '\n' : formatStatus(report, report.faults));
    });
}

/** The run's strategy faults from its journal: how many, and the first MAX_FAULTS. */
export function readFaults(reader: StoreReader): { count: number; list: StatusFault[] } {
  const list: StatusFault[] = [];
  for (const row of reader.journalOfType(FAULT_TYPE)) {
    list.push(faultOf(row));
    if (list.length >= MAX_FAULTS) break;
  }
  return { count: list.length < MAX_FAULTS ? list.length : reader.countJournal(FAULT_TYPE), list };
}

/** The journal type of a strategy fault (store/journal-entry.ts). */
const FAULT_TYPE = 'StrategyFaulted';

function faultOf(row: JournalRow): StatusFault {
  const e = row.event;
  const fault = e.type === 'fault' ? e : undefined;
  return { seq: row.seq, at: new Date(row.at).toISOString(), strategyId: row.strategyId ?? null, message: fault?.message ?? '', stack: fault?.stack ?? null };
}

/**
 * The status report as plain text: a header, the strategies' faults (each with the innermost
 * frame of the strategy's code), then positions, open orders and events tables.
 */
export function formatStatus(r: StatusReport, faults: { count: number; list: readonly StatusFault[] } = { count: 0, list: [] }): string {
  const out: string[] = [];
  out.push(`run ${r.run.id}${r.run.name ? ` (${r.run.name})` : ''}  store ${r.store}  schema ${r.schemaVersion}`);
  out.push(`created ${r.run.createdAt}  updated ${r.run.updatedAt}${r.run.address ? `  trades for ${r.run.address}` : ''}`);
  out.push(
    r.lock
      ? `lock: pid ${r.lock.pid} on ${r.lock.host} since ${r.lock.since} (${r.lock.state === 'held' ? 'running' : r.lock.state === 'stale' ? 'stale: that process is gone' : 'another host'})`
      : 'lock: none (no run has it open)',
  );
  out.push(`heartbeat: ${r.heartbeat ? `${r.heartbeat.id} at ${r.heartbeat.at}` : 'none'}  next client order seq ${r.nextClientOrderSeq}`);
  out.push(`orders ${r.counts.orders} (open ${r.counts.openOrders})  fills ${r.counts.fills}  journal ${r.counts.journal}`);
  const a = r.account;
  out.push(`cash ${a.cash}  reserved ${a.reserved}  free ${a.free}  position value ${a.positionValue}  equity ${a.equity}  (cash: ${a.source})`);
  const sets = completeSetsLine(a);
  if (sets !== undefined) out.push(sets);
  out.push(`realized ${a.realized}  unrealized ${a.unrealized} (marked at ${a.marks === 'run' ? "the run's marks" : 'last fill price'})  fees ${a.fees}`);
  out.push(rewardsLine(r.rewards));
  for (const p of a.outside) out.push(`outside the bot: ${p.tokenId} ${p.size} shares${p.value === undefined ? '' : ` (${p.value})`}, not in its figures, never sold by it`);

  if (faults.count > 0) {
    out.push('', `STRATEGY FAULTS ${faults.count}${faults.count > faults.list.length ? ` (the first ${faults.list.length})` : ''}`);
    for (const f of faults.list) {
      const frame = f.stack?.split('\n')[1]?.trim();
      out.push(`${f.at}  ${f.message}${frame ? `\n    ${frame}` : ''}`);
    }
  }

  out.push('', 'positions');
  if (r.positions.length === 0) out.push('(none)');
  else {
    out.push(
      renderTable(
        ['token', 'size', 'avg price', 'realized', 'mark', 'unrealized'],
        r.positions.map((p) => [clip(p.tokenId, 20), p.size, p.avgPrice, p.realizedPnl, p.mark, p.unrealizedPnl]),
        [false, true, true, true, true, true],
      ),
    );
  }

  if (r.strategies.length > 0) {
    out.push('', 'strategies (each its own fills; pnl, fees and turnover add up to the run\'s)');
    out.push(
      renderTable(
        ['strategy', 'fills', 'turnover', 'fees', 'realized', 'unrealized', 'pnl'],
        r.strategies.map((st) => [st.strategyId, String(st.fills), st.turnover, st.fees, st.realized, st.unrealized, st.pnl]),
        [false, true, true, true, true, true, true],
      ),
    );
  }

  if (r.settled.length > 0) {
    out.push('', 'settled markets');
    out.push(
      renderTable(
        ['market', 'winner', 'resolved at', 'held', 'proceeds', 'realized'],
        r.settled.map((m) => [clip(m.conditionId, 20), m.winner === null ? 'none (0.5 each)' : clip(m.winner, 20), m.at, m.tokens.map((t) => `${t.size} @ ${t.payout}`).join(', ') || '-', m.proceeds, m.realizedPnl]),
        [false, false, false, false, true, true],
      ),
    );
  }

  if (r.voidedFills.length > 0) {
    out.push('', 'void fills (failed on chain: not in the positions or PnL)');
    out.push(
      renderTable(
        ['trade', 'client order id', 'token', 'side', 'price', 'size', 'fee', 'voided at'],
        r.voidedFills.map((f) => [clip(f.tradeId, 20), f.clientOrderId, clip(f.tokenId, 20), f.side, f.price, f.size, f.fee, f.voidedAt]),
        [false, false, false, false, true, true, true, false],
      ),
    );
  }

  out.push('', 'open orders');
  if (r.openOrders.length === 0) out.push('(none)');
  else {
    out.push(
      renderTable(
        ['client order id', 'strategy', 'token', 'side', 'price', 'size', 'filled', 'status', 'order id'],
        r.openOrders.map((o) => [o.clientOrderId, o.strategyId, clip(o.tokenId, 20), o.side, o.price, o.size, o.filled, o.status, o.orderId ? clip(o.orderId, 14) : '-']),
        [false, false, false, false, true, true, true, false, false],
      ),
    );
  }

  if (Object.keys(r.cursors).length > 0) {
    // a cursor may be a note of kilobytes (the account's marks of every token): one line each, clipped
    out.push('', 'cursors (values clipped; --json shows them whole)');
    out.push(renderTable(['name', 'value'], Object.entries(r.cursors).map(([name, value]) => [name, clip(value, 100)])));
  }

  out.push('', r.events.length === 1 ? 'last event' : `last ${r.events.length} events`);
  if (r.events.length === 0) out.push('(none)');
  else {
    out.push(
      renderTable(
        ['seq', 'time', 'type', 'strategy', 'event'],
        r.events.map((e) => [String(e.seq), e.at, e.type, e.strategyId ?? '-', clip(e.text, 100)]),
        [true],
      ),
    );
  }
  return out.join('\n') + '\n';
}

function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.floor((max - 1) / 2);
  return `${text.slice(0, keep)}…${text.slice(-keep)}`;
}
