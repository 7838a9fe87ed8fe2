import type { Micros } from '../core/fixed.ts';
import { MICROS as SCALE } from '../core/money.ts';
import type { Side, TokenId } from '../core/types.ts';
import { NO_SETS, setHoldings, type CompleteSetShape } from './complete-sets.ts';
import { Portfolio, type PositionView, type TokenBookState } from './portfolio.ts';

/** What the ledger takes of a fill. */
interface LedgerFill {
  readonly tokenId: TokenId;
  readonly side: Side;
  readonly price: Micros;
  readonly size: Micros;
  readonly fee: Micros;
}

/**
 * One strategy's share of the run: its fills, turnover and fees, its PnL and its own positions.
 * `pnl` (realized + unrealized - fees), `fees`, `turnover` and `fills` of all strategies add up to
 * the run's. The split of `pnl` into realized and unrealized follows the strategy's own average
 * cost, so those two do not add up to the run's split when strategies trade the same token
 * (average cost is not additive; their sum is).
 */
export interface StrategyFigures {
  readonly strategyId: string;
  readonly fills: number;
  /** Σ price × size of its fills. */
  readonly turnover: Micros;
  readonly fees: Micros;
  readonly realizedPnl: Micros;
  readonly unrealizedPnl: Micros;
  /** realizedPnl + unrealizedPnl - fees. */
  readonly pnl: Micros;
  /** Its positions: open ones, and closed ones that realized PnL. */
  readonly positions: readonly PositionView[];
}

/**
 * The run's fills per strategy: positions, average prices, realized PnL, fees and turnover keyed
 * by (strategy, token), fed by the engine's fill book with each fill of the strategy whose order
 * it was (and its voids and settlements), with the same exact arithmetic as the run's
 * `Portfolio` (one per strategy). The run's account stays the `Portfolio`, and its cash the
 * venue's: a strategy has no cash of its own here, only what its fills moved.
 */
export class StrategyLedger {
  readonly #books = new Map<string, Portfolio>();
  #shape: CompleteSetShape = NO_SETS;

