import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DecodeError } from '../core/errors.ts';
import type { EventInfo } from '../core/types.ts';
import { columnNames, compareBytes, mayHold, openParquet, readRows, rowGroups } from './import-parquet.ts';

/**
 * The synthetic markets and events of an import of third-party quotes (`clobot import`): the ids
 * made from a slug, and what `markets.parquet` (slug, question, …) tells about the slugs: each
 * one's question, and the families they belong to.
 *
 * **A family** is one event of the source that lists several markets, one per outcome (the
 * "Bundesliga Relegation" markets `aachc-bun-2027-05-22-relegation-bvb`, `…-aug`, …). The data
 * names no event, so a family is recognised this way: markets with the same question whose slugs
 * differ only in their last `-` part (the outcome). A slug ending in a date (`…-2026-07-31`) is
 * no family's: the same question on another date is another game, not another outcome. Every
 * family of two markets or more that holds an imported market becomes one event of the header:
 * - `id`: `import-` + the first 16 hex digits of sha256 of `clobot-import-event:<question>\n<stem>`
 *   (stable across runs); `slug`: the slugs' shared part (the stem; `-<id>` appended in the rare
 *   case that two families of the import share a stem); `title`: the question;
 * - `marketConditionIds`: every market of the family in `markets.parquet` (sorted by slug), the
 *   ones not imported too (the venue lists every market of an event, followed or not);
 * - `negRisk: false`, `augmented: false`: the data does not say whether the outcomes are mutually
 *   exclusive and complete (a relegation family has two or three winners, a "Top-5" family five,
 *   a winner family may leave out an "Other"), so the import takes the safe value: not neg-risk.
 *   Nothing then treats a family as a set that pays 1 (event-arb never trades it, the portfolio
 *   never values it as a set), while `ctx.event()` and `ctx.events()` still show the family.
 */

/** Synthetic ids for a slug: stable across runs. */
export function syntheticIds(slug: string): { conditionId: string; yesTokenId: string; noTokenId: string } {
  return {
    conditionId: `0x${sha(`clobot-import:${slug}`)}`,
    yesTokenId: BigInt(`0x${sha(`clobot-import:${slug}:Yes`)}`).toString(10),
    noTokenId: BigInt(`0x${sha(`clobot-import:${slug}:No`)}`).toString(10),
  };
}

function sha(s: string): string {
  return createHash('sha256').update(s, 'utf8').digest('hex');
}

const DATED = /-\d{4}-\d{2}-\d{2}$/;

/** The part of a slug its family shares (all but the last `-` part); undefined: the slug is no family's. */
export function familyStem(slug: string): string | undefined {
  if (DATED.test(slug)) return undefined;
  const cut = slug.lastIndexOf('-');
  return cut <= 0 ? undefined : slug.slice(0, cut);
}

/** The event id of the family of `question` and `stem`. */
export function familyEventId(question: string, stem: string): string {
  return `import-${sha(`clobot-import-event:${question}\n${stem}`).slice(0, 16)}`;
}

export interface ImportedMarketInfo {
  /** slug -> question, for the slugs asked about that `markets.parquet` lists. */
  readonly questions: ReadonlyMap<string, string>;
  /** The families of those slugs as events, in the order of the first slug (as asked) of each. */
  readonly events: readonly EventInfo[];
}

const NONE: ImportedMarketInfo = { questions: new Map(), events: [] };

/**
 * Questions and families of `slugs` (the imported ones, in header order) from `markets.parquet`:
 * `marketsFile`, or the one beside `input` when there is one (undefined), or none (null).
 */
export async function readMarketInfo(marketsFile: string | null | undefined, input: string, slugs: readonly string[]): Promise<ImportedMarketInfo> {
  if (slugs.length === 0 || marketsFile === null) return NONE;
  const path = marketsFile ?? join(dirname(input), 'markets.parquet');
  if (marketsFile === undefined && !existsSync(path)) return NONE;
  const wanted = new Set(slugs);
  const stems = new Set<string>();
  for (const slug of slugs) {
    const stem = familyStem(slug);
    if (stem !== undefined) stems.add(stem);
  }
  // the row groups that may hold a wanted slug or a market of a wanted stem (`<stem>-…` sorts below `<stem>.`)
  const bounds = [...wanted, ...stems, ...[...stems].map((s) => `${s}.`)].sort(compareBytes);
  const lo = bounds[0]!;
  const hi = bounds[bounds.length - 1]!;
  const { file, metadata } = await openParquet(path);
  const have = columnNames(metadata);
  if (!have.has('slug') || !have.has('question')) throw new DecodeError(`${path}: columns`, 'a markets file with slug and question', `columns ${[...have].join(', ')}`);
  const questions = new Map<string, string>();
  /** family key (question \n stem) -> its slugs */
  const families = new Map<string, Set<string>>();
  for (const [g, { start, rows }] of rowGroups(metadata).entries()) {
    if (!mayHold(metadata, g, 'slug', lo, hi)) continue;
    for (const [slug, question] of await readRows(file, metadata, ['slug', 'question'], start, start + rows)) {
      if (typeof slug !== 'string' || typeof question !== 'string' || question === '') continue;
      if (wanted.has(slug) && !questions.has(slug)) questions.set(slug, question);
      const stem = familyStem(slug);
      if (stem === undefined || !stems.has(stem)) continue;
      const key = `${question}\n${stem}`;
      let members = families.get(key);
      if (members === undefined) families.set(key, (members = new Set()));
      members.add(slug);
    }
  }
  return { questions, events: familyEvents(slugs, questions, families) };
}

/** The families of two markets or more that hold one of `slugs`, as events (see the module comment). */
function familyEvents(slugs: readonly string[], questions: ReadonlyMap<string, string>, families: ReadonlyMap<string, ReadonlySet<string>>): EventInfo[] {
  const events: EventInfo[] = [];
  const done = new Set<string>();
  const slugsTaken = new Set<string>();
  for (const slug of slugs) {
    const question = questions.get(slug);
    const stem = familyStem(slug);
    if (question === undefined || stem === undefined) continue;
    const key = `${question}\n${stem}`;
    const members = families.get(key);
    if (done.has(key) || members === undefined || members.size < 2) continue;
    done.add(key);
    const id = familyEventId(question, stem);
    const eventSlug = slugsTaken.has(stem) ? `${stem}-${id}` : stem;
    slugsTaken.add(eventSlug);
    events.push({
      id,
      slug: eventSlug,
      title: question,
      negRisk: false,
      augmented: false,
      marketConditionIds: [...members].sort(compareBytes).map((s) => syntheticIds(s).conditionId),
    });
  }
  return events;
}
