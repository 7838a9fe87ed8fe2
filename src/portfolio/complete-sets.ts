import type { ConditionId, EventInfo, TokenId } from '../core/types.ts';

/**
 * Which held tokens make a set that pays exactly 1 whatever happens (issue 21 point 3):
 * - a **pair**: YES and NO of one market (one of the two pays 1; the venue merges them for 1);
 * - an **event set**: the YES of every outcome market of a neg-risk event that is not augmented
 *   (exactly one outcome wins; an augmented event has an unlisted "Other" that may win instead,
 *   so its listed YES are no set).
 * The portfolio values the shares inside complete sets at that payout instead of their marks.
 */
export interface CompleteSetShape {
  /** [YES, NO] of each market. */
  readonly pairs: readonly (readonly [TokenId, TokenId])[];
  /** The YES token of every outcome market, per non-augmented neg-risk event. */
  readonly eventSets: readonly (readonly TokenId[])[];
}

export const NO_SETS: CompleteSetShape = Object.freeze({ pairs: [], eventSets: [] });

/** What the shape needs of a tracked token (the engine's `TrackedToken` has it all). */
export interface SetToken {
  readonly tokenId: TokenId;
  readonly conditionId: ConditionId;
  readonly outcomeIndex: 0 | 1;
  readonly complementTokenId: TokenId | undefined;
  readonly event?: EventInfo | undefined;
}

/**
 * The sets the tracked tokens can form: a pair per market whose both tokens are known, and an
 * event set per non-augmented neg-risk event whose every listed market's YES is tracked (an
 * event seen only in part cannot be known complete).
 */
export function completeSetShape(tokens: Iterable<SetToken>): CompleteSetShape {
  const yesOf = new Map<ConditionId, TokenId>();
  const pairs: [TokenId, TokenId][] = [];
  const events = new Map<string, EventInfo>();
  for (const t of tokens) {
    if (t.outcomeIndex === 0) {
      yesOf.set(t.conditionId, t.tokenId);
      if (t.complementTokenId !== undefined) pairs.push([t.tokenId, t.complementTokenId]);
    }
    if (t.event !== undefined && t.event.negRisk && !t.event.augmented && !events.has(t.event.id)) events.set(t.event.id, t.event);
  }
  const eventSets: TokenId[][] = [];
  for (const event of events.values()) {
    const yes: TokenId[] = [];
    for (const c of event.marketConditionIds) {
      const t = yesOf.get(c);
      if (t !== undefined) yes.push(t);
    }
    if (yes.length >= 2 && yes.length === event.marketConditionIds.length) eventSets.push(yes);
  }
  return { pairs, eventSets };
}

/** How many complete sets some holdings make, and which shares are in them. */
export interface SetHoldings {
  /** Complete sets (pairs and event sets), Micros of sets: each pays 1. */
  readonly sets: bigint;
  /** Per token, the shares (Micros) inside a complete set. */
  readonly inSets: ReadonlyMap<TokenId, bigint>;
}

/**
 * Counts the complete sets in `size(tokenId)` (Micros of shares; a short or no position counts
 * 0): pairs first (a pair needs two shares for its 1, an event set one share per outcome), then
 * the event sets from the YES shares left. A share counts in one set at most.
 */
export function setHoldings(shape: CompleteSetShape, size: (tokenId: TokenId) => bigint): SetHoldings {
  const inSets = new Map<TokenId, bigint>();
  const left = (t: TokenId): bigint => {
    const s = size(t);
    return (s > 0n ? s : 0n) - (inSets.get(t) ?? 0n);
  };
  const take = (t: TokenId, n: bigint): void => {
    inSets.set(t, (inSets.get(t) ?? 0n) + n);
  };
  let sets = 0n;
  for (const [yes, no] of shape.pairs) {
    const a = left(yes);
    const b = left(no);
    const n = a < b ? a : b;
    if (n <= 0n) continue;
    take(yes, n);
    take(no, n);
    sets += n;
  }
  for (const legs of shape.eventSets) {
    let n = left(legs[0]!);
    for (const t of legs) {
      const l = left(t);
      if (l < n) n = l;
    }
    if (n <= 0n) continue;
    for (const t of legs) take(t, n);
    sets += n;
  }
  return { sets, inSets };
}

/** The sets of `shape` whose every token is held (`size` > 0): what a store keeps for `clobot status`. */
export function heldSets(shape: CompleteSetShape, size: (tokenId: TokenId) => bigint): CompleteSetShape {
  const held = (t: TokenId): boolean => size(t) > 0n;
  return { pairs: shape.pairs.filter((p) => p.every(held)), eventSets: shape.eventSets.filter((e) => e.every(held)) };
}
