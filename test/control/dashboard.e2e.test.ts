import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlServer } from '../../src/control/control-server.ts';
import { LiveSource } from '../../src/control/live-source.ts';
import { LogLines } from '../../src/control/log-lines.ts';
import { StoreSource } from '../../src/control/store-source.ts';
import { rateBudgetView } from '../../src/app/run-control.ts';
import { canvasColoursScript, launchChromium, skipChromium, watchPage } from '../chromium.ts';
import { REPO_ROOT, startE2E, waitFor, type E2E } from '../engine/e2e/harness.ts';

/**
 * Issue 23 point 3: the dashboard of a live run against the sandbox, in headless Chromium: no
 * console error, no request leaving the server on 127.0.0.1, every panel the issue lists filled
 * (health and permission, positions, open orders, fills, the PnL and rewards charts drawn, the
 * rate budget by route, denials by code, the strategy's state and params, the log, the buttons),
 * a fill shown within 5 s of happening, the halt button (confirmed) halting the run and the page
 * showing it; a screenshot in test-output/control/. Then `clobot dashboard`'s read-only page of
 * the run's store, the run in progress and then finished: its health, halts and params from the
 * store's journal.
 */

const PROBE = resolve(REPO_ROOT, 'test/control/strategies/control-probe.ts');
const TOKEN = 'dashboard-test-token-0123456789abcdef';
const OUT = resolve(REPO_ROOT, process.env['CLOBOT_TEST_OUTPUT'] ?? 'test-output', 'control');
/** How soon a fill must be on the page once the engine booked it, ms (issue 23). */
const FILL_SHOWN_WITHIN_MS = 5_000;
const skip = skipChromium('the dashboard test');

let e2e: E2E;
let server: ControlServer;
let source: LiveSource;
let context: BrowserContext | undefined;
/** When each of our fills was booked (wall clock), by trade id. */
const filledAt = new Map<string, number>();

beforeAll(async () => {
  if (skip) return;
  e2e = await startE2E({
    strategies: [{ id: 'probe', module: PROBE, params: { tag: 'dashboard' }, markets: { filter: { active: true, acceptingOrders: true, maxCount: 1 } } }],
    // a rewards sample a second (the venue's minute would leave the chart one point in this test)
    config: { store: { path: 'run.sqlite' }, execution: { rewardSampleMs: 1_000 } },
  });
  e2e.session.engine.bus.subscribe((e) => {
    if (e.type === 'fill') filledAt.set(e.fill.tradeId, Date.now());
  });
  const logs = new LogLines();
  logs.tap(JSON.stringify({ level: 30, time: Date.now(), msg: 'dashboard test started', run: 'probe' }));
  server = await ControlServer.start({ host: '127.0.0.1', port: 0, token: TOKEN });
  const budget = e2e.session.venue.budget;
  source = new LiveSource({
    engine: e2e.session.engine,
    mode: 'live',
    runId: e2e.session.runId,
    name: 'dashboard-test',
    storePath: resolve(e2e.dir, 'run.sqlite'),
    logs,
    rateBudget: () => rateBudgetView(budget.snapshot()),
  });
  server.attach(source);
  context = await launchChromium();
}, 60_000);

afterAll(async () => {
  await context?.close();
  source?.close();
  await server?.close();
  await e2e?.close();
});

/**
 * The page's globals, for the functions Playwright runs in the page (this project compiles
 * without the DOM types; a type, so nothing of it is needed in the page). Predicates are
 * functions, not strings: a string predicate is polled through eval, which the page's
 * Content-Security-Policy forbids.
 */
type InPage = { document: { getElementById(id: string): { dataset: Record<string, string | undefined> } } };

/** A page on `url` whose console errors, page errors and requests are kept. */
async function open(url: string): Promise<{ page: Page; problems: string[]; requests: string[] }> {
  const page = await context!.newPage();
  const { problems, requests } = watchPage(page);
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(url);
  return { page, problems, requests };
}

