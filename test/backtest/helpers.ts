import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMicros } from '../../src/core/fixed.ts';
import type { BookLevel, OrderBook } from '../../src/core/types.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { RunConfig } from '../../src/config/run-config.ts';
import type { MarketEvent } from '../../src/core/events.ts';
import type { RecordingHeader } from '../../src/data/recording/format.ts';

export const COND = '0x' + 'ab'.repeat(32);
export const COND2 = '0x' + 'cd'.repeat(32);
export const YES = '111';
export const NO = '222';
export const YES2 = '333';
export const NO2 = '444';
export const T0 = 1_700_000_000_000;

/** Micros from a decimal string, for readable test data: m('0.52'). */
export function m(text: string): number {
  const v = parseMicros(text);
  if (!Number.isSafeInteger(v)) throw new Error(`bad decimal ${text}`);
  return v;
}

export function header(markets = 1): RecordingHeader {
  const all = [
    {
      conditionId: COND,
      question: 'Will it rain?',
      slug: 'will-it-rain',
      negRisk: false,
      tickSize: '0.01',
      minOrderSize: '5',
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 0,
      tokens: [
        { tokenId: YES, outcome: 'Yes' },
        { tokenId: NO, outcome: 'No' },
      ],
    },
    {
      conditionId: COND2,
      question: 'Will it snow?',
      slug: 'will-it-snow',
      negRisk: false,
      tickSize: '0.01',
      minOrderSize: '5',
      makerBaseFeeBps: 0,
      takerBaseFeeBps: 0,
      tokens: [
        { tokenId: YES2, outcome: 'Yes' },
        { tokenId: NO2, outcome: 'No' },
      ],
    },
  ];
  return { format: 'clobot-recording', version: 1, createdAt: T0, source: 'test', markets: all.slice(0, markets) };
}

/** Levels from `[['0.50', '300'], ...]`. */
export function levels(list: readonly (readonly [string, string])[]): BookLevel[] {
  return list.map(([p, s]) => ({ price: m(p), size: m(s) }));
}

let hashSeq = 0;

export function bookEvent(
  t: number,
  bids: readonly (readonly [string, string])[],
  asks: readonly (readonly [string, string])[],
  extra: { tokenId?: string; conditionId?: string; tickSize?: string; minOrderSize?: string } = {},
): MarketEvent {
  const book: OrderBook = {
    tokenId: extra.tokenId ?? YES,
    conditionId: extra.conditionId ?? COND,
    tsEvent: t,
    tsInit: t,
    hash: `h${++hashSeq}`,
    bids: levels(bids),
    asks: levels(asks),
    tickSize: extra.tickSize !== undefined ? m(extra.tickSize) : undefined,
    minOrderSize: extra.minOrderSize !== undefined ? m(extra.minOrderSize) : undefined,
    negRisk: false,
    lastTradePrice: undefined,
  };
  return { type: 'book', book, tsEvent: t, tsInit: t };
}

export function tradeEvent(t: number, side: 'BUY' | 'SELL', price: string, size: string, tokenId = YES): MarketEvent {
  return { type: 'trade', tokenId, price: m(price), size: m(size), side, tsEvent: t, tsInit: t };
}

export class TempDir {
  readonly dir = mkdtempSync(join(tmpdir(), 'clobot-bt-'));
  write(name: string, text: string): string {
    const path = join(this.dir, name);
    writeFileSync(path, text);
    return path;
  }
  path(name: string): string {
    return join(this.dir, name);
  }
  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A backtest config from YAML text (strategies' modules need not exist when definitions are given). */
export function backtestConfig(dir: TempDir, text: string, name = 'bt.yaml'): RunConfig {
  const path = dir.write(name, text);
  return parseConfig(text, path, {}, { cwd: dir.dir });
}

/** A backtest config of the band quoter over two synthetic markets (the sweep and data tests' config). */
export function bandQuoterYaml(name: string, fees = '{ makerBps: 0, takerBps: 10 }', maxCount = 2): string {
  return `
mode: backtest
name: ${name}
data:
  markets: { filter: { maxCount: ${maxCount} } }
strategies:
  - id: bq
    module: ${join(process.cwd(), 'strategies/02-band-quoter.ts')}
    params: { size: 10, halfSpreadTicks: 1, requoteTicks: 1 }
backtest:
  latencyMs: 25
  fees: ${fees}
  equityIntervalMs: 10000
`;
}
