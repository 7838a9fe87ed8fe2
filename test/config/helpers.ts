import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';
import { ConfigError } from '../../src/core/errors.ts';

/** A throwaway directory for config files, removed after the test file. */
export function tempDir(): { dir: string; write: (name: string, text: string, mode?: number) => string } {
  const dir = mkdtempSync(join(tmpdir(), 'clobot-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text, mode) {
      const path = join(dir, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text, mode === undefined ? undefined : { mode });
      return path;
    },
  };
}

/** The 1-based line of the first line of `text` that contains `needle`. */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i < 0) throw new Error(`'${needle}' is not in the text`);
  return i + 1;
}

/** Runs `fn`, expects a ConfigError, returns its message lines. */
export function configErrorLines(fn: () => unknown): string[] {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.message.split('\n');
    throw err;
  }
  throw new Error('expected a ConfigError, nothing was thrown');
}

/** The known-answer key and address of the signing vectors (a throwaway test key). */
export const VECTOR_KEY = '0x1111111111111111111111111111111111111111111111111111111111111111';
export const VECTOR_ADDRESS = '0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A';
