import type { Command } from 'commander';
import { registerBook } from './commands/book.ts';
import { registerKeys } from './commands/keys.ts';
import { registerSandbox } from './commands/sandbox.ts';
import { registerValidate } from './commands/validate.ts';
import { registerMarkets } from './commands/markets.ts';
import { registerRun } from './commands/run.ts';
import { registerImport } from './commands/import.ts';
import { registerExport } from './commands/export.ts';
import { registerRecord } from './commands/record.ts';
import { registerStatus } from './commands/status.ts';
import { registerDashboard } from './commands/dashboard.ts';
import { registerBacktest } from './commands/backtest.ts';
import { registerOptimize } from './commands/optimize.ts';
import { registerInit } from './commands/init.ts';
import { registerNewStrategy } from './commands/new-strategy.ts';
import { registerDoctor } from './commands/doctor.ts';
import { registerWorker } from './commands/worker.ts';

/** Every CLI command registers itself here; one file per command in `src/cli/commands/`. */
export function registerCommands(program: Command): void {
  registerValidate(program);
  registerSandbox(program);
  registerMarkets(program);
  registerRun(program);
  registerExport(program);
  registerBook(program);
  registerKeys(program);
  registerImport(program);
  registerRecord(program);
  registerStatus(program);
  registerDashboard(program);
  registerBacktest(program);
  registerOptimize(program);
  registerInit(program);
  registerNewStrategy(program);
  registerDoctor(program);
  registerWorker(program);
}
