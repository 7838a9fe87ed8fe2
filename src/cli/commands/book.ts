import { Option, type Command } from 'commander';
import { VenueRejectError } from '../../core/errors.ts';
import { formatMicros } from '../../core/fixed.ts';
import type { OrderBook } from '../../core/types.ts';
import { getMarketBySlug } from '../../venue/actions/get-market-by-slug.ts';
import { getOrderBook } from '../../venue/actions/get-order-book.ts';
import { getTradingMarket } from '../../venue/actions/get-trading-market.ts';
import { createVenueClient, type VenueClient, type VenueProfile } from '../../venue/client.ts';
import { VENUE_PROFILES } from '../../venue/domain/profiles.ts';
import type { MarketToken } from '../../venue/domain/trading.ts';
import { parseIntOption, parseUrlOption } from '../options.ts';
import { UsageError } from '../usage-error.ts';
import { DEFAULT_VENUE_URL, reachingVenue } from '../venue-unreachable.ts';

interface BookFlags {
  venue: string;
  depth: number;
  profile: VenueProfile;
  outcome?: string;
}

const CONDITION_ID = /^0x[0-9a-fA-F]{64}$/;
const TOKEN_ID = /^\d+$/;

/**
 * `clobot book <token_id | market slug | condition id> [--outcome <name>]`: one order book as a
 * depth table, bids and asks side by side (best first), exact prices and sizes. A market (slug or
 * condition id) needs the outcome whose book to show; without it, or with one the market does not
 * have, the error lists the market's outcomes and their token ids. Reads the venue (default: a
 * local sandbox).
 */
export function registerBook(program: Command): void {
  program
    .command('book')
    .description('print the order book of a token (or of a market\'s outcome) as a depth table')
    .argument('<token>', 'token id (decimal), or a market slug or condition id (0x...) with --outcome')
    .option('--outcome <name>', 'the outcome of the market whose book to show (e.g. Yes)')
    .option('--venue <url>', 'venue base URL', parseUrlOption, DEFAULT_VENUE_URL)
    .option('--depth <n>', 'levels per side', parseIntOption(1, 1000), 10)
    .addOption(new Option('--profile <p>', 'wire profile').choices(VENUE_PROFILES).default('interface'))
    .action(async (token: string, flags: BookFlags) => {
      const venue = createVenueClient({ baseUrl: flags.venue, profile: flags.profile, retries: 1 });
      const book = await reachingVenue(flags.venue, async () => bookOf(venue, await tokenIdOf(venue, token, flags.outcome)));
      process.stdout.write(formatBook(book, flags.depth));
    });
}

/** The token's book; a token the venue has no book for is one line naming it (exit 2), not a raw error. */
async function bookOf(venue: VenueClient, tokenId: string): Promise<OrderBook> {
  try {
    return await getOrderBook(venue, tokenId);
  } catch (err) {
    if (err instanceof VenueRejectError && err.status === 404) {
      throw new UsageError(`no order book for token '${tokenId}' at ${venue.urls.trading}: ${err.venueMessage} (\`clobot markets\` lists the token ids)`);
    }
    throw err;
  }
}

/** The token id the argument names: itself when it is one, else the market's outcome. */
async function tokenIdOf(venue: VenueClient, arg: string, outcome: string | undefined): Promise<string> {
  if (TOKEN_ID.test(arg)) {
    if (outcome !== undefined) throw new UsageError(`--outcome goes with a market slug or condition id; '${arg}' is a token id`);
    return arg;
  }
  let tokens: readonly MarketToken[];
  try {
    const conditionId = CONDITION_ID.test(arg) ? arg : (await getMarketBySlug(venue, arg)).conditionId;
    tokens = (await getTradingMarket(venue, conditionId)).tokens;
  } catch (err) {
    if (err instanceof VenueRejectError && err.status === 404) {
      throw new UsageError(`no market '${arg}' at ${venue.urls.trading} (a token id, a market slug or a condition id; \`clobot markets --search <text>\` finds them)`);
    }
    throw err;
  }
  const list = tokens.map((t) => `${t.outcome} (token ${t.tokenId})`).join(', ');
  if (outcome === undefined) throw new UsageError(`market '${arg}' has outcomes ${list}: pass --outcome <name>`);
  const wanted = outcome.trim().toLowerCase();
  const found = tokens.find((t) => t.outcome.toLowerCase() === wanted);
  if (!found) throw new UsageError(`market '${arg}' has no outcome '${outcome}'; its outcomes: ${list}`);
  return found.tokenId;
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
