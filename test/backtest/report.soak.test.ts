import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runBacktest } from '../../src/app/run-backtest.ts';
import { syntheticEvents, syntheticHeader } from '../../src/backtest/synthetic-recording.ts';
import { writeResults } from '../../src/backtest/write-results.ts';
import { canvasColoursScript, launchChromium, skipChromium as skipAbsentChromium, watchPage } from '../chromium.ts';
import { backtestConfig, TempDir } from './helpers.ts';

const skipChromium = skipAbsentChromium('the report.html test');
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
    const context = await launchChromium();
    try {
      const page = await context.newPage();
      const { problems, requests } = watchPage(page);
      const url = pathToFileURL(written.reportPath).href;
      await page.goto(url);
      // (page code as strings: this project compiles without the DOM types)
      await page.waitForFunction('window.__report !== undefined', undefined, { timeout: 15_000 });
      const report = await page.evaluate<{ charts: number; priceCharts: number; markers: number }>('window.__report');
      expect(report.priceCharts).toBeGreaterThanOrEqual(1);
      expect(report.charts).toBe(2 + report.priceCharts);
      expect(report.markers).toBeGreaterThan(0);
      // every chart has a canvas whose pixels are not all one colour
      const drawn = await page.evaluate<number[]>(canvasColoursScript('.chart'));
      expect(drawn).toHaveLength(report.charts);
      for (const colours of drawn) expect(colours).toBeGreaterThan(3);
      expect(problems).toEqual([]);
      expect(requests).toEqual([url]);
    } finally {
      await context.close();
    }
  });
});
