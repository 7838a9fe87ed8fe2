import type { WalletTrade } from '../core/types.ts';
import type { EngineLogger } from './ports.ts';

/**
 * Followed wallets' trades held while the strategies have not started yet: a live run starts them
 * on its first read of our trades, seconds after the market data and the wallet polls began, and
 * a trade heard then is news a copy-trader wants (its own `maxTradeAgeMs` judges whether it is
 * still worth copying). The newest EARLY_WALLET_TRADES are delivered at the start, oldest first;
 * older ones are dropped, with one log line saying how many.
 */
export const EARLY_WALLET_TRADES = 1_000;

export class EarlyWalletTrades {
  #held: WalletTrade[] | undefined = [];
  #dropped = 0;

  /** Holds a trade heard before the start; false once the held trades were delivered (hand it on). */
  hold(trade: WalletTrade): boolean {
    const held = this.#held;
    if (held === undefined) return false;
    held.push(trade);
    if (held.length > EARLY_WALLET_TRADES) {
      held.shift();
      this.#dropped++;
    }
    return true;
  }

  /** The held trades, oldest first, once (then nothing is held any more); logs what was dropped. */
  release(log: EngineLogger): readonly WalletTrade[] {
    const held = this.#held ?? [];
    this.#held = undefined;
    if (this.#dropped > 0) {
      log.warn(`${this.#dropped} followed-wallet trades heard before the strategies started were dropped: the newest ${EARLY_WALLET_TRADES} are kept for the start`, {
        dropped: this.#dropped,
        delivered: held.length,
      });
    } else if (held.length > 0) {
      log.info('followed-wallet trades heard before the strategies started, delivered now', { delivered: held.length });
    }
    return held;
  }
}
