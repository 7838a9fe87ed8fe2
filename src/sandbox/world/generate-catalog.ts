import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import { DAY_MS, address, hex32, slugify, tokenId } from './ids.ts';
import type {
  SandboxCreator,
  SandboxEvent,
  SandboxMarket,
  SandboxRewards,
  SandboxSeries,
  SandboxTag,
  SandboxToken,
  Topic,
} from './model.ts';
import { Prng } from './prng.ts';
import * as words from './vocabulary.ts';

/**
 * Events, markets, tags, series and creators from a seed. Every event and every market draws
 * from its own labelled stream, so the catalog of a seed is the same whatever its size, up to the
 * layout (how many markets each event holds).
 */
export interface CatalogOptions {
  readonly seed: number;
  readonly markets: number;
  readonly events: number;
  readonly epochMs: number;
}

export interface Catalog {
  readonly tags: readonly SandboxTag[];
  readonly creators: readonly SandboxCreator[];
  readonly series: readonly SandboxSeries[];
  readonly events: readonly SandboxEvent[];
  readonly markets: readonly SandboxMarket[];
}

/** Tick sizes in Micros. */
const TICK_0_1 = 100_000;
const TICK_0_01 = 10_000;
const TICK_0_001 = 1_000;
const TICK_0_0001 = 100;

/** The first binary markets get one tick each, so every world of 4+ binary markets has all four. */
const FORCED_TICKS: readonly Micros[] = [TICK_0_1, TICK_0_01, TICK_0_001, TICK_0_0001];

export const BINARY_TICKS: readonly (readonly [Micros, number])[] = [
  [TICK_0_01, 0.55],
  [TICK_0_001, 0.3],
  [TICK_0_1, 0.05],
  [TICK_0_0001, 0.1],
];
const NEG_RISK_TICKS: readonly (readonly [Micros, number])[] = [
  [TICK_0_01, 0.5],
  [TICK_0_001, 0.4],
  [TICK_0_0001, 0.1],
];
export const MIN_SIZES: readonly (readonly [number, number])[] = [
  [5, 0.7],
  [10, 0.15],
  [1, 0.15],
];
/** Maker / taker base fee in bps. */
export const FEES: readonly (readonly [readonly [number, number], number])[] = [
  [[0, 0], 0.6],
  [[0, 1000], 0.2],
  [[1000, 1000], 0.2],
];
/** Share of events that are multi-outcome (neg-risk) when there are markets to spare. */
const NEG_RISK_EVENT_SHARE = 0.3;
/** Share of neg-risk events that are augmented (an unlisted "Other" outcome: `negRiskAugmented`). */
export const AUGMENTED_EVENT_SHARE = 0.35;
const CLOSED_EVENT_SHARE = 0.08;
export const REWARDED_MARKET_SHARE = 0.4;

export const TOPICS: readonly Topic[] = ['politics', 'sports', 'crypto', 'culture', 'weather', 'tech'];
const TOPIC_TAGS: Readonly<Record<Topic, readonly string[]>> = {
  politics: ['Politics', 'Elections', 'World'],
  sports: ['Sports', 'Football', 'Basketball'],
  crypto: ['Crypto', 'Prices', 'Up or Down'],
  culture: ['Culture', 'Movies', 'Awards'],
  weather: ['Weather', 'Climate', 'Daily'],
  tech: ['Tech', 'AI', 'Science', 'Business'],
};

export const ASSET_HOST = 'https://img.sandbox.invalid';
export const SOURCE_HOST = 'https://sources.sandbox.invalid';

