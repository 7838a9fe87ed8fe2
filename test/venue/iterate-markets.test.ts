import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.ts';
import { iterateMarkets } from '../../src/venue/actions/iterate-markets.ts';
import { iterateSamplingMarkets } from '../../src/venue/actions/iterate-sampling-markets.ts';
import { iterateSamplingSimplifiedMarkets } from '../../src/venue/actions/iterate-sampling-simplified-markets.ts';
import { iterateSimplifiedMarkets } from '../../src/venue/actions/iterate-simplified-markets.ts';
import { createVenueClient, type VenueClient } from '../../src/venue/client.ts';
import { DecodeError } from '../../src/core/errors.ts';
import { iteratePages } from '../../src/venue/iterate-pages.ts';
import { resetStats, stats } from './sandbox-admin.ts';

let sb: RunningSandbox;
let client: VenueClient;

beforeAll(async () => {
  sb = await startSandbox({ seed: 5, markets: 1_000, events: 60 });
  client = createVenueClient({ baseUrl: sb.url, retries: 0 });
});
afterAll(async () => {
  await sb.close();
});

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('cursor walks', () => {
  it('GET /markets over 1,000 markets returns each market once, from MA== to LTE=', async () => {
    await resetStats(sb.url);
    const ids = (await collect(iterateMarkets(client))).map((m) => m.conditionId);
    expect(ids).toHaveLength(1_000);
    expect(new Set(ids).size).toBe(1_000);
    expect(new Set(ids)).toEqual(new Set(sb.world.markets.map((m) => m.conditionId)));
    const pages = (await stats(sb.url)).routes.getMarkets ?? 0;
    expect(pages).toBeGreaterThan(1);
    expect(pages).toBeLessThanOrEqual(11);
  });

  it('the simplified and sampling lists walk to their end without repeats', async () => {
    const simplified = (await collect(iterateSimplifiedMarkets(client))).map((m) => m.conditionId);
    expect(simplified).toHaveLength(1_000);
    expect(new Set(simplified).size).toBe(1_000);
    const walks: AsyncIterable<{ conditionId: string }>[] = [iterateSamplingMarkets(client), iterateSamplingSimplifiedMarkets(client)];
    for (const walk of walks) {
      const ids = (await collect(walk)).map((m) => m.conditionId);
      expect(ids.length).toBeGreaterThan(0);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('a venue that repeats a cursor is stopped with a DecodeError instead of looping', async () => {
    const walk = iteratePages((cursor) => Promise.resolve({ items: [cursor], nextCursor: 'MTAw', done: false, limit: 1, count: 1 }));
    await expect(collect(walk)).rejects.toBeInstanceOf(DecodeError);
  });
});
