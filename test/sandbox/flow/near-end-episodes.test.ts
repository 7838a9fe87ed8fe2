import { afterEach, describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/core/clock.ts';
import { MICROS_PER_UNIT } from '../../../src/core/fixed.ts';
import type { NearEndEpisodeOptions, NearEndView } from '../../../src/sandbox/flow/near-end-episodes.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/server.ts';
import { T0 } from './helpers.ts';

/**
 * Near-end episodes (sandbox/flow/near-end-episodes.ts): a market gets an end date, its favourite
 * drifts toward certainty on the book, and it closes and resolves at the end date through the
 * sandbox's market lifecycle; a breakdown's favourite collapses and loses. Seeded, with a rate
 * knob, and driven over the admin routes on a simulated clock.
 */

let open: RunningSandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((sb) => sb.close()));
  open = [];
});

async function sandbox(nearEnd: NearEndEpisodeOptions = {}, flow = true, intensity = 2): Promise<{ sb: RunningSandbox; clock: SimulatedClock }> {
  const clock = new SimulatedClock(T0);
  const sb = await startSandbox({ seed: 5, markets: 16, events: 6, clock, limits: { enabled: false }, flow: { enabled: flow, intensity }, nearEnd, resolution: { resolveAfterMs: 2_000 } });
  open.push(sb);
  return { sb, clock };
}

async function call(sb: RunningSandbox, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(sb.url + path, body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.status, body: await res.json() };
}

/** The best bid and ask of a token, USDC per share. */
function top(sb: RunningSandbox, tokenId: string): { bid: number; ask: number } {
  const q = sb.engine.quote(tokenId);
  return { bid: (q.bestBid ?? 0) / MICROS_PER_UNIT, ask: (q.bestAsk ?? MICROS_PER_UNIT) / MICROS_PER_UNIT };
}

/** Moves the simulated clock in steps of `stepMs`, calling `each` after every step. */
function advance(clock: SimulatedClock, ms: number, each: () => void = () => {}, stepMs = 250): void {
  for (let t = 0; t < ms; t += stepMs) {
    clock.advanceBy(stepMs);
    each();
  }
}

