import { InvalidArgumentError } from 'commander';
import { describe, expect, it, vi } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  it('a summary that cannot be written when the run ends (a folder made there meanwhile, a file where its folder goes) goes to stderr, whole, after a line naming the file', async () => {
    const { writeSummary } = await import('../../src/cli/commands/run.ts');
    const dir = mkdtempSync(join(tmpdir(), 'clobot-summary-'));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const summary = { account: { cash: '9990.5' }, fills: 3 };
      mkdirSync(join(dir, 'became-a-folder.json'));
      writeFileSync(join(dir, 'a-file'), 'x');
      for (const path of [join(dir, 'became-a-folder.json'), join(dir, 'a-file', 'summary.json')]) {
        err.mockClear();
        writeSummary(path, summary);
        const written = err.mock.calls.map(([chunk]) => String(chunk)).join('');
        const [line, ...rest] = written.split('\n');
        expect(line).toMatch(new RegExp(`^could not write the summary to ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(.+\\); here it is:$`));
        expect(JSON.parse(rest.join('\n'))).toEqual(summary);
      }
      err.mockClear();
      writeSummary(join(dir, 'new', 'summary.json'), summary);
      expect(err).not.toHaveBeenCalled();
      expect(JSON.parse(readFileSync(join(dir, 'new', 'summary.json'), 'utf8'))).toEqual(summary);
    } finally {
      err.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});


describe('the line of an unverified stop (exit 3)', () => {
  it('names the orders the venue still lists, or says the list never answered instead of "0 still live"', async () => {
    const { unverifiedStopMessage } = await import('../../src/cli/commands/run.ts');
    const order = { orderId: '0xabc', clientOrderId: 'c1', tokenId: 't', side: 'BUY', price: '0.4', size: '5' };
    expect(unverifiedStopMessage({ verified: false, rounds: 4, live: [order] }, undefined)).toBe('1 order(s) still live at the venue after the stop: 0xabc');
    expect(unverifiedStopMessage({ verified: false, rounds: 4, live: [], unlisted: true }, undefined)).toBe(
      "the stop is unverified: the venue's list of open orders never answered within execution.stopDeadlineMs (4 round(s)); 0 order(s) were open in our own book; check the venue",
    );
    expect(unverifiedStopMessage({ verified: false, rounds: 2, live: [order], unlisted: true }, { what: 'a store write', message: 'disk full' })).toBe(
      "the stop is unverified: the venue's list of open orders never answered within execution.stopDeadlineMs (2 round(s)); 1 order(s) were open in our own book: 0xabc; check the venue (the run failed on a store write: disk full)",
    );
  });
});
