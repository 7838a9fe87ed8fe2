import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSummary } from '../../src/engine/engine-summary.ts';
import { churn, startE2E, TEST_PRIVATE_KEY, waitFor, type E2E } from '../engine/e2e/harness.ts';

/**
 * Issue 23 point 5 through a real run: a live run session against the sandbox (startRunSession,
 * its `alerts:` section from YAML, URLs and the bot token from the environment) with six targets:
 * the four formats on a receiver that takes them, one receiver that answers 500 and one that never
 * answers. A halt during the run sends one message per format; the failing receiver is retried;
 * while the hanging one holds its request the engine goes on (its next orders are denied by the
 * halt, on its beat); no payload holds a secret; the run's end sends its summary.
 */

const HOOK = 'T0AAA/B0BBB/hook-secret-0123456789';
const BOT_TOKEN = '4242424242:AAE-bot-secret-token-abcdef';
const FAIL_HOOK = 'fail-hook-secret-0123456789';
const HANG_HOOK = 'hang-hook-secret-0123456789';

interface Receiver {
  readonly url: string;
  /** Every request's path and body, in arrival order (answered or not). */
  readonly got: { path: string; body: string }[];
  /** Requests not answered yet. */
  open(): number;
  close(): void;
}

/** A webhook receiver on loopback: answers 200, 500, or never. */
async function receiver(fate: 200 | 500 | 'hang'): Promise<Receiver> {
  const got: { path: string; body: string }[] = [];
  let open = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      got.push({ path: req.url ?? '', body });
      if (fate === 'hang') {
        open++;
        req.socket.once('close', () => open--);
        return;
      }
      res.writeHead(fate, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    got,
    open: () => open,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

let e2e: E2E;
let good: Receiver;
let failing: Receiver;
let hanging: Receiver;
let summary: EngineSummary;

/** The good receiver's messages by format (from the path), parsed. */
function byFormat(): Record<string, any[]> {
  const out: Record<string, any[]> = { json: [], slack: [], discord: [], telegram: [] };
  for (const { path, body } of good.got) {
    const format = path.startsWith('/bot') ? 'telegram' : path.split('/')[1]!;
    out[format]!.push(JSON.parse(body));
  }
  return out;
}

/** Each format's message of one kind (json's `kind`; the others by their text). */
function ofKind(kind: 'halt' | 'runEnded', text: RegExp): Record<string, unknown[]> {
  const all = byFormat();
  return {
    json: all['json']!.filter((m) => m.kind === kind),
    slack: all['slack']!.filter((m) => text.test(m.text)),
    discord: all['discord']!.filter((m) => text.test(m.content)),
    telegram: all['telegram']!.filter((m) => text.test(m.text)),
  };
}

beforeAll(async () => {
  [good, failing, hanging] = await Promise.all([receiver(200), receiver(500), receiver('hang')]);
  e2e = await startE2E({
    // one deep bid per token moved every 300 ms: an order (or, halted, a denial) on a beat
    strategies: [churn()],
    config: {
      alerts: {
        targets: [
          { format: 'json', urlEnv: 'CLOBOT_TEST_ALERT_JSON' },
          { format: 'slack', urlEnv: 'CLOBOT_TEST_ALERT_SLACK' },
          { format: 'discord', urlEnv: 'CLOBOT_TEST_ALERT_DISCORD' },
          { format: 'telegram', tokenEnv: 'CLOBOT_TEST_ALERT_BOT', chatId: '-1001234', apiUrl: good.url },
          { format: 'json', urlEnv: 'CLOBOT_TEST_ALERT_FAIL' },
          { format: 'slack', urlEnv: 'CLOBOT_TEST_ALERT_HANG' },
        ],
        minIntervalMs: 600_000,
        attempts: 2,
        timeoutMs: 2_000,
      },
    },
    env: {
      CLOBOT_TEST_ALERT_JSON: `${good.url}/json/${HOOK}`,
      CLOBOT_TEST_ALERT_SLACK: `${good.url}/slack/${HOOK}`,
      CLOBOT_TEST_ALERT_DISCORD: `${good.url}/discord/${HOOK}`,
      CLOBOT_TEST_ALERT_BOT: BOT_TOKEN,
      CLOBOT_TEST_ALERT_FAIL: `${failing.url}/json/${FAIL_HOOK}`,
      CLOBOT_TEST_ALERT_HANG: `${hanging.url}/slack/${HANG_HOOK}`,
    },
  });
}, 60_000);

afterAll(async () => {
  await e2e?.close();
  for (const r of [good, failing, hanging]) r?.close();
});

describe('alerts through a real run', () => {
  it('a halt sends one message per format; a failing receiver is retried; a hanging one never holds the engine back', { timeout: 60_000 }, async () => {
    await waitFor('the churn quoter trading', () => e2e.orderEvents('OrderAccepted', 'churn').length >= 2, 30_000);
    // a healthy start is no news
    expect(good.got).toEqual([]);
    const answer = e2e.session.engine.command({ type: 'halt', name: 'manual', reason: 'alert drill' });
    // the command is answered at once: the alerts are sent on later turns
    expect(answer).toMatchObject({ ok: true, halts: ['manual'] });
    const haltAt = e2e.session.engine.clock.now();

    await waitFor('the halt alert in every format', () => Object.values(ofKind('halt', /trading halted \(manual\)/)).every((m) => m.length === 1), 10_000);
    const halt = ofKind('halt', /trading halted \(manual\)/);
    expect(halt['json']![0]).toMatchObject({ source: 'clobot', kind: 'halt', severity: 'critical', detail: ['alert drill', 'halts on: manual'] });
    expect((halt['slack']![0] as { text: string }).text).toContain('alert drill');
    expect(halt['discord']![0]).toMatchObject({ allowed_mentions: { parse: [] } });
    expect(halt['telegram']![0]).toMatchObject({ chat_id: '-1001234', disable_web_page_preview: true });
    // to Telegram's Bot API path with the token, to the webhooks at their own paths
    expect(good.got.filter((g) => g.path === `/bot${BOT_TOKEN}/sendMessage`)).toHaveLength(1);

    // the hanging receiver holds the halt's message; meanwhile the engine goes on: the churn
    // quoter's next bids are denied by the halt on its beat, one after another
    await waitFor('the hanging receiver holding a request', () => hanging.open() === 1, 10_000);
    const deniedSince = () => e2e.orderEvents('OrderDenied', 'churn').filter((d) => d.tsInit >= haltAt && d.code === 'TRADING_HALTED').length;
    const before = deniedSince();
    await waitFor('three more engine turns while the receiver hangs', () => deniedSince() >= before + 3, 10_000);
    // (attempts: 2 at most, each given up after its timeout)
    expect(hanging.got.length).toBeLessThanOrEqual(2);
    // the failing receiver was tried again (attempts: 2), then given up
    await waitFor('the failing receiver retried', () => failing.got.length === 2, 10_000);
    expect(failing.got.map((g) => JSON.parse(g.body).kind)).toEqual(['halt', 'halt']);
  });

  it("the run's end sends its summary in every format; no payload holds a secret", { timeout: 60_000 }, async () => {
    summary = await e2e.stop();
    const ended = ofKind('runEnded', /run ended/);
    for (const [format, messages] of Object.entries(ended)) expect(messages, format).toHaveLength(1);
    const json = ended['json']![0] as { severity: string; detail: string[] };
    expect(json.severity).toBe('info');
    expect(json.detail[0]).toBe(`orders: ${summary.ordersSubmitted} submitted, ${summary.ordersAccepted} accepted, ${summary.ordersRejected} rejected, ${summary.ordersDeniedTotal} denied`);
    expect(json.detail[1]).toMatch(/^fills: \d+; open orders left: 0$/);
    expect((ended['slack']![0] as { text: string }).text).toContain(`orders: ${summary.ordersSubmitted} submitted`);
    // every message: the halt's and the end's, and no other (the stop's own health change is no alert)
    expect(byFormat()['json']!.map((m) => m.kind)).toEqual(['halt', 'runEnded']);
    const secrets = [HOOK, 'hook-secret-0123456789', BOT_TOKEN, BOT_TOKEN.split(':')[1]!, FAIL_HOOK, HANG_HOOK, TEST_PRIVATE_KEY.slice(2), good.url + '/json', failing.url, hanging.url];
    for (const { body } of [...good.got, ...failing.got, ...hanging.got]) {
      for (const secret of secrets) expect(body.toLowerCase(), secret).not.toContain(secret.toLowerCase());
    }
  });
});