export function generateCatalog(options: CatalogOptions): Catalog {
  const { seed, epochMs } = options;
  const marketCount = Math.max(1, Math.floor(options.markets));
  const eventCount = Math.min(Math.max(1, Math.floor(options.events)), marketCount);

  const tags = makeTags(seed, epochMs);
  const tagByLabel = new Map(tags.map((t) => [t.label, t]));
  const creators = makeCreators(seed, epochMs, Math.min(30, Math.max(3, Math.ceil(eventCount / 5))));
  const series = makeSeries(seed, epochMs, Math.min(30, Math.max(1, Math.round(eventCount / 8))));

  const layout = makeLayout(seed, eventCount, marketCount);
  const events: SandboxEvent[] = [];
  const markets: SandboxMarket[] = [];
  const eventSlugs = new Set<string>();
  const marketSlugs = new Set<string>();
  let binarySeen = 0;

  for (let i = 0; i < eventCount; i++) {
    const size = layout.sizes[i] as number;
    const negRisk = layout.negRisk[i] as boolean;
    const rng = Prng.from(seed, 'event', i);
    const topic = rng.pick(TOPICS);
    const closed = i > 0 && rng.chance(CLOSED_EVENT_SHARE);
    const dates = eventDates(rng, epochMs, closed);
    const plan = negRisk ? planNegRisk(rng, topic, size, dates.endDate) : planBinary(rng, topic, dates.endDate);
    const id = String(20_000 + i);
    const slug = uniqueSlug(eventSlugs, slugify(plan.title), id);
    const eventTags = pickTags(rng, topic, tagByLabel);
    const event: SandboxEvent = {
      index: i,
      id,
      ticker: slug,
      slug,
      title: plan.title,
      description: plan.description,
      resolutionSource: `${SOURCE_HOST}/${topic}`,
      image: `${ASSET_HOST}/events/${slug}.png`,
      icon: `${ASSET_HOST}/events/${slug}-icon.png`,
      topic,
      startDate: dates.startDate,
      creationDate: dates.createdAt,
      endDate: dates.endDate,
      createdAt: dates.createdAt,
      updatedAt: dates.updatedAt,
      active: true,
      closed,
      archived: false,
      negRisk,
      negRiskMarketId: negRisk ? hex32(rng) : '',
      // its own stream, so the flag leaves every other draw of the catalog as it was
      negRiskAugmented: negRisk && Prng.from(seed, 'augmented', i).chance(AUGMENTED_EVENT_SHARE),
      tags: eventTags,
      series: rng.chance(0.3) ? rng.pick(series) : undefined,
      creator: rng.pick(creators),
      markets: [],
    };
    events.push(event);

    const shares = negRisk ? negRiskShares(rng, size) : [];
    const winner = closed ? rng.int(0, size - 1) : -1;
    for (let k = 0; k < size; k++) {
      const index = markets.length;
      const mrng = Prng.from(seed, 'market', index);
      const entry = plan.markets[k] as MarketPlan;
      let tick: Micros;
      let mid: Micros;
      if (negRisk) {
        tick = mrng.weighted(NEG_RISK_TICKS);
        mid = clampToGrid(Math.round((shares[k] as number) * MICROS_PER_UNIT), tick);
      } else {
        tick = binarySeen < FORCED_TICKS.length ? (FORCED_TICKS[binarySeen] as Micros) : mrng.weighted(BINARY_TICKS);
        binarySeen++;
        const lo = Math.max(30_000, 3 * tick);
        const hi = Math.min(970_000, MICROS_PER_UNIT - 3 * tick);
        mid = clampToGrid(mrng.int(lo, hi), tick);
      }
      const [makerBaseFee, takerBaseFee] = mrng.weighted(FEES);
      const numericId = 500_000 + index;
      const slugBase = slugify(entry.question);
      const marketSlug = uniqueSlug(marketSlugs, slugBase, String(numericId));
      const winnerIndex: 0 | 1 | undefined = !closed
        ? undefined
        : negRisk
          ? k === winner
            ? 0
            : 1
          : mrng.chance(0.5)
            ? 0
            : 1;
      const rewards: SandboxRewards | undefined =
        !closed && mrng.chance(REWARDED_MARKET_SHARE)
          ? {
              dailyRate: mrng.pick([5, 10, 25, 50, 100]),
              minSize: mrng.pick([20, 50, 100, 200]),
              maxSpread: mrng.pick([1.5, 3, 3.5, 4.5]),
            }
          : undefined;
      const createdAt = dates.createdAt + mrng.int(0, 3_600_000);
      const tokens: SandboxToken[] = [];
      const market: SandboxMarket = {
        index,
        id: String(numericId),
        numericId,
        conditionId: hex32(mrng),
        questionId: hex32(mrng),
        slug: marketSlug,
        question: entry.question,
        description: entry.description,
        resolutionSource: event.resolutionSource,
        image: `${ASSET_HOST}/markets/${marketSlug}.png`,
        icon: `${ASSET_HOST}/markets/${marketSlug}-icon.png`,
        event,
        tokens: tokens as unknown as readonly [SandboxToken, SandboxToken],
        outcomes: entry.outcomes,
        tickSize: tick,
        minOrderSize: mrng.weighted(MIN_SIZES) * MICROS_PER_UNIT,
        makerBaseFee,
        takerBaseFee,
        negRisk,
        negRiskMarketId: event.negRiskMarketId,
        negRiskRequestId: negRisk ? hex32(mrng) : '',
        secondsDelay: topic === 'sports' ? 3 : 0,
        startDate: Math.max(dates.startDate, createdAt),
        endDate: dates.endDate,
        createdAt,
        updatedAt: Math.max(createdAt, dates.updatedAt),
        active: true,
        closed,
        archived: false,
        acceptingOrders: !closed,
        enableOrderBook: !closed,
        winnerIndex,
        rewards,
        initialMid: mid,
      };
      const yesId = tokenId(mrng);
      const noId = tokenId(mrng);
      const yes: SandboxToken = { tokenId: yesId, outcome: entry.outcomes[0], outcomeIndex: 0, market, complement: () => no };
      const no: SandboxToken = { tokenId: noId, outcome: entry.outcomes[1], outcomeIndex: 1, market, complement: () => yes };
      tokens.push(yes, no);
      markets.push(market);
      event.markets.push(market);
    }
  }
  return { tags, creators, series, events, markets };
}

