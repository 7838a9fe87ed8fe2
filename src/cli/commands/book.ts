import { Option, type Command } from 'commander';
import { formatMicros } from '../../core/fixed.ts';
import type { OrderBook } from '../../core/types.ts';
import { getOrderBook } from '../../venue/actions/get-order-book.ts';
import { createVenueClient, type VenueProfile } from '../../venue/client.ts';
import { parseIntOption, parseUrlOption } from '../options.ts';
import { DEFAULT_SANDBOX_PORT } from './sandbox.ts';

interface BookFlags {
  venue: string;
  depth: number;
  profile: VenueProfile;
}

/**
 * `clobot book <token_id>`: one order book as a depth table, bids and asks side by side (best
 * first), exact prices and sizes. Reads `GET /book` from the venue (default: a local sandbox).
 */
export function registerBook(program: Command): void {
  program
    .command('book')
    .description('print the order book of a token as a depth table (bids and asks side by side)')
    .argument('<token_id>', 'token id (decimal)')
    .option('--venue <url>', 'venue base URL', parseUrlOption, `http://127.0.0.1:${DEFAULT_SANDBOX_PORT}`)
    .option('--depth <n>', 'levels per side', parseIntOption(1, 1000), 10)
    .addOption(new Option('--profile <p>', 'wire profile').choices(['interface', 'polymarket']).default('interface'))
    .action(async (tokenId: string, flags: BookFlags) => {
      const venue = createVenueClient({ baseUrl: flags.venue, profile: flags.profile, retries: 1 });
      const book = await getOrderBook(venue, tokenId);
      process.stdout.write(formatBook(book, flags.depth));
    });
}

/** The depth table of a book: a title line, a header, then one row per level (best first). */
export function formatBook(book: OrderBook, depth: number): string {
  const bids = book.bids.slice(0, depth);
  const asks = book.asks.slice(0, depth);
  const rows = Math.max(bids.length, asks.length);
  const cells: string[][] = [];
  for (let i = 0; i < rows; i++) {
    const bid = bids[i];
    const ask = asks[i];
    cells.push([
      bid ? formatMicros(bid.size) : '',
      bid ? formatMicros(bid.price) : '',
      ask ? formatMicros(ask.price) : '',
      ask ? formatMicros(ask.size) : '',
    ]);
  }
  const header = ['BID SIZE', 'BID', 'ASK', 'ASK SIZE'];
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((r) => (r[c] as string).length)));
  const line = (r: readonly string[]): string =>
    `${(r[0] as string).padStart(widths[0] as number)}  ${(r[1] as string).padStart(widths[1] as number)} | ${(r[2] as string).padEnd(widths[2] as number)}  ${(r[3] as string).padEnd(widths[3] as number)}`.trimEnd();
  const extras = [
    book.tickSize !== undefined ? `tick ${formatMicros(book.tickSize)}` : undefined,
    book.lastTradePrice !== undefined ? `last ${formatMicros(book.lastTradePrice)}` : undefined,
  ].filter((x) => x !== undefined);
  const title = `book ${book.tokenId}  market ${book.conditionId}${extras.length > 0 ? `  ${extras.join('  ')}` : ''}`;
  const out = [title, line(header), ...cells.map(line)];
  if (rows === 0) out.push('(empty book)');
  return out.join('\n') + '\n';
}
