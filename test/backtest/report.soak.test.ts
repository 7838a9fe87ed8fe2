import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { writeResults } from '../../src/backtest/write-results.ts';
import { skipAbsentPart } from '../optional-part.ts';
import { backtestConfig, TempDir } from './helpers.ts';

const CHROMIUM = '/usr/bin/chromium';
const skipChromium = skipAbsentPart({
  name: `Chromium (${CHROMIUM}, for the report.html test)`,
  present: existsSync(CHROMIUM),
  requiredBy: 'CLOBOT_REQUIRE_CHROMIUM',
  install: 'apt-get install chromium',
});
const tmp = new TempDir();
afterAll(() => tmp.remove());

const CONFIG = `
mode: backtest
name: report-check
data:
  markets: { filter: { maxCount: 2 } }
strategies:
  - id: bq
    module: strategies/02-band-quoter.ts
    params: { size: 10, halfSpreadTicks: 1, requoteTicks: 1 }
backtest:
  latencyMs: 20
  equityIntervalMs: 5000
`;

describe('report.html in headless Chromium', async () => {
  const options = { seed: 3, markets: 2, depth: 10, events: 4_000, meanGapMs: 500 };
  const result = await runBacktest({
    config: backtestConfig(tmp, CONFIG),
    data: { name: 'synthetic', header: syntheticHeader(options), events: () => syntheticEvents(options) },
  });
  const written = writeResults(result, tmp.path('out'));

  it('is one self-contained file with the chart library inlined', () => {
    const html = readFileSync(written.reportPath, 'utf8');
    expect(html).toContain('TradingView Lightweight Charts');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.apache\.org)[^"'\s]+\.(?:js|css)/);
    expect(result.metrics.fills).toBeGreaterThan(0);
  });

  it.skipIf(skipChromium)('draws every chart with no console error and no request but the page itself', { timeout: 60_000 }, async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing and CLOBOT_REQUIRE_CHROMIUM=1 requires it: apt-get install chromium`).toBe(true);
    const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'clobot-chromium-')), {
      executablePath: CHROMIUM,
      headless: true,
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      page.on('request', (r) => requests.push(r.url()));
      const url = pathToFileURL(written.reportPath).href;
      await page.goto(url);
      // (page code as strings: this project compiles without the DOM types)
      await page.waitForFunction('window.__report !== undefined', undefined, { timeout: 15_000 });
      const report = await page.evaluate<{ charts: number; priceCharts: number; markers: number }>('window.__report');
      expect(report.priceCharts).toBeGreaterThanOrEqual(1);
      expect(report.charts).toBe(2 + report.priceCharts);
      expect(report.markers).toBeGreaterThan(0);
      // every chart has a canvas whose pixels are not all one colour
      const drawn = await page.evaluate<number[]>(`[...document.querySelectorAll('.chart')].map((el) => {
        let best = 0;
        for (const canvas of el.querySelectorAll('canvas')) {
          if (canvas.width === 0 || canvas.height === 0) continue;
          const ctx = canvas.getContext('2d');
          if (!ctx) continue;
          const pixels = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          const colours = new Set();
          for (let i = 0; i < pixels.length && colours.size < 50; i += 4 * 7) colours.add((pixels[i] << 24) | (pixels[i + 1] << 16) | (pixels[i + 2] << 8) | pixels[i + 3]);
          best = Math.max(best, colours.size);
        }
        return best;
      })`);
      expect(drawn).toHaveLength(report.charts);
      for (const colours of drawn) expect(colours).toBeGreaterThan(3);
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  });
});
