/** The shape every benchmark returns; `bench/index.ts` prints them one after another. */
export interface BenchTable {
  title: string;
  columns: string[];
  rows: (string | number)[][];
  notes?: string[];
}

/** Formats a table as aligned plain text (numbers right-aligned, text left-aligned). */
export function formatTable(t: BenchTable): string {
  const cells = t.rows.map((row) => row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)));
  const widths = t.columns.map((col, i) => Math.max(col.length, ...cells.map((row) => (row[i] ?? '').length)));
  const numeric = t.columns.map((_, i) => t.rows.every((row) => typeof row[i] === 'number'));
  const line = (row: string[]): string =>
    row.map((cell, i) => (numeric[i] ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ').trimEnd();
  const out = [t.title, line(t.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
  for (const note of t.notes ?? []) out.push(`  * ${note}`);
  return out.join('\n');
}

export function printTable(t: BenchTable): void {
  process.stdout.write(formatTable(t) + '\n\n');
}

function formatNumber(n: number): string {
  if (Number.isInteger(n)) return n.toLocaleString('en-US');
  const abs = Math.abs(n);
  return n.toFixed(abs >= 100 ? 0 : abs >= 1 ? 2 : 3);
}
