import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { skipAbsentPart } from './optional-part.ts';

/** Debian's chromium: the browser of the page tests (report.html, the dashboard). */
export const CHROMIUM = '/usr/bin/chromium';

/** True when the tests of `what` should skip (Chromium absent and CLOBOT_REQUIRE_CHROMIUM unset); says so in one line. */
export function skipChromium(what: string): boolean {
  return skipAbsentPart({ name: `Chromium (${CHROMIUM}, for ${what})`, present: existsSync(CHROMIUM), requiredBy: 'CLOBOT_REQUIRE_CHROMIUM', install: 'apt-get install chromium' });
}

/** Headless Chromium with a fresh profile and nothing of its own on the network (no updates, sync or QUIC). */
export async function launchChromium(): Promise<BrowserContext> {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing and CLOBOT_REQUIRE_CHROMIUM=1 requires it: apt-get install chromium`).toBe(true);
  return chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'clobot-chromium-')), {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 30_000,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * For each element matching `selector`, the most distinct colours among the pixels of its
 * canvases (sampled): more than a few means something was drawn. (Page code as a string: this
 * project compiles without the DOM types.)
 */
export function canvasColoursScript(selector: string): string {
  return `[...document.querySelectorAll(${JSON.stringify(selector)})].map((el) => {
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
  })`;
}

/** What a page said and asked for: its console errors and warnings, uncaught errors, and every URL it requested (WebSockets too). */
export function watchPage(page: Page): { problems: string[]; requests: string[] } {
  const problems: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('request', (r) => requests.push(r.url()));
  page.on('websocket', (ws) => requests.push(ws.url()));
  return { problems, requests };
}
