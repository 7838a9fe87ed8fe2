/**
 * `clobot`: what a strategy author imports. The strategy API (defineStrategy, the hooks and the
 * context), intents, events and deny codes, money helpers, and `z` (the zod the params schemas
 * are checked with, so a project needs no zod of its own). Runs, backtests and the sandbox are
 * started by the `clobot` CLI; tests use `clobot/testing`; the typed venue client is `clobot/venue`.
 */
export * from './strategy/index.ts';
export { z } from 'zod';
export type { Micros } from './core/fixed.ts';
export type { Clock } from './core/clock.ts';
export type { BookLevel, ConditionId, MarketRules, OrderBook, OrderType, Side, TokenId, TokenPrices } from './core/types.ts';
export type { MarketEvent } from './core/events.ts';
// liquidity rewards (docs/rewards.md): the rules on `MarketSnapshot.rules.rewards` and the venue's scoring model
export type { RewardQuote, RewardRules } from './core/rewards.ts';
export { adjustedMidpoint, bookInYesTerms, makerScore, oneSidedScores, orderScore, quoteInYesTerms, REWARD_SCALING_FACTOR } from './core/rewards.ts';
