import { InvalidArgumentError, type Command } from 'commander';
import { formatMicros } from '../../core/fixed.ts';
import type { EventInfo } from '../../core/types.ts';
import { venueEvents } from '../../data/market-events.ts';
import { eventsByMarket } from '../../data/market-tokens.ts';
import { bestAsk, bestBid } from '../../core/book.ts';
import { getOrderBooks } from '../../venue/actions/get-order-books.ts';
import { iterateMarkets } from '../../venue/actions/iterate-markets.ts';
import { createVenueClient } from '../../venue/client.ts';
import { isVenueProfile, VENUE_PROFILES, type VenueProfile } from '../../venue/domain/profiles.ts';
import type { TradingMarket } from '../../venue/domain/trading.ts';
import { parseIntOption, parseUrlOption } from '../options.ts';
import { renderTable } from '../table.ts';
import { UsageError } from '../usage-error.ts';
import { formatRewardMarkets, rankRewardMarkets } from './markets-rewards.ts';
import { DEFAULT_VENUE_URL, reachingVenue } from '../venue-unreachable.ts';

interface MarketsOptions {
  venue: string;
  search?: string;
  limit: number;
  json?: boolean;
  profile: VenueProfile;
  rewards?: boolean;
  quote: number;
}

/** One market as `--json` prints it: each outcome with its token id and best bid/ask. */
export interface MarketRow {
  readonly question: string;
  readonly slug: string;
  readonly conditionId: string;
  readonly tick: string;
  readonly negRisk: boolean;
  readonly acceptingOrders: boolean;
  /** The market's matching delay, seconds (the venue's `seconds_delay`; 0: none). */
  readonly secondsDelay: number;
  /** When the market ends (the venue's `end_date_iso`), ISO 8601 UTC; null when the venue lists none. */
  readonly endDate: string | null;
  /** The market's event (id, slug, title, neg-risk and augmented flags, its markets); null when the venue names none. */
  readonly event: EventInfo | null;
  readonly tokens: readonly { readonly outcome: string; readonly tokenId: string; readonly bestBid: string | null; readonly bestAsk: string | null }[];
}

/**
 * `clobot markets`: walks the venue's market list (`GET /markets`, cursor pages), keeps the
 * markets whose question or slug contains `--search`, and shows each outcome with its token id
 * (what `clobot book` and a config's `tokenIds` take), the market's tick and the outcome's best
 * bid/ask (`POST /books`); `--json` adds each market's matching delay, its end date and its event (read from the
 * venue's metadata, one lookup per market and per event). `--rewards` lists the markets that pay
 * liquidity rewards instead, ranked by what a two-sided quote of `--quote` USDC would earn a day
 * against the depth already in the band (markets-rewards.ts, docs/rewards.md).
 */
