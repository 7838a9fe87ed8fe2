import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MarketRow } from '../../src/cli/commands/markets.ts';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { clobotProcess } from './clobot-process.ts';
import { iterateMarkets } from '../../src/venue/actions/iterate-markets.ts';
import { createVenueClient } from '../../src/venue/client.ts';
import type { TradingMarket } from '../../src/venue/domain/trading.ts';

/**
 * The commands that talk to a venue, as a user runs them against a sandbox on loopback: markets
 * lists each outcome's token id, book finds a book by token id or by market and outcome, a venue
 * that does not answer is one line naming its URL and `clobot sandbox`, and `--venue` is the
 * venue of a paper config that names none.
 */

let sandbox: RunningSandbox;
let markets: TradingMarket[];
let closedUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'clobot-venue-cli-'));

beforeAll(async () => {
  // no synthetic flow: the books stay as they are between two commands
  sandbox = await startSandbox({ port: 0, seed: 3, markets: 4, events: 2, flow: { enabled: false, intensity: 1 } });
  markets = [];
  for await (const m of iterateMarkets(createVenueClient({ baseUrl: sandbox.url, profile: 'interface' }))) markets.push(m);
  // a port nobody listens on
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const address = probe.address();
  closedUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  await new Promise((done) => probe.close(done));
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('clobot markets', () => {
  it('--json gives every outcome of each market with its token id, as the venue lists them', async () => {
    const r = await clobotProcess(['markets', '--venue', sandbox.url, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as MarketRow[];
    expect(rows.map((m) => m.conditionId)).toEqual(markets.map((m) => m.conditionId));
    for (const [i, row] of rows.entries()) {
      const market = markets[i]!;
      expect(row.slug).toBe(market.marketSlug);
      expect(row.tokens.map((t) => [t.outcome, t.tokenId])).toEqual(market.tokens.map((t) => [t.outcome, t.tokenId]));
      expect(row.tokens.length).toBeGreaterThanOrEqual(2);
      // each market's event and matching delay, as the venue's metadata gives them
      expect(row.secondsDelay).toBe(market.secondsDelay);
      // its end date: the venue's end_date_iso, as ISO 8601
      expect(market.endDate).toBeDefined();
      expect(row.endDate).toBe(new Date(market.endDate!).toISOString());
      expect(row.event).not.toBeNull();
      expect(row.event!.marketConditionIds).toContain(market.conditionId);
      expect(row.event).toMatchObject({ negRisk: market.negRisk, augmented: false });
    }
  });

  it('the table shows one row per outcome with its token id', async () => {
    const r = await clobotProcess(['markets', '--venue', sandbox.url]);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^question\s+slug\s+outcome\s+token id\s+tick\s+bid\s+ask$/);
    const body = lines.slice(2);
    expect(body).toHaveLength(markets.reduce((n, m) => n + m.tokens.length, 0));
    const tokens = markets.flatMap((m) => m.tokens);
    for (const [i, token] of tokens.entries()) expect(body[i]).toMatch(new RegExp(`\\s${token.outcome}\\s+${token.tokenId}\\s`));
  });
});

describe('clobot book', () => {
  it('takes a market slug or a condition id with --outcome (any case): the same book as by token id', async () => {
    const market = markets[0]!;
    const [first, second] = market.tokens;
    const byToken = await clobotProcess(['book', first!.tokenId, '--venue', sandbox.url]);
    expect(byToken.status, byToken.stderr).toBe(0);
    expect(byToken.stdout.split('\n')[0]).toContain(`book ${first!.tokenId}  market ${market.conditionId}`);
    const bySlug = await clobotProcess(['book', market.marketSlug, '--outcome', first!.outcome, '--venue', sandbox.url]);
    expect(bySlug.status, bySlug.stderr).toBe(0);
    expect(bySlug.stdout).toBe(byToken.stdout);
    const byCondition = await clobotProcess(['book', market.conditionId, '--outcome', second!.outcome.toUpperCase(), '--venue', sandbox.url]);
    expect(byCondition.status, byCondition.stderr).toBe(0);
    expect(byCondition.stdout.split('\n')[0]).toContain(`book ${second!.tokenId}  market ${market.conditionId}`);
  });

  it('a market without --outcome, or with one it does not have, is one line listing its outcomes and token ids, exit 2', async () => {
    const market = markets[1]!;
    const list = market.tokens.map((t) => `${t.outcome} (token ${t.tokenId})`).join(', ');
    const missing = await clobotProcess(['book', market.marketSlug, '--venue', sandbox.url]);
    expect([missing.status, missing.stdout, missing.stderr]).toEqual([2, '', `clobot: market '${market.marketSlug}' has outcomes ${list}: pass --outcome <name>\n`]);
    const wrong = await clobotProcess(['book', market.conditionId, '--outcome', 'Maybe', '--venue', sandbox.url]);
    expect([wrong.status, wrong.stdout, wrong.stderr]).toEqual([2, '', `clobot: market '${market.conditionId}' has no outcome 'Maybe'; its outcomes: ${list}\n`]);
    const unknown = await clobotProcess(['book', 'no-such-market', '--outcome', 'Yes', '--venue', sandbox.url]);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(`clobot: no market 'no-such-market' at ${sandbox.url} (a token id, a market slug or a condition id; \`clobot markets --search <text>\` finds them)\n`);
  });
});

describe('a venue that does not answer', () => {
  const line = (url: string, request: string): string =>
    `clobot: TransportError: cannot reach the venue at ${url} (${request}: ECONNREFUSED): start a local one with \`clobot sandbox\` (it listens on http://127.0.0.1:8765) or pass --venue <url>\n`;

  it('markets and book say which URL they tried and how to start a sandbox: one line, exit 1', async () => {
    const m = await clobotProcess(['markets', '--venue', closedUrl]);
    expect([m.status, m.stdout, m.stderr]).toEqual([1, '', line(closedUrl, 'GET /markets')]);
    const b = await clobotProcess(['book', '123', '--venue', closedUrl]);
    expect([b.status, b.stdout, b.stderr]).toEqual([1, '', line(closedUrl, 'GET /book')]);
  });

  it('run says the same for its config venue before trading (one line on stderr, exit 1)', async () => {
    const config = join(dir, 'unreachable.yaml');
    writeFileSync(config, paperConfig([`venue: { baseUrl: ${closedUrl}, retries: 0 }`]));
    const r = await clobotProcess(['run', config, '--no-status', '--duration', '5s']);
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(line(closedUrl, 'GET /markets'));
  }, 60_000);
});

describe('--venue counts as the venue in every mode', () => {
  it('a paper config with no venue key runs against --venue (exit 0, a summary)', async () => {
    const config = join(dir, 'paper-no-venue.yaml');
    writeFileSync(config, paperConfig([]));
    const summaryPath = join(dir, 'paper-summary.json');
    const without = await clobotProcess(['validate', config]);
    expect(without.status).toBe(2);
    expect(without.stderr).toContain('required in paper mode');
    const r = await clobotProcess(['run', config, '--venue', sandbox.url, '--no-status', '--duration', '4s', '--summary', summaryPath]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('required in paper mode');
    expect(existsSync(summaryPath)).toBe(true);
    const summary = JSON.parse(readFileSync(summaryPath, 'utf8')) as EngineSummary;
    expect(summary.strategies).toEqual({ mm: 'STOPPED' });
  }, 60_000);
});

/** A paper config (logs in the temp folder, the repo's market maker on two markets) with `extra` lines. */
function paperConfig(extra: string[]): string {
  return [
    'mode: paper',
    ...extra,
    'data:',
    '  markets: { filter: { maxCount: 2 } }',
    'strategies:',
    '  - id: mm',
    `    module: ${resolve('strategies/market-maker.ts')}`,
    'logging:',
    `  file: ${join(dir, 'run.log')}`,
    '',
  ].join('\n');
}
