/**
 * `clobot/testing`: run a strategy on scripted books or a recording in virtual time, through the
 * real backtest, and assert on what it did (intents, orders, fills, order events, positions, cash).
 */
export { runStrategy } from './run-strategy.ts';
export type { RecordedIntent, RunStrategyOptions, StrategyLogLine, StrategyRun, StrategyUnderTest } from './run-strategy.ts';
export { scriptedBooks, ScriptedBooks, SCRIPT_START_MS } from './scripted-books.ts';
export type { ScriptedEventOptions, ScriptedMarket, ScriptedMarketOptions, ScriptLevel } from './scripted-books.ts';
export { TestingError } from './testing-error.ts';
