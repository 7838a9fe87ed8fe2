import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderOptimizeReport } from './optimize-report.ts';
import type { OptimizeSummary } from './optimize-summary.ts';

export interface WrittenOptimize {
  readonly summaryPath: string;
  readonly reportPath: string;
}

/** Writes optimize.json and report.html into `dir` (each through a temporary file and a rename). */
export function writeOptimizeResults(summary: OptimizeSummary, dir: string): WrittenOptimize {
  mkdirSync(dir, { recursive: true });
  const summaryPath = join(dir, 'optimize.json');
  const reportPath = join(dir, 'report.html');
  writeAtomically(summaryPath, JSON.stringify(summary, null, 2) + '\n');
  writeAtomically(reportPath, renderOptimizeReport(summary));
  return { summaryPath, reportPath };
}

function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
