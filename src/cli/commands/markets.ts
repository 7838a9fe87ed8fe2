import { InvalidArgumentError, type Command } from 'commander';
import { formatMicros } from '../../core/fixed.ts';
import { getOrderBooks } from '../../venue/actions/get-order-books.ts';
import { iterateMarkets } from '../../venue/actions/iterate-markets.ts';
import { createVenueClient } from '../../venue/client.ts';
import type { TradingMarket } from '../../venue/domain/trading.ts';
import { parseIntOption, parseUrlOption } from '../options.ts';
import { renderTable } from '../table.ts';

export const DEFAULT_VENUE_URL = 'http://127.0.0.1:8765';

interface MarketsOptions {
  venue: string;
  search?: string;
  limit: number;
  json?: boolean;
  profile: 'interface' | 'polymarket';
}

/**
 * `clobot markets`: walks the venue's market list (`GET /markets`, cursor pages), keeps the
 * markets whose question or slug contains `--search`, and shows each with its tick and the best
 * bid/ask of its first outcome (`POST /books`).
 */
export function registerMarkets(program: Command): void {
  program
    .command('markets')
    .description('list markets with their tick and best bid/ask')
    .option('--venue <url>', 'venue base URL', parseUrlOption, DEFAULT_VENUE_URL)
    .option('--search <text>', 'only markets whose question or slug contains this text (case-insensitive)')
    .option('--limit <n>', 'at most this many markets', parseIntOption(1, 10_000), 20)
    .option('--profile <profile>', 'wire profile: interface or polymarket', parseProfile, 'interface')
    .option('--json', 'print JSON instead of a table')
    .action(async (opts: MarketsOptions) => {
      const client = createVenueClient({ baseUrl: opts.venue, profile: opts.profile, retries: 2 });
      const needle = opts.search?.toLowerCase();
      const found: TradingMarket[] = [];
      for await (const market of iterateMarkets(client)) {
        if (needle && !market.question.toLowerCase().includes(needle) && !market.marketSlug.toLowerCase().includes(needle)) continue;
        found.push(market);
        if (found.length >= opts.limit) break;
      }
      const firstTokens = found.map((m) => m.tokens[0]?.tokenId).filter((id): id is string => id !== undefined);
      const books = firstTokens.length > 0 ? await getOrderBooks(client, firstTokens) : [];
      const byToken = new Map(books.map((b) => [b.tokenId, b]));
      const rows = found.map((m) => {
        const book = m.tokens[0] ? byToken.get(m.tokens[0].tokenId) : undefined;
        const bid = book?.bids[0]?.price;
        const ask = book?.asks[0]?.price;
        return {
          question: m.question,
          conditionId: m.conditionId,
          outcome: m.tokens[0]?.outcome ?? '',
          tick: formatMicros(m.tickSize),
          bestBid: bid === undefined ? null : formatMicros(bid),
          bestAsk: ask === undefined ? null : formatMicros(ask),
          negRisk: m.negRisk,
          acceptingOrders: m.acceptingOrders,
        };
      });
      if (opts.json) {
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      if (rows.length === 0) {
        process.stdout.write(needle ? `no market matches '${opts.search}'\n` : 'no markets\n');
        return;
      }
      process.stdout.write(
        renderTable(
          ['question', 'condition id', 'outcome', 'tick', 'bid', 'ask'],
          rows.map((r) => [clip(r.question, 56), `${r.conditionId.slice(0, 10)}…${r.conditionId.slice(-6)}`, r.outcome, r.tick, r.bestBid ?? '-', r.bestAsk ?? '-']),
          [false, false, false, true, true, true],
        ) + '\n',
      );
    });
}

function parseProfile(value: string): 'interface' | 'polymarket' {
  if (value !== 'interface' && value !== 'polymarket') {
    throw new InvalidArgumentError(`expected interface or polymarket, got '${value}'`);
  }
  return value;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, width - 1) + '…';
}
