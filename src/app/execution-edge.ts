import type { Observable } from 'rxjs';
import type { MarketEvent } from '../core/events.ts';
import type { Micros } from '../core/fixed.ts';
import type { MetricsCollectorSink } from '../core/metrics.ts';
import type { TokenId } from '../core/types.ts';
import type { AccountSource } from '../engine/ports.ts';
import type { VenueShareSource } from '../engine/reward-accrual.ts';
import type { TrackedToken } from '../data/market-cache.ts';
import type { ExecutionClient } from '../execution/execution-client.ts';

/** The execution side of a run: the only thing live and paper do differently. */
export interface ExecutionEdge {
  readonly execution: ExecutionClient;
  /** Sees every market event before the engine (the paper venue's view of the book). */
  readonly observe?: (event: MarketEvent) => void;
  /** Releases what the edge owns beyond the execution client (the signer's helper threads). */
  readonly close?: () => void;
  /**
   * Paper, resumed from a store: the simulated venue's account takes the cash and positions the
   * store's fills left (it lives in the process, so each start has it empty).
   */
  readonly restoreAccount?: (cash: Micros, positions: Iterable<readonly [TokenId, Micros]>) => void;
  /** Paper: the simulated venue trades these tokens too (markets that joined the run). */
  readonly addTokens?: (tokens: readonly TrackedToken[]) => void;
  /** Live: where the engine reads the account (the venue's balance and positions). */
  readonly account?: AccountSource;
  /** Live: the venue's own figure of our reward share by market (`GET /rewards/user/percentages`). */
  readonly rewardShares?: VenueShareSource;
  /** Live: writes the edge's own counts (fills poller, signer) into the run's metrics when they are read. */
  readonly collect?: (metrics: MetricsCollectorSink) => void;
  /** Live with the user channel: every message as received, for the run's journal (docs/user-channel.md). */
  readonly userMessages$?: Observable<{ readonly text: string; readonly tsInit: number }>;
}
