import { timer } from 'rxjs';
import type { MarketCache, MarketChange, TokenState } from '../data/market-cache.ts';
import type { EngineDesk } from './engine-desk.ts';
import type { Halts } from './halts.ts';
import type { EngineOptions } from './ports.ts';
import type { Reconciler } from './reconciler.ts';
import type { StrategyHost } from './strategy-host.ts';
import type { UnbookedSells } from './unbooked-sells.ts';

/** Longest a live run's strategies wait at start for the first read of our trades at the venue, ms. */
const FIRST_TRADES_READ_WAIT_MS = 5_000;

/** What the start of the strategies needs of the engine. */
export interface StrategyStartParts {
  readonly desk: EngineDesk;
  readonly options: EngineOptions;
  readonly host: StrategyHost;
  readonly cache: MarketCache;
  readonly halts: Halts;
  readonly reconciler: Reconciler;
  readonly unbooked: UnbookedSells | undefined;
  /** Strategy work outside a market event, in one store transaction (as a market event's). */
  readonly tell: (work: () => void) => void;
}

/**
 * When the strategies start, and what they hear first. Live, no market is traded until our trades
 * at the venue were read in full once (a page missing is not the whole: the run would trade on
 * positions short of fills it missed): the strategies start on the first read (complete or not:
 * then the RECONCILING gate holds), or after FIRST_TRADES_READ_WAIT_MS, so a normal start draws
 * no denial. Elsewhere they start at once. Started, they hear the books and prices already known,
 * the halts raised before the start, then the followed wallets' trades heard while they waited.
 */
export function startStrategies(parts: StrategyStartParts): void {
  const { desk, options, host, cache, halts, reconciler, unbooked, tell } = parts;
  const { clock, execution } = options;
  const subs = desk.subs;
  let started = false;
  const start = (): void => {
    if (started || desk.stopped) return;
    started = true;
    host.start(subs);
    // started after the market data (a live run waits for its first read of our trades): the
    // books and prices already known are what the strategies first hear (an unchanged book is not sent again)
    if (cache.tokenIds().length > 0) tell(() => host.dispatch(cache.tokenIds().flatMap((id) => knownMarket(cache.get(id)))));
    // halted before the start (a halt file, a SIGUSR2 while starting): the strategies hear it now
    const active = halts.active();
    if (active.length > 0) {
      const last = active[active.length - 1]!;
      host.lifecycle({ type: 'Halted', name: last.name, reason: last.reason, halts: halts.names(), tsInit: clock.now() });
    }
    // then the followed wallets' trades heard while they waited (held, bounded: early-wallet-trades.ts)
    tell(() => host.deliverEarlyWalletTrades());
  };
  if (execution.fillsSnapshot$) {
    reconciler.awaitSnapshot('the start');
    subs.add(
      execution.fillsSnapshot$.subscribe((snapshot) => {
        reconciler.snapshot(snapshot);
        unbooked?.snapshot(snapshot);
        start();
      }),
    );
    subs.add(timer(FIRST_TRADES_READ_WAIT_MS, clock.scheduler).subscribe(start));
  } else {
    start();
  }
}

/** The book and prices changes of a token whose book or prices are known, to tell strategies started late. */
function knownMarket(state: TokenState | undefined): MarketChange[] {
  const out: MarketChange[] = [];
  if (state?.book) out.push({ kind: 'book', state });
  if (state?.prices) out.push({ kind: 'prices', state });
  return out;
}
