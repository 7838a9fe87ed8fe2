import { ParameterError } from '../core/errors.ts';
import type { Micros } from '../core/fixed.ts';
import type { ConditionId, TokenId } from '../core/types.ts';

/**
 * Balances of the simulated venue. Accounts are keyed by wallet address (what holds funds on
 * chain; several API keys of one wallet share them) and are opened on first use with the
 * starting collateral. Every amount is in micros.
 *
 * Conservation law (what the tests assert after random order flow):
 *   Σ accounts (collateral + collateralReserved) + feesCollected + Σ markets completeSets
 *     = deposited
 *   and for every market and each of its two tokens: Σ accounts (free + reserved) = completeSets.
 * `completeSets` is the collateral locked in minted YES+NO pairs: a mint (BUY YES against BUY NO,
 * or `split`) adds to it, a merge (SELL YES against SELL NO, or `merge`) takes from it.
 */

export class TokenHolding {
  /** Tokens the account may sell. */
  free: Micros = 0;
  /** Tokens promised to resting SELL orders. */
  reserved: Micros = 0;
}

export class Account {
  /** Free collateral. */
  collateral: Micros;
  /** Collateral promised to resting BUY orders. */
  collateralReserved: Micros = 0;
  readonly tokens = new Map<TokenId, TokenHolding>();

  constructor(readonly address: string, collateral: Micros) {
    this.collateral = collateral;
  }

  holding(tokenId: TokenId): TokenHolding {
    let h = this.tokens.get(tokenId);
    if (h === undefined) {
      h = new TokenHolding();
      this.tokens.set(tokenId, h);
    }
    return h;
  }
}

export interface TokenBalance {
  readonly tokenId: TokenId;
  readonly balance: Micros;
  readonly reserved: Micros;
}

/** A frozen copy of one account. */
export interface BalanceSnapshot {
  readonly address: string;
  readonly collateral: Micros;
  readonly collateralReserved: Micros;
  readonly tokens: readonly TokenBalance[];
}

export interface LedgerTotals {
  /** Starting collateral of every opened account plus deposits minus withdrawals. */
  readonly deposited: Micros;
  readonly collateral: Micros;
  readonly collateralReserved: Micros;
  readonly feesCollected: Micros;
  readonly completeSets: Readonly<Record<ConditionId, Micros>>;
  /** Σ free + reserved per token over all accounts. */
  readonly tokenSupply: Readonly<Record<TokenId, Micros>>;
}

/** Default starting collateral of a new account: 10,000 units. */
export const DEFAULT_STARTING_COLLATERAL: Micros = 10_000_000_000;

export class Ledger {
  readonly #accounts = new Map<string, Account>();
  readonly #completeSets = new Map<ConditionId, Micros>();
  #deposited: Micros = 0;
  feesCollected: Micros = 0;

  constructor(readonly startingCollateral: Micros = DEFAULT_STARTING_COLLATERAL) {
    if (!Number.isSafeInteger(startingCollateral) || startingCollateral < 0) {
      throw new ParameterError('Ledger', 'startingCollateral', `must be a non-negative integer of micros, was ${startingCollateral}`);
    }
  }

  /** The live account of `address`, opened with the starting collateral if new. */
  account(address: string): Account {
    let a = this.#accounts.get(address);
    if (a === undefined) {
      a = new Account(address, this.startingCollateral);
      this.#accounts.set(address, a);
      this.#deposited += this.startingCollateral;
    }
    return a;
  }

  has(address: string): boolean {
    return this.#accounts.has(address);
  }

  addresses(): string[] {
    return [...this.#accounts.keys()];
  }

  deposit(address: string, amount: Micros): void {
    checkAmount('deposit', amount);
    this.account(address).collateral += amount;
    this.#deposited += amount;
  }

  withdraw(address: string, amount: Micros): void {
    checkAmount('withdraw', amount);
    const a = this.account(address);
    if (a.collateral < amount) throw new ParameterError('Ledger.withdraw', 'amount', `exceeds free collateral of ${address}`);
    a.collateral -= amount;
    this.#deposited -= amount;
  }

  /** Turns `amount` collateral into `amount` of each outcome token (the CTF split). */
  split(address: string, conditionId: ConditionId, tokenIds: readonly [TokenId, TokenId], amount: Micros): void {
    checkAmount('split', amount);
    const a = this.account(address);
    if (a.collateral < amount) throw new ParameterError('Ledger.split', 'amount', `exceeds free collateral of ${address}`);
    a.collateral -= amount;
    a.holding(tokenIds[0]).free += amount;
    a.holding(tokenIds[1]).free += amount;
    this.adjustCompleteSets(conditionId, amount);
  }

  /** Turns `amount` of each outcome token back into collateral (the CTF merge). */
  merge(address: string, conditionId: ConditionId, tokenIds: readonly [TokenId, TokenId], amount: Micros): void {
    checkAmount('merge', amount);
    const a = this.account(address);
    const yes = a.holding(tokenIds[0]);
    const no = a.holding(tokenIds[1]);
    if (yes.free < amount || no.free < amount) {
      throw new ParameterError('Ledger.merge', 'amount', `exceeds free tokens of ${address}`);
    }
    yes.free -= amount;
    no.free -= amount;
    a.collateral += amount;
    this.adjustCompleteSets(conditionId, -amount);
  }

  /** Engine use: a trade minted (+) or merged (-) complete sets. */
  adjustCompleteSets(conditionId: ConditionId, delta: Micros): void {
    this.#completeSets.set(conditionId, (this.#completeSets.get(conditionId) ?? 0) + delta);
  }

  completeSets(conditionId: ConditionId): Micros {
    return this.#completeSets.get(conditionId) ?? 0;
  }

  balance(address: string): BalanceSnapshot {
    const a = this.account(address);
    const tokens: TokenBalance[] = [];
    for (const [tokenId, h] of a.tokens) tokens.push(Object.freeze({ tokenId, balance: h.free, reserved: h.reserved }));
    return Object.freeze({ address, collateral: a.collateral, collateralReserved: a.collateralReserved, tokens: Object.freeze(tokens) });
  }

  /** Free plus reserved tokens of `tokenId` held by `address`. */
  position(address: string, tokenId: TokenId): Micros {
    const h = this.#accounts.get(address)?.tokens.get(tokenId);
    return h === undefined ? 0 : h.free + h.reserved;
  }

  totals(): LedgerTotals {
    let collateral = 0;
    let collateralReserved = 0;
    const tokenSupply: Record<TokenId, Micros> = {};
    for (const a of this.#accounts.values()) {
      collateral += a.collateral;
      collateralReserved += a.collateralReserved;
      for (const [tokenId, h] of a.tokens) tokenSupply[tokenId] = (tokenSupply[tokenId] ?? 0) + h.free + h.reserved;
    }
    return {
      deposited: this.#deposited,
      collateral,
      collateralReserved,
      feesCollected: this.feesCollected,
      completeSets: Object.fromEntries(this.#completeSets),
      tokenSupply,
    };
  }
}

function checkAmount(action: string, amount: Micros): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new ParameterError(`Ledger.${action}`, 'amount', `must be a positive integer of micros, was ${amount}`);
  }
}
