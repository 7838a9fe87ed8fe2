import { DecodeError } from '../core/errors.ts';
import type { MarketSettlement } from '../engine/ports.ts';
import type { Portfolio, Settlement } from '../portfolio/portfolio.ts';
import type { StrategyLedger } from '../portfolio/strategy-ledger.ts';

/**
 * Settled markets in a run store: one note per resolved market, in the store's named notes (the
 * `cursor` table, no schema change) under `settlement:<conditionId>`, its value the settlement as
 * JSON (Micros as integers). A restarted engine restores them after its fills (so a position a
 * resolution closed stays closed and nothing is settled twice); `clobot status` replays them into
 * its portfolio and lists them.
 */
export const SETTLEMENT_NOTE_PREFIX = 'settlement:';

/** The note's name and value for one settlement. */
export function settlementNote(s: MarketSettlement): { name: string; value: string } {
  return {
    name: SETTLEMENT_NOTE_PREFIX + s.conditionId,
    value: JSON.stringify({
      conditionId: s.conditionId,
      winnerTokenId: s.winnerTokenId ?? null,
      tokens: s.tokens,
      proceeds: s.proceeds,
      realizedPnl: s.realizedPnl,
      at: s.at,
    }),
  };
}

/** The settlements among a store's notes, in the order they happened. */
export function settlementsOf(notes: Readonly<Record<string, string>>): MarketSettlement[] {
  const out: MarketSettlement[] = [];
  for (const [name, value] of Object.entries(notes)) {
    if (!name.startsWith(SETTLEMENT_NOTE_PREFIX)) continue;
    out.push(decodeSettlement(name, value));
  }
  return out.sort((a, b) => a.at - b.at);
}

/** Closes the settled positions of a portfolio (or strategy ledger) replayed from fills, as the engine did. */
export function applySettlements<B extends Pick<Portfolio, 'settle'> | Pick<StrategyLedger, 'settle'>>(book: B, settlements: readonly MarketSettlement[]): B {
  for (const s of settlements) for (const t of s.tokens) book.settle(t.tokenId, t.payout);
  return book;
}

/**
 * Closes the settled positions of a portfolio replayed from fills and balance anchors: a payout
 * moves the cash only when no balance anchor was written at or after the settlement (an anchor
 * taken later, a venue reading or the engine's own cash, holds the payout already; adding it
 * again would count it twice).
 */
export function settlePortfolio(portfolio: Portfolio, settlements: readonly MarketSettlement[], anchors: readonly { readonly at: number }[]): Portfolio {
  const lastAnchorAt = anchors.reduce((at, a) => Math.max(at, a.at), -Infinity);
  for (const s of settlements) {
    const before = portfolio.balance();
    for (const t of s.tokens) portfolio.settle(t.tokenId, t.payout);
    if (s.at <= lastAnchorAt) portfolio.setBalance(before);
  }
  return portfolio;
}

function decodeSettlement(name: string, value: string): MarketSettlement {
  let o: unknown;
  try {
    o = JSON.parse(value);
  } catch {
    throw new DecodeError(`note ${name}`, 'a settlement as JSON', value);
  }
  const rec = o as Record<string, unknown>;
  const int = (v: unknown, field: string): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new DecodeError(`note ${name}: ${field}`, 'an integer', v);
    return v;
  };
  if (typeof rec !== 'object' || rec === null || typeof rec['conditionId'] !== 'string' || !Array.isArray(rec['tokens'])) {
    throw new DecodeError(`note ${name}`, 'a settlement {conditionId, winnerTokenId, tokens, proceeds, realizedPnl, at}', value);
  }
  const winner = rec['winnerTokenId'];
  if (winner !== null && typeof winner !== 'string') throw new DecodeError(`note ${name}: winnerTokenId`, 'a token id or null', winner);
  const tokens = (rec['tokens'] as unknown[]).map((t, i): Settlement => {
    const to = (t ?? {}) as Record<string, unknown>;
    if (typeof to['tokenId'] !== 'string') throw new DecodeError(`note ${name}: tokens[${i}].tokenId`, 'a token id', to['tokenId']);
    return {
      tokenId: to['tokenId'],
      size: int(to['size'], `tokens[${i}].size`),
      payout: int(to['payout'], `tokens[${i}].payout`),
      proceeds: int(to['proceeds'], `tokens[${i}].proceeds`),
      realizedPnl: int(to['realizedPnl'], `tokens[${i}].realizedPnl`),
    };
  });
  return {
    conditionId: rec['conditionId'],
    winnerTokenId: winner ?? undefined,
    tokens,
    proceeds: int(rec['proceeds'], 'proceeds'),
    realizedPnl: int(rec['realizedPnl'], 'realizedPnl'),
    at: int(rec['at'], 'at'),
  };
}