interface Layout {
  readonly sizes: number[];
  readonly negRisk: boolean[];
}

/** How many markets each event holds: one each, the rest spread over the neg-risk events. */
function makeLayout(seed: number, eventCount: number, marketCount: number): Layout {
  const rng = Prng.from(seed, 'layout');
  const sizes = new Array<number>(eventCount).fill(1);
  const negRisk = new Array<boolean>(eventCount).fill(false);
  let extra = marketCount - eventCount;
  if (extra <= 0) return { sizes, negRisk };
  const count = Math.min(eventCount, extra, Math.max(1, Math.round(eventCount * NEG_RISK_EVENT_SHARE)));
  const chosen = rng.shuffle(Array.from({ length: eventCount }, (_, i) => i)).slice(0, count).sort((a, b) => a - b);
  for (const i of chosen) {
    negRisk[i] = true;
    sizes[i] = 2;
  }
  extra -= count;
  const weights = chosen.map(() => 0.5 + rng.float() * 2);
  const total = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / total) * extra);
  let given = 0;
  chosen.forEach((i, j) => {
    const n = Math.floor(exact[j] as number);
    sizes[i] = (sizes[i] as number) + n;
    given += n;
  });
  // Hand out the remainder by largest fractional part (ties by position), deterministically.
  const order = chosen
    .map((i, j) => ({ i, frac: (exact[j] as number) - Math.floor(exact[j] as number), j }))
    .sort((a, b) => b.frac - a.frac || a.j - b.j);
  for (let r = 0; r < extra - given; r++) {
    const target = order[r % order.length] as { i: number };
    sizes[target.i] = (sizes[target.i] as number) + 1;
  }
  return { sizes, negRisk };
}

interface EventDates {
  readonly createdAt: number;
  readonly startDate: number;
  readonly endDate: number;
  readonly updatedAt: number;
}