describe('near-end episodes (sandbox)', () => {
  it('the favourite drifts toward certainty, the market closes at its end date and resolves to it; the venue lists the end date', async () => {
    const { sb, clock } = await sandbox();
    advance(clock, 5_000); // the flow visits every market first
    const started = await call(sb, '/admin/near-end', { favourite: 0, approachMs: 60_000, startPrice: 0.9, endPrice: 0.97, breakdown: false });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const ep = started.body as NearEndView;
    expect(ep).toMatchObject({ favourite: 0, endDate: T0 + 5_000 + 60_000, winnerIndex: 0, collapsesAt: null, state: 'drifting' });
    const market = sb.world.marketByConditionId(ep.conditionId)!;
    expect(market.negRisk).toBe(false);
    // the trading form and the market listing carry the new end date
    const wire = (await (await fetch(`${sb.url}/clob/markets/${ep.conditionId}`)).json()) as { end_date_iso: string };
    expect(Date.parse(wire.end_date_iso)).toBe(ep.endDate);
    const yes = market.tokens[0].tokenId;
    const no = market.tokens[1].tokenId;
    advance(clock, 5_000);
    const early = top(sb, yes);
    expect(early.bid).toBeGreaterThanOrEqual(0.86);
    expect(early.ask).toBeLessThanOrEqual(0.95);
    // most of the way to the end: near certainty, and the NO side the mirror of it
    let late = early;
    advance(clock, 52_000, () => {
      if (!sb.world.marketByConditionId(ep.conditionId)!.closed) late = top(sb, yes);
    });
    expect(late.bid).toBeGreaterThanOrEqual(0.94);
    expect(late.bid).toBeGreaterThan(early.bid);
    expect(top(sb, no).ask).toBeCloseTo(1 - late.bid, 6);
    // the end date: closed, then resolved to the favourite
    advance(clock, 6_000);
    expect(sb.world.marketByConditionId(ep.conditionId)).toMatchObject({ closed: true, winnerIndex: 0, endDate: ep.endDate });
    const stats = (await call(sb, '/admin/near-end')).body as { episodes: NearEndView[]; planned: number; drifted: number; resolved: number; collapsed: number };
    expect(stats).toMatchObject({ planned: 1, drifted: 1, resolved: 1, collapsed: 0 });
    expect(stats.episodes[0]!.state).toBe('resolved');
    const resolution = (await call(sb, '/admin/markets/resolution')).body as { conditionId: string; winner: string | null }[];
    expect(resolution).toEqual([expect.objectContaining({ conditionId: ep.conditionId, winner: yes })]);
  });

  it('a breakdown: the favourite collapses before the end date and the other outcome wins', async () => {
    // a slow flow (its maker visits each market about once a second): the book between two visits stands
    const { sb, clock } = await sandbox({}, true, 0.2);
    advance(clock, 5_000);
    const started = await call(sb, '/admin/near-end', { favourite: 1, approachMs: 40_000, startPrice: 0.9, endPrice: 0.97, breakdown: true });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const ep = started.body as NearEndView;
    expect(ep.winnerIndex).toBe(0);
    expect(ep.collapsesAt).toBeGreaterThan(ep.driftsAt);
    expect(ep.collapsesAt).toBeLessThan(ep.endDate);
    expect(ep.collapseTo).toBeLessThanOrEqual(0.45);
    const market = sb.world.marketByConditionId(ep.conditionId)!;
    const fav = market.tokens[1].tokenId;
    advance(clock, ep.collapsesAt! - clock.now() - 1_000);
    expect(top(sb, fav).bid).toBeGreaterThanOrEqual(0.86);
    // the collapse: within its few seconds the favourite's bid is under its start, and the book
    // keeps a bid near the price all the way down (no gap to the seeded depth far below)
    // the favourite's bid after the book's last change at each instant (one visit of the flow's
    // maker cancels its old ladder, then places the new one: that instant's last book is what
    // stands), against the episode's price then: never a gap far under it
    const from = ep.startPrice + ((ep.endPrice - ep.startPrice) * (ep.collapsesAt! - ep.driftsAt)) / (ep.endDate - ep.driftsAt);
    const target = (t: number): number => from + (ep.collapseTo! - from) * Math.min(1, Math.max(0, t - ep.collapsesAt!) / 8_000);
    const standing = new Map<number, number>();
    const unlisten = sb.engine.onEvent((e) => {
      // (the close at the end date cancels every order: not a gap)
      if (e.type !== 'BookChanged' || e.conditionId !== ep.conditionId || e.ts >= ep.endDate) return;
      standing.set(e.ts, top(sb, fav).bid - target(e.ts));
    });
    advance(clock, 12_000);
    unlisten();
    expect(top(sb, fav).bid).toBeLessThan(0.6);
    expect(Math.min(...standing.values())).toBeGreaterThan(-0.1);
    expect((await call(sb, '/admin/near-end')).body).toMatchObject({ collapsed: 1 });
    advance(clock, ep.endDate - clock.now() + 3_000);
    expect(sb.world.marketByConditionId(ep.conditionId)).toMatchObject({ closed: true, winnerIndex: 0 });
  });

  it('a collapse on demand: the favourite of a running episode collapses now and the other outcome wins', async () => {
    const { sb, clock } = await sandbox();
    advance(clock, 5_000);
    const ep = (await call(sb, '/admin/near-end', { favourite: 0, approachMs: 60_000, breakdown: false })).body as NearEndView;
    advance(clock, 10_000);
    const yes = sb.world.marketByConditionId(ep.conditionId)!.tokens[0].tokenId;
    expect(top(sb, yes).bid).toBeGreaterThanOrEqual(0.85);
    const collapsed = await call(sb, '/admin/near-end/collapse', { market: ep.conditionId });
    expect(collapsed.status).toBe(200);
    expect(collapsed.body).toMatchObject({ collapsesAt: T0 + 15_000, winnerIndex: 1, state: 'collapsed' });
    expect(await call(sb, '/admin/near-end/collapse', { market: ep.conditionId })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/collapsed already/) } });
    expect(await call(sb, '/admin/near-end/collapse', { market: 'nope' })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/no near-end episode in market 'nope'/) } });
    expect(await call(sb, '/admin/near-end/collapse', {})).toMatchObject({ status: 400 });
    advance(clock, 12_000);
    expect(top(sb, yes).bid).toBeLessThan(0.6);
    advance(clock, ep.endDate - clock.now() + 3_000);
    expect(sb.world.marketByConditionId(ep.conditionId)).toMatchObject({ closed: true, winnerIndex: 1 });
  });

  it('the rate knob plans end dates at start, the same for the same seed; 0 plans none; a breakdown share of 1 breaks every one', async () => {
    const plan = async (o: NearEndEpisodeOptions) => {
      const { sb } = await sandbox(o);
      const stats = (await call(sb, '/admin/near-end')).body as { episodes: NearEndView[] };
      // every planned end date is on the venue's listing of the market
      for (const e of stats.episodes) expect(sb.world.marketByConditionId(e.conditionId)!.endDate).toBe(e.endDate);
      return stats.episodes.map((e) => ({ conditionId: e.conditionId, at: e.endDate - T0, favourite: e.favourite, winner: e.winnerIndex, broken: e.collapsesAt !== null }));
    };
    const a = await plan({ ratePerHour: 60, withinMs: 600_000 });
    expect(a.length).toBeGreaterThanOrEqual(3);
    expect(new Set(a.map((e) => e.conditionId)).size).toBe(a.length);
    expect(a.every((e) => e.at >= 60_000 && e.at <= 600_000)).toBe(true);
    expect(await plan({ ratePerHour: 60, withinMs: 600_000 })).toEqual(a);
    expect(await plan({ ratePerHour: 0 })).toEqual([]);
    const broken = await plan({ ratePerHour: 60, withinMs: 600_000, breakdownShare: 1 });
    expect(broken.every((e) => e.broken && e.winner !== e.favourite)).toBe(true);
  });

  it('refusals say why: no flow, an unknown or taken market, a bad body, bad options', async () => {
    const { sb } = await sandbox({}, false);
    expect(await call(sb, '/admin/near-end', {})).toMatchObject({ status: 409, body: { error: expect.stringMatching(/synthetic flow, which is off/) } });
    const { sb: sb2, clock } = await sandbox();
    advance(clock, 2_000);
    expect(await call(sb2, '/admin/near-end', { market: 'nope' })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/no binary market 'nope'/) } });
    const first = await call(sb2, '/admin/near-end', {});
    expect(first.status).toBe(200);
    expect(await call(sb2, '/admin/near-end', { market: first.body.conditionId })).toMatchObject({ status: 409, body: { error: expect.stringMatching(/already due to resolve/) } });
    expect(await call(sb2, '/admin/near-end', { favourite: 2 })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/favourite must be 0/) } });
    expect(await call(sb2, '/admin/near-end', { when: 1 })).toMatchObject({ status: 400, body: { error: expect.stringMatching(/unknown key when/) } });
    await expect(startSandbox({ markets: 4, events: 2, nearEnd: { breakdownShare: 2 } })).rejects.toThrow(/sandbox\.nearEnd\.breakdownShare: must be a number in \[0, 1\]/);
  });
});
