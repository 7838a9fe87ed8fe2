import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDurationOption, parseOutputFileOption } from '../../src/cli/options.ts';

describe('--duration', () => {
  it('takes a time above zero with a unit (seconds without one)', () => {
    expect(parseDurationOption('90s')).toBe(90_000);
    expect(parseDurationOption('1.5m')).toBe(90_000);
    expect(parseDurationOption('2')).toBe(2_000);
    expect(parseDurationOption('1ms')).toBe(1);
  });

  it('refuses no time at all, naming the value: a run of 0 would start only to stop', () => {
    for (const v of ['0', '0s', '0.0h', '0.4ms']) {
      expect(() => parseDurationOption(v)).toThrow(new InvalidArgumentError(`expected a duration above zero, got '${v}'`));
    }
    expect(() => parseDurationOption('-1s')).toThrow(/expected a duration like 30s/);
    expect(() => parseDurationOption('36501d')).toThrow(/at most 100 years/);
  });
});

describe('--summary', () => {
  it('refuses a folder at once, naming a file path to give instead; a file path passes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clobot-summary-'));
    try {
      expect(() => parseOutputFileOption(dir)).toThrow(new InvalidArgumentError(`'${dir}' is a folder; give a file path, e.g. ${join(dir, 'summary.json')}`));
      expect(() => parseOutputFileOption('out/')).toThrow(/'out\/' is a folder/);
      expect(parseOutputFileOption(join(dir, 'run.json'))).toBe(join(dir, 'run.json'));
      expect(parseOutputFileOption(join(dir, 'new', 'run.json'))).toBe(join(dir, 'new', 'run.json'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