export function registerMarkets(program: Command): void {
  program
    .command('markets')
    .description('list markets: each outcome with its token id, the tick and the best bid/ask')
    .option('--venue <url>', 'venue base URL', parseUrlOption, DEFAULT_VENUE_URL)
    .option('--search <text>', 'only markets whose question or slug contains this text (case-insensitive)')
    .option('--limit <n>', 'at most this many markets', parseIntOption(1, 10_000), 20)
    .option('--profile <profile>', 'wire profile: interface or polymarket', parseProfile, 'interface')
    .option('--json', 'print JSON instead of a table')
    .option('--rewards', 'only markets that pay liquidity rewards, ranked by daily rate against the qualifying depth already in the band: the expected share (and USDC a day) of a two-sided quote of --quote USDC')
    .option('--quote <usdc>', 'with --rewards: the two-sided quote the ranking prices, USDC', parseQuoteUsdc, 100)
    .action(async (opts: MarketsOptions, command: Command) => {
      if (!opts.rewards && command.getOptionValueSource('quote') === 'cli') throw new UsageError('--quote prices the --rewards ranking: give --rewards too');
      const client = createVenueClient({ baseUrl: opts.venue, profile: opts.profile, retries: 2 });
      const needle = opts.search?.toLowerCase();
      if (opts.rewards) {
        const ranked = await reachingVenue(opts.venue, async () => {
          const all: TradingMarket[] = [];
          for await (const market of iterateMarkets(client)) {
            if (needle && !market.question.toLowerCase().includes(needle) && !market.marketSlug.toLowerCase().includes(needle)) continue;
            all.push(market);
          }
          return (await rankRewardMarkets(client, all, opts.quote)).slice(0, opts.limit);
        });
        if (opts.json) process.stdout.write(JSON.stringify(ranked, null, 2) + '\n');
        else process.stdout.write(ranked.length === 0 ? `no open market pays liquidity rewards${needle ? ` among those matching '${opts.search}'` : ''}\n` : formatRewardMarkets(ranked, opts.quote) + '\n');
        return;
      }
      const rows = await reachingVenue(opts.venue, async () => {
        const found: TradingMarket[] = [];
        for await (const market of iterateMarkets(client)) {
          if (needle && !market.question.toLowerCase().includes(needle) && !market.marketSlug.toLowerCase().includes(needle)) continue;
          found.push(market);
          if (found.length >= opts.limit) break;
        }
        const tokenIds = found.flatMap((m) => m.tokens.map((t) => t.tokenId));
        const books = tokenIds.length > 0 ? await getOrderBooks(client, tokenIds) : [];
        const byToken = new Map(books.map((b) => [b.tokenId, b]));
        // events only for --json (the table has no column for them): a lookup per market and per event
        const events = !opts.json ? [] : await venueEvents(client, found, (msg, fields) => process.stderr.write(`warning: ${msg} ${JSON.stringify(fields)}\n`));
        const eventOf = eventsByMarket(events);
        return found.map((m): MarketRow => ({
          question: m.question,
          slug: m.marketSlug,
          conditionId: m.conditionId,
          tick: formatMicros(m.tickSize),
          negRisk: m.negRisk,
          acceptingOrders: m.acceptingOrders,
          secondsDelay: m.secondsDelay,
          endDate: m.endDate === undefined ? null : new Date(m.endDate).toISOString(),
          event: eventOf.get(m.conditionId.toLowerCase()) ?? null,
          tokens: m.tokens.map((t) => {
            const book = byToken.get(t.tokenId);
            const bid = bestBid(book);
            const ask = bestAsk(book);
            return { outcome: t.outcome, tokenId: t.tokenId, bestBid: bid === undefined ? null : formatMicros(bid), bestAsk: ask === undefined ? null : formatMicros(ask) };
          }),
        }));
      });
      if (opts.json) {
        process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      if (rows.length === 0) {
        process.stdout.write(needle ? `no market matches '${opts.search}'\n` : 'no markets\n');
        return;
      }
      process.stdout.write(formatMarkets(rows) + '\n');
    });
}

/** The table: one row per outcome, the market's question, slug and tick on its first outcome's row. */
export function formatMarkets(rows: readonly MarketRow[]): string {
  const cells = rows.flatMap((m) =>
    m.tokens.map((t, i) => [
      i === 0 ? clip(m.question, 48) : '',
      i === 0 ? clip(m.slug, 32) : '',
      t.outcome,
      t.tokenId,
      i === 0 ? m.tick : '',
      t.bestBid ?? '-',
      t.bestAsk ?? '-',
    ]),
  );
  return renderTable(['question', 'slug', 'outcome', 'token id', 'tick', 'bid', 'ask'], cells, [false, false, false, false, true, true, true]);
}

function parseQuoteUsdc(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(n > 0) || n > 1_000_000_000) throw new InvalidArgumentError(`expected a positive number of USDC (at most 1e9), got '${value}'`);
  return n;
}

function parseProfile(value: string): VenueProfile {
  if (!isVenueProfile(value)) {
    throw new InvalidArgumentError(`expected ${VENUE_PROFILES.join(' or ')}, got '${value}'`);
  }
  return value;
}

function clip(text: string, width: number): string {
  return text.length <= width ? text : text.slice(0, width - 1) + '…';
}