describe.skipIf(skip)('the dashboard in headless Chromium', () => {
  it('draws the run live, shows a fill within 5 s, and its confirmed halt button halts the run', { timeout: 110_000 }, async () => {
    const engine = e2e.session.engine;
    const { page, problems, requests } = await open(`${server.url}/#token=${TOKEN}`);
    // the token left the address bar at once (it stays in the tab's sessionStorage)
    expect(page.url()).toBe(`${server.url}/`);
    await page.waitForSelector('#link.good', { timeout: 15_000 });
    // the PnL chart draws (a few points: one a second)
    await page.waitForFunction(() => Number((globalThis as unknown as InPage).document.getElementById('pnl-chart').dataset.points) >= 3, undefined, { timeout: 20_000 });
    const colours = await page.evaluate<number[]>(canvasColoursScript('#pnl-chart'));
    expect(colours[0]).toBeGreaterThan(3);
    await page.waitForSelector('#strategies tr[data-strategy="probe"]');
    expect(await page.textContent('#health')).toMatch(/^health: (normal|unknown|degraded|atRisk)$/);
    expect(await page.textContent('#permission')).toMatch(/^permission: (allowed|unknown|reduceOnly|cancelOnly)$/);
    expect(await page.textContent('#logs')).toContain('dashboard test started');
    // the rewards estimate over time: its own chart, drawn, its newest value the engine's (USDC, 6 decimals)
    await page.waitForFunction(() => Number((globalThis as unknown as InPage).document.getElementById('rewards-chart').dataset.points) >= 3, undefined, { timeout: 20_000 });
    expect((await page.evaluate<number[]>(canvasColoursScript('#rewards-chart')))[0]).toBeGreaterThan(3);
    expect(await page.textContent('#rewards-now')).toMatch(/^\d+\.\d{6}$/);
    // the rate budget by route: the order routes' windows in use, each with its share
    await page.waitForSelector('#budget tr[data-window="POST /order burst"]', { timeout: 15_000 });
    expect(await page.textContent('#budget tr[data-window="POST /order burst"]')).toMatch(/^POST \/order burst[\d.]+% \d+\d+240010 s$/);
    expect(await page.textContent('#budget-note')).toBe('');
    // the strategy's state and params, its buttons; the open orders (its quote) and positions (its buy)
    const probeRow = await page.textContent('#strategies tr[data-strategy="probe"]');
    expect(probeRow).toContain('RUNNING');
    expect(probeRow).toContain('"quoteTicks": 5');
    await page.waitForSelector('#strategies tr[data-strategy="probe"] button[data-params="probe"]');
    await page.waitForSelector('#orders tbody tr', { timeout: 15_000 });
    await page.waitForSelector('#positions tbody tr', { timeout: 30_000 });
    for (const id of ['halt', 'resume', 'cancel-all', 'flatten']) expect(await page.isVisible(`#${id}`), id).toBe(true);

    // fills: the flatten's (asked over the API): each on the page within 5 s of being booked
    await waitFor('a position to flatten', () => engine.ledger.positions('probe').some((p) => p.size > 0), 30_000);
    const before = new Set(filledAt.keys());
    const flatten = await fetch(`${server.url}/api/flatten`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{"bandCents":10}' });
    expect(flatten.status).toBe(200);
    const fresh = [...filledAt].filter(([tradeId]) => !before.has(tradeId));
    expect(fresh.length).toBeGreaterThan(0);
    for (const [tradeId, at] of fresh) {
      await page.waitForSelector(`#fills tr[data-trade="${tradeId}"]`, { timeout: Math.max(1, at + FILL_SHOWN_WITHIN_MS - Date.now()) });
    }

    // trading again, then the halt button: a confirmation first (cancelled: nothing done), then confirmed
    const resumed = await fetch(`${server.url}/api/resume`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: '{}' });
    expect(resumed.status).toBe(200);
    await page.waitForSelector('body[data-halted="no"]', { timeout: 10_000 });
    await page.click('#halt');
    await page.waitForSelector('#confirm[open]');
    await page.click('#confirm-no');
    expect(engine.halts).toEqual([]);
    await page.click('#halt');
    await page.waitForSelector('#confirm[open]');
    await page.click('#confirm-yes');
    await page.waitForSelector('body[data-halted="yes"]', { timeout: 10_000 });
    expect(engine.halts.map((h) => [h.name, h.reason])).toEqual([['manual', 'control API: dashboard']]);
    expect(await page.textContent('#halts')).toContain('manual (control API: dashboard)');
    // the engine's health model, pushed: halted, nothing may go out
    await page.waitForSelector('#health[data-value="halted"]', { timeout: 10_000 });
    await page.waitForSelector('#permission[data-value="blocked"]', { timeout: 10_000 });
    expect(await page.textContent('#answer')).toContain('done: manual halt on');
    // halted: the probe's next quotes are denied, and the page shows the denials by code
    await page.waitForSelector('#denials td:text("TRADING_HALTED")', { timeout: 15_000 });

    mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: join(OUT, 'dashboard.png'), fullPage: true });
    expect(problems).toEqual([]);
    const origin = new URL(server.url);
    for (const url of requests) expect(new URL(url).host, url).toBe(origin.host);
    expect(requests.some((u) => u.endsWith('/assets/lightweight-charts.js'))).toBe(true);
    await page.close();
  });

  it('clobot dashboard, the run in progress: the same page, read-only, from the run store, with its health, halts and params', { timeout: 60_000 }, async () => {
    await readStorePage('dashboard-store.png', async (page) => {
      // the run is halted (the button above): the store's journal says so
      await page.waitForSelector('#health[data-value="halted"]');
      expect(await page.getAttribute('#permission', 'data-value')).toBe('blocked');
      expect(await page.textContent('#halts')).toContain('manual (control API: dashboard)');
      expect(await page.textContent('#reasons')).toContain('as journaled at');
      const probe = await page.textContent('#strategies tr[data-strategy="probe"]');
      expect(probe).toContain('RUNNING');
      expect(probe).toContain('"quoteTicks": 5');
      expect(probe).toContain('"tag": "dashboard"');
    });
  });

  it('clobot dashboard, the run finished: stopped, its halts and params as it left them', { timeout: 60_000 }, async () => {
    await e2e.stop();
    await readStorePage('dashboard-store-finished.png', async (page) => {
      await page.waitForSelector('#health[data-value="halted"]');
      expect(await page.textContent('#reasons')).toContain('the engine has stopped');
      expect(await page.textContent('#halts')).toContain('manual (control API: dashboard)');
      const probe = await page.textContent('#strategies tr[data-strategy="probe"]');
      expect(probe).toContain('STOPPED');
      expect(probe).toContain('"quoteTicks": 5');
      // the rewards as of the store's latest sample
      expect(await page.textContent('#rewards-now')).toMatch(/^\d+\.\d{6}$/);
      expect(await page.textContent('#rewards-note')).toContain('latest estimate only');
    });
  });
});