function eventDates(rng: Prng, epochMs: number, closed: boolean): EventDates {
  const jitter = (): number => rng.int(0, DAY_MS - 1);
  if (closed) {
    const endDate = epochMs - rng.int(1, 90) * DAY_MS - jitter();
    const createdAt = endDate - rng.int(20, 300) * DAY_MS - jitter();
    return { createdAt, startDate: createdAt + rng.int(0, 3_600_000), endDate, updatedAt: endDate + rng.int(0, 2 * DAY_MS) };
  }
  const createdAt = epochMs - rng.int(5, 400) * DAY_MS - jitter();
  const endDate = epochMs + rng.int(365, 1000) * DAY_MS + jitter();
  return { createdAt, startDate: createdAt + rng.int(0, 3_600_000), endDate, updatedAt: epochMs - rng.int(0, 5 * DAY_MS) };
}

interface MarketPlan {
  readonly question: string;
  readonly description: string;
  readonly outcomes: readonly [string, string];
}

interface EventPlan {
  readonly title: string;
  readonly description: string;
  readonly markets: readonly MarketPlan[];
}

const YES_NO: readonly [string, string] = ['Yes', 'No'];

function dateText(ms: number): string {
  const d = new Date(ms);
  return `${words.MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

function yesNoRules(condition: string, source: string): string {
  return `This market will resolve to "Yes" if ${condition}. Otherwise, this market will resolve to "No".\n\nThe resolution source for this market is ${source}.`;
}

function person(rng: Prng): string {
  return `${rng.pick(words.FIRST_NAMES)} ${rng.pick(words.LAST_NAMES)}`;
}

function team(rng: Prng): string {
  return `${rng.pick(words.CITIES)} ${rng.pick(words.MASCOTS)}`;
}

function company(rng: Prng): string {
  return `${rng.pick(words.COMPANIES_A)}${rng.pick(words.COMPANIES_B)}`;
}

function film(rng: Prng): string {
  return `The ${rng.pick(words.FILM_ADJECTIVES)} ${rng.pick(words.FILM_NOUNS)}`;
}

export function planBinary(rng: Prng, topic: Topic, endDate: number): EventPlan {
  const when = dateText(endDate);
  let question: string;
  let outcomes = YES_NO;
  let description: string;
  switch (topic) {
    case 'politics': {
      const who = person(rng);
      const act = rng.pick(words.POLITICAL_ACTS);
      question = `Will ${who} ${act} by ${when}?`;
      description = yesNoRules(`${who} does the following by ${when}: ${act}`, 'official government and party announcements');
      break;
    }
    case 'sports': {
      const a = team(rng);
      let b = team(rng);
      while (b === a) b = team(rng);
      question = `${a} vs. ${b}`;
      outcomes = [a, b];
      description = `This market will resolve to "${a}" if the ${a} win the game scheduled for ${when}, and to "${b}" otherwise.\n\nThe resolution source for this market is the official league result.`;
      break;
    }
    case 'crypto': {
      const coin = rng.pick(words.COINS);
      if (rng.chance(0.5)) {
        question = `${coin} Up or Down - ${when}`;
        outcomes = ['Up', 'Down'];
        description = `This market will resolve to "Up" if the ${coin} price at the end of ${when} is greater than or equal to the price at the beginning of that day. Otherwise, it will resolve to "Down".`;
      } else {
        const level = rng.int(1, 200) * 500;
        question = `Will ${coin} close above $${level.toLocaleString('en-US')} on ${when}?`;
        description = yesNoRules(`the ${coin} closing price on ${when} is above $${level}`, 'the reference index of the sandbox exchange');
      }
      break;
    }
    case 'culture': {
      const title = film(rng);
      question = `Will "${title}" top the box office on its opening weekend?`;
      description = yesNoRules(`"${title}" has the highest gross of its opening weekend before ${when}`, 'published box office figures');
      break;
    }
    case 'weather': {
      const city = rng.pick(words.CITIES);
      question = `Will it snow in ${city} on ${when}?`;
      description = yesNoRules(`measurable snowfall is recorded in ${city} on ${when}`, 'the city weather station');
      break;
    }
    case 'tech': {
      const who = company(rng);
      const act = rng.pick(words.TECH_ACTS);
      question = `Will ${who} ${act} by ${when}?`;
      description = yesNoRules(`${who} does the following by ${when}: ${act}`, "the company's official announcements");
      break;
    }
  }
  return { title: question, description, markets: [{ question, description, outcomes }] };
}

function planNegRisk(rng: Prng, topic: Topic, size: number, endDate: number): EventPlan {
  const when = dateText(endDate);
  const d = new Date(endDate);
  const year = d.getUTCFullYear();
  const month = words.MONTHS[d.getUTCMonth()] as string;
  const names = (pool: readonly string[]): string[] => uniqueNames(rng.shuffle(pool), size);
  let title: string;
  let markets: MarketPlan[];
  switch (topic) {
    case 'politics': {
      const country = rng.pick(words.COUNTRIES);
      title = `${country} Presidential Election ${year}`;
      markets = names(combos(words.FIRST_NAMES, words.LAST_NAMES, ' ')).map((who) => ({
        question: `Will ${who} win the ${country} presidential election in ${year}?`,
        description: yesNoRules(`${who} wins the ${country} presidential election held in ${year}`, 'the national electoral commission'),
        outcomes: YES_NO,
      }));
      break;
    }
    case 'sports': {
      const league = rng.pick(words.LEAGUES);
      title = `${league} Champion ${year}`;
      markets = names(combos(words.CITIES, words.MASCOTS, ' ')).map((who) => ({
        question: `Will the ${who} win the ${league} ${year}?`,
        description: yesNoRules(`the ${who} win the ${league} ${year}`, 'the official league result'),
        outcomes: YES_NO,
      }));
      break;
    }
    case 'crypto': {
      const coin = rng.pick(words.COINS);
      const step = rng.pick([250, 500, 1000, 2500]);
      const base = rng.int(1, 40) * step;
      title = `${coin} price at the end of ${month} ${year}`;
      markets = Array.from({ length: size }, (_, k) => {
        const lo = base + k * step;
        const hi = lo + step;
        return {
          question: `Will ${coin} end ${month} ${year} between $${lo} and $${hi}?`,
          description: yesNoRules(`the ${coin} price at the end of ${month} ${year} is at least $${lo} and below $${hi}`, 'the reference index of the sandbox exchange'),
          outcomes: YES_NO,
        };
      });
      break;
    }
    case 'culture': {
      const award = rng.pick(words.AWARDS);
      title = `${award} ${year}: Best Picture`;
      markets = names(combos(words.FILM_ADJECTIVES.map((a) => `The ${a}`), words.FILM_NOUNS, ' ')).map((what) => ({
        question: `Will "${what}" win Best Picture at the ${award} ${year}?`,
        description: yesNoRules(`"${what}" wins Best Picture at the ${award} ${year}`, 'the official list of winners'),
        outcomes: YES_NO,
      }));
      break;
    }
    case 'weather': {
      const city = rng.pick(words.CITIES);
      const base = rng.int(-10, 25);
      title = `Highest temperature in ${city} on ${when}?`;
      markets = Array.from({ length: size }, (_, k) => {
        const t = base + k;
        return {
          question: `Will the highest temperature in ${city} be ${t}°C on ${when}?`,
          description: yesNoRules(`the highest temperature recorded in ${city} on ${when}, rounded to a whole degree, is ${t}°C`, 'the city weather station'),
          outcomes: YES_NO,
        };
      });
      break;
    }
    case 'tech': {
      title = `Top AI lab at the end of ${month} ${year}?`;
      markets = names(combos(words.COMPANIES_A, words.COMPANIES_B, '')).map((who) => ({
        question: `Will ${who} have the top AI model at the end of ${month} ${year}?`,
        description: yesNoRules(`${who} holds the top spot of the public model leaderboard at the end of ${month} ${year}`, 'the public model leaderboard'),
        outcomes: YES_NO,
      }));
      break;
    }
  }
  const description = `This is a multi-outcome event: exactly one of its ${size} markets resolves to "Yes".\n\n${(markets[0] as MarketPlan).description}`;
  return { title, description, markets };
}

function combos(a: readonly string[], b: readonly string[], sep: string): string[] {
  const out: string[] = [];
  for (const x of a) for (const y of b) out.push(`${x}${sep}${y}`);
  return out;
}

/** `count` distinct names from a (shuffled) pool, numbered when the pool runs out. */
function uniqueNames(pool: readonly string[], count: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < count; k++) {
    const name = pool[k % pool.length] as string;
    const round = Math.floor(k / pool.length);
    out.push(round === 0 ? name : `${name} ${round + 1}`);
  }
  return out;
}

/** Skewed shares summing to about 1: one or two favourites, a long tail. */
function negRiskShares(rng: Prng, size: number): number[] {
  const weights = Array.from({ length: size }, () => rng.float() ** 3 + 0.01);
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
}

/** Rounds to the tick grid and keeps three ticks of room on each side. */
export function clampToGrid(price: Micros, tick: Micros): Micros {
  const lo = 3 * tick;
  const hi = MICROS_PER_UNIT - 3 * tick;
  const onGrid = Math.round(price / tick) * tick;
  return Math.min(hi, Math.max(lo, onGrid));
}

export function uniqueSlug(seen: Set<string>, base: string, id: string): string {
  const slug = seen.has(base) || base === '' ? `${base}-${id}` : base;
  seen.add(slug);
  return slug;
}

export function pickTags(rng: Prng, topic: Topic, byLabel: ReadonlyMap<string, SandboxTag>): SandboxTag[] {
  const labels = new Set<string>([TOPIC_TAGS[topic][0] as string]);
  for (const label of TOPIC_TAGS[topic]) if (rng.chance(0.5)) labels.add(label);
  if (rng.chance(0.3)) labels.add(rng.pick(words.TAG_LABELS));
  return [...labels].map((label) => byLabel.get(label) as SandboxTag);
}

function makeTags(seed: number, epochMs: number): SandboxTag[] {
  const rng = Prng.from(seed, 'tags');
  return words.TAG_LABELS.map((label, i) => {
    const createdAt = epochMs - rng.int(400, 900) * DAY_MS - rng.int(0, DAY_MS - 1);
    return { id: String(100 + i), label, slug: slugify(label), createdAt, updatedAt: createdAt + rng.int(0, 300) * DAY_MS };
  });
}

function makeCreators(seed: number, epochMs: number, count: number): SandboxCreator[] {
  const rng = Prng.from(seed, 'creators');
  return Array.from({ length: count }, (_, i) => {
    const base = words.CREATOR_NAMES[i % words.CREATOR_NAMES.length] as string;
    const round = Math.floor(i / words.CREATOR_NAMES.length);
    const creatorName = round === 0 ? base : `${base} ${round + 1}`;
    const creatorHandle = slugify(creatorName).replace(/-/g, '_');
    const createdAt = epochMs - rng.int(300, 900) * DAY_MS - rng.int(0, DAY_MS - 1);
    return {
      id: String(i + 1),
      creatorName,
      creatorHandle,
      creatorUrl: `https://creators.sandbox.invalid/${creatorHandle}`,
      creatorImage: `${ASSET_HOST}/creators/${creatorHandle}.png`,
      address: address(rng),
      createdAt,
      updatedAt: createdAt + rng.int(0, 200) * DAY_MS,
    };
  });
}

function makeSeries(seed: number, epochMs: number, count: number): SandboxSeries[] {
  const rng = Prng.from(seed, 'series');
  return Array.from({ length: count }, (_, i) => {
    const base = words.SERIES_SUBJECTS[i % words.SERIES_SUBJECTS.length] as string;
    const round = Math.floor(i / words.SERIES_SUBJECTS.length);
    const title = round === 0 ? base : `${base} ${round + 1}`;
    const slug = slugify(title);
    const createdAt = epochMs - rng.int(200, 700) * DAY_MS - rng.int(0, DAY_MS - 1);
    return {
      id: String(300 + i),
      ticker: slug,
      slug,
      title,
      seriesType: 'single',
      recurrence: rng.pick(['daily', 'weekly', 'monthly']),
      image: `${ASSET_HOST}/series/${slug}.png`,
      icon: `${ASSET_HOST}/series/${slug}-icon.png`,
      active: true,
      closed: false,
      createdAt,
      updatedAt: createdAt + rng.int(0, 100) * DAY_MS,
    };
  });
}
