import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderReport } from './report.ts';
import type { BacktestResult } from './backtest-result.ts';
import { serializeSummary } from './summary.ts';

export interface WrittenResults {
  readonly summaryPath: string;
  readonly reportPath: string;
}

/** Writes `<dir>/summary.json` and `<dir>/report.html` (the directory is created as needed). */
export function writeResults(result: BacktestResult, dir: string): WrittenResults {
  mkdirSync(dir, { recursive: true });
  const summaryPath = join(dir, 'summary.json');
  const reportPath = join(dir, 'report.html');
  writeFileSync(summaryPath, serializeSummary(result.summary));
  writeFileSync(reportPath, renderReport(result));
  return { summaryPath, reportPath };
}