  /** Which tokens make complete sets (Portfolio.setCompleteSets): each strategy's own sets are valued at their payout. */
  setCompleteSets(shape: CompleteSetShape): void {
    this.#shape = shape;
    for (const book of this.#books.values()) book.setCompleteSets(shape);
  }

  applyFill(strategyId: string, fill: LedgerFill): void {
    this.#book(strategyId).applyFill(fill);
  }

  /** A token's market resolved: every strategy's position in it is closed at `payout` (Portfolio.settle). */
  settle(tokenId: TokenId, payout: Micros): void {
    for (const book of this.#books.values()) book.settle(tokenId, payout);
  }

  /** A copy of a strategy's position in a token (to rebuild it from, `voidFill`). */
  tokenState(strategyId: string, tokenId: TokenId): TokenBookState {
    const book = this.#books.get(strategyId);
    return book === undefined ? { size: 0n, cost: 0n, realized: 0n } : book.tokenState(tokenId);
  }

  /** Takes back a strategy's fill whose trade FAILED on chain (Portfolio.voidFill, on its own book). */
  voidFill(strategyId: string, fill: LedgerFill, base: TokenBookState, kept: Iterable<{ side: Side; price: Micros; size: Micros }>): void {
    this.#book(strategyId).voidFill(fill, base, kept);
  }

  position(strategyId: string, tokenId: TokenId): PositionView {
    const book = this.#books.get(strategyId);
    return book === undefined ? { tokenId, size: 0, avgPrice: 0, realizedPnl: 0 } : book.position(tokenId);
  }

  /** A strategy's positions in every token it ever traded. */
  positions(strategyId: string): PositionView[] {
    return this.#books.get(strategyId)?.positions() ?? [];
  }

  /** Strategies with at least one fill, in the order of their first. */
  strategyIds(): string[] {
    return [...this.#books.keys()];
  }

  /** What a strategy's open long positions cost (Σ cost basis, rounded up to the micro): the per-strategy budget counts it. */
  costBasis(strategyId: string): Micros {
    const book = this.#books.get(strategyId);
    if (book === undefined) return 0;
    let cost = 0n;
    for (const tokenId of book.tokenIds()) {
      const c = book.tokenState(tokenId).cost;
      if (c > 0n) cost += c;
    }
    return Number((cost + SCALE - 1n) / SCALE);
  }

  /**
   * Every strategy's figures at `mark`, made to add up to the run's (`run`, the engine's
   * portfolio, whose fills are the ledger's): each strategy's PnL is exact in Micros² (realized
   * less the cost of what it holds plus its complete sets at 1 and the rest at size × mark, less
   * fees); a token without a mark is valued at the run's average cost there, which is how the run
   * values it (no unrealized PnL). A set made of two strategies' shares (one holds YES, the other
   * NO) is worth 1 to the run but to neither strategy: then the parts do not add up and `apportion`
   * leaves them as they are.
   * Rounding each to the micro leaves the run's rounded total a few micros away at most; that
   * difference goes one micro at a time to the strategies with the largest remainders. The
   * strategies of `hosted` that never traded have a row of zeros (after the others).
   */
  figures(run: Portfolio, mark: (tokenId: TokenId) => Micros | undefined, hosted: readonly string[] = []): StrategyFigures[] {
    const ids = this.strategyIds();
    const idle = hosted.filter((id) => !this.#books.has(id));
    const runTotals = run.totals(mark);
    const exact: bigint[] = [];
    const parts = ids.map((id) => {
      const book = this.#books.get(id)!;
      const held = setHoldings(this.#shape, (t) => book.tokenState(t).size);
      let pnl2 = held.sets * SCALE;
      for (const tokenId of book.tokenIds()) {
        const t = book.tokenState(tokenId);
        const inSets = t.size > 0n ? (held.inSets.get(tokenId) ?? 0n) : 0n;
        pnl2 += t.realized - t.cost + valueOf(tokenId, t.size - inSets, mark, run);
      }
      const totals = book.totals(mark);
      pnl2 -= BigInt(totals.fees) * SCALE;
      exact.push(pnl2);
      return totals;
    });
    const pnls = apportion(exact, runTotals.realizedPnl + runTotals.unrealizedPnl - runTotals.fees);
    const turnovers = apportion(
      parts.map((p) => BigInt(p.turnover) * SCALE),
      runTotals.turnover,
    );
    const rows = ids.map((strategyId, i): StrategyFigures => {
      const totals = parts[i]!;
      const pnl = pnls[i]!;
      return {
        strategyId,
        fills: totals.fills,
        turnover: turnovers[i]!,
        fees: totals.fees,
        realizedPnl: totals.realizedPnl,
        unrealizedPnl: pnl + totals.fees - totals.realizedPnl,
        pnl,
        positions: this.#books
          .get(strategyId)!
          .positions()
          .filter((p) => p.size !== 0 || p.realizedPnl !== 0),
      };
    });
    for (const strategyId of idle) rows.push({ strategyId, fills: 0, turnover: 0, fees: 0, realizedPnl: 0, unrealizedPnl: 0, pnl: 0, positions: [] });
    return rows;
  }

  #book(strategyId: string): Portfolio {
    let book = this.#books.get(strategyId);
    if (book === undefined) {
      book = new Portfolio(0);
      book.setCompleteSets(this.#shape);
      this.#books.set(strategyId, book);
    }
    return book;
  }
}

/** size × the token's mark, Micros²; without a mark, size × the run's average cost of the token (0 when the run holds none). */
function valueOf(tokenId: TokenId, size: bigint, mark: (tokenId: TokenId) => Micros | undefined, run: Portfolio): bigint {
  if (size === 0n) return 0n;
  const m = mark(tokenId);
  if (m !== undefined) return size * BigInt(m);
  const held = run.tokenState(tokenId);
  return held.size === 0n ? 0n : (size * held.cost) / held.size;
}

/**
 * Rounds exact amounts (Micros²) to Micros so that they add up to `target`: each is floored,
 * then the difference is handed out a micro at a time, to the largest remainders first (taken
 * from the smallest when the floors overshoot). A difference larger than a few micros a part
 * means the parts do not make up the target (fills nobody owns): the floors are returned as they
 * are.
 */
export function apportion(exact: readonly bigint[], target: Micros): Micros[] {
  const n = exact.length;
  const floors = exact.map((x) => floorDiv(x, SCALE));
  let d = target - floors.reduce((sum, f) => sum + Number(f), 0);
  if (n === 0 || Math.abs(d) > 2 * n + 2) return floors.map(Number);
  const remainders = exact.map((x, i) => x - floors[i]! * SCALE);
  const order = [...floors.keys()].sort((a, b) => {
    const ra = remainders[a]!;
    const rb = remainders[b]!;
    if (ra !== rb) return (d > 0 ? rb > ra : ra > rb) ? 1 : -1;
    return a - b;
  });
  const out = floors.map(Number);
  for (let k = 0; d !== 0; k++) {
    const step = d > 0 ? 1 : -1;
    out[order[k % n]!]! += step;
    d -= step;
  }
  return out;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
