/**
 * Creates a new run store at <path> (run through bin/run-ts.mjs) and prints one JSON line:
 * {"ok":true} or the failure's {"code", "message", "exit"} (the exit code clobot would give it).
 */
import { exitCodeOf } from '../../src/cli/main.ts';
import { StoreError } from '../../src/core/errors.ts';
import { RunStore } from '../../src/store/run-store.ts';

const path = process.argv[2];
if (!path) {
  process.stderr.write('usage: create-child.ts <path>\n');
  process.exit(2);
}
try {
  RunStore.open(path, { create: true, runName: 'full-disk' }).close();
  process.stdout.write(`${JSON.stringify({ ok: true })}\n`);
} catch (err) {
  const code = err instanceof StoreError ? err.code : 'not a StoreError';
  process.stdout.write(`${JSON.stringify({ code, message: (err as Error).message, exit: exitCodeOf(err) })}\n`);
}