/** The store's read-only dashboard in a page: what every store page shows, then `check`, then a screenshot. */
async function readStorePage(screenshot: string, check: (page: Page) => Promise<void>): Promise<void> {
  const store = new StoreSource(resolve(e2e.dir, 'run.sqlite'));
  const readOnly = await ControlServer.start({ host: '127.0.0.1', port: 0 });
  readOnly.attach(store);
  try {
    const { page, problems, requests } = await open(`${readOnly.url}/`);
    await page.waitForSelector('body[data-source="store"]', { timeout: 15_000 });
    expect(await page.isHidden('#controls')).toBe(true);
    expect(await page.textContent('#source')).toContain('read-only');
    // the run's fills and PnL, replayed from the store
    await page.waitForFunction(() => {
      const d = (globalThis as unknown as InPage).document;
      return Number(d.getElementById('fills').dataset.count) > 0 && Number(d.getElementById('pnl-chart').dataset.points) > 0;
    }, undefined, { timeout: 10_000 });
    expect(await page.textContent('#budget-note')).toBe('not kept in a store file');
    await page.waitForSelector('#denials td:text("TRADING_HALTED")');
    await check(page);
    await page.screenshot({ path: join(OUT, screenshot), fullPage: true });
    const post = await fetch(`${readOnly.url}/api/halt`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(403);
    expect(problems).toEqual([]);
    for (const url of requests) expect(new URL(url).host, url).toBe(new URL(readOnly.url).host);
    await page.close();
  } finally {
    store.close();
    await readOnly.close();
  }
}
