import { createServer, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveAlerts } from '../../src/config/resolve-alerts.ts';
import { EventBus } from '../../src/engine/event-bus.ts';
import type { HealthState } from '../../src/engine/health.ts';
import type { EngineEvent } from '../../src/engine/ports.ts';
import { runEndedAlert } from '../../src/telemetry/alert-rules.ts';
import { Alerter } from '../../src/telemetry/alerter.ts';

/**
 * Issue 23 point 5: alerts against a real HTTP receiver on loopback. Each trigger sends one
 * message per configured format (generic JSON, Slack, Discord, Telegram's Bot API); a kind is
 * rate-limited; a failing or hanging receiver is retried with backoff while the bus goes on at
 * once (the sends happen on later turns); no URL or token is ever in a payload.
 */

const TOKEN = '123456789:AAH-secret-bot-token-xyz';
const HOOK_SECRET = 'T000/B000/hooksecretvalue42';

interface Received {
  readonly path: string;
  readonly body: string;
}

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** A receiver: `answer(n)` decides each request's fate (n counts from 1): a status, or 'hang'. */
async function receiver(answer: (n: number, req: IncomingMessage) => number | 'hang' = () => 200) {
  const got: Received[] = [];
  let n = 0;
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const fate = answer(++n, req);
      if (fate === 'hang') return;
      if (fate === 200) got.push({ path: req.url ?? '', body });
      res.writeHead(fate, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  return { got, url: `http://127.0.0.1:${port}`, requests: () => n };
}

function configFor(url: string, patch: Record<string, unknown> = {}) {
  const env = { CLOBOT_TEST_JSON: `${url}/json/${HOOK_SECRET}`, CLOBOT_TEST_SLACK: `${url}/slack/${HOOK_SECRET}`, CLOBOT_TEST_DISCORD: `${url}/discord/${HOOK_SECRET}`, CLOBOT_TEST_TG: TOKEN };
  const { alerts, issues } = resolveAlerts(
    {
      targets: [
        { format: 'json', urlEnv: 'CLOBOT_TEST_JSON' },
        { format: 'slack', urlEnv: 'CLOBOT_TEST_SLACK' },
        { format: 'discord', urlEnv: 'CLOBOT_TEST_DISCORD' },
        { format: 'telegram', tokenEnv: 'CLOBOT_TEST_TG', chatId: '-100200', apiUrl: url },
      ],
      minIntervalMs: 60_000,
      dailyLoss: 50_000_000,
      attempts: 5,
      timeoutMs: 5_000,
      ...patch,
    },
    env,
  );
  expect(issues).toEqual([]);
  return alerts!;
}

const state = (health: HealthState['health'], permission: HealthState['permission'], reasons: HealthState['reasons'] = []): HealthState => ({ health, permission, reasons, since: 0 });
const NORMAL = state('normal', 'allowed');

/** One event per trigger the bus carries. */
const TRIGGERS: EngineEvent[] = [
  { type: 'HealthChanged', previous: NORMAL, state: state('degraded', 'cancelOnly', [{ kind: 'heartbeatLate', since: 1 }]), at: 1 },
  { type: 'lifecycle', event: { type: 'Halted', name: 'manual', reason: 'operator drill', halts: ['manual'], tsInit: 2 } },
  { type: 'lifecycle', event: { type: 'Halted', name: 'killSwitch', reason: 'kill switch: 5 rejects', halts: ['manual', 'killSwitch'], tsInit: 3 } },
  { type: 'heartbeat', health: 'lost', at: 4 },
  { type: 'HealthChanged', previous: NORMAL, state: state('degraded', 'allowed', [{ kind: 'feedSilent', connection: 1, silentMs: 30_000, tokens: 8, since: 5 }]), at: 5 },
  { type: 'fault', strategyId: 'mm', message: `boom near ${TOKEN}`, at: 6 },
  { type: 'HealthChanged', previous: NORMAL, state: state('atRisk', 'allowed', [{ kind: 'submitUnknown', orders: 2, oldestMs: 40_000, limitMs: 30_000, since: 7 }]), at: 7 },
];

describe('alerts to a local receiver', () => {
  it('each trigger sends one message per format, in each format\'s shape, with no URL or token in any', async () => {
    const r = await receiver();
    const bus = new EventBus();
    const alerter = new Alerter({ config: configFor(r.url), run: 'bot-1' });
    bus.subscribe(alerter.listener);
    for (const e of TRIGGERS) bus.emit(e);
    // events that are no alert: a heartbeat back to healthy, a resume, an order
    bus.emit({ type: 'heartbeat', health: 'healthy', at: 8 });
    bus.emit({ type: 'lifecycle', event: { type: 'Resumed', name: 'manual', tsInit: 9 } });
    alerter.checkDailyLoss(-60, 10);
    alerter.checkDailyLoss(-10, 11);
    alerter.raise(runEndedAlert('bot-1', ['orders: 3 submitted', 'fills: 1'], 12, false));
    await alerter.flush(20_000);
    const kinds = 9;
    expect(alerter.stats).toMatchObject({ sent: kinds * 4, dropped: 0 });
    const byPath = (p: string) => r.got.filter((g) => g.path.startsWith(p));
    const json = byPath('/json/').map((g) => JSON.parse(g.body) as { kind: string; source: string });
    expect(json.map((j) => j.kind)).toEqual(['health', 'halt', 'killSwitch', 'heartbeatLost', 'feedSilent', 'strategyFaulted', 'submitUnknown', 'dailyLoss', 'runEnded']);
    expect(json.every((j) => j.source === 'clobot')).toBe(true);
    const slack = byPath('/slack/').map((g) => JSON.parse(g.body) as { text: string });
    expect(slack).toHaveLength(kinds);
    expect(slack[1]!.text).toContain('bot-1: trading halted (manual)');
    const discord = byPath('/discord/').map((g) => JSON.parse(g.body) as { content: string });
    expect(discord).toHaveLength(kinds);
    expect(discord[7]!.content).toContain('loss of 60.00 USDC');
    const telegram = byPath(`/bot${TOKEN}/sendMessage`).map((g) => JSON.parse(g.body) as { chat_id: string; text: string });
    expect(telegram).toHaveLength(kinds);
    expect(telegram.every((t) => t.chat_id === '-100200')).toBe(true);
    expect(telegram[8]!.text).toContain('run ended');
    for (const g of r.got) {
      expect(g.body).not.toContain(TOKEN);
      expect(g.body).not.toContain(HOOK_SECRET);
      expect(g.body).not.toContain('127.0.0.1');
    }
    // the fault's message named the token: it went out redacted
    expect(json.length).toBe(kinds);
    expect(byPath('/slack/')[5]!.body).toContain('[redacted]');
    alerter.close();
  });

  it('a kind is rate-limited: the next one after the interval says how many were held back', async () => {
    const r = await receiver();
    let now = 1_000_000;
    const alerter = new Alerter({ config: { ...configFor(r.url), targets: configFor(r.url).targets.slice(0, 1) }, run: 'bot-1', now: () => now });
    const halted: EngineEvent = { type: 'lifecycle', event: { type: 'Halted', name: 'file', reason: 'HALT', halts: ['file'], tsInit: 1 } };
    alerter.listener(halted);
    alerter.listener(halted);
    alerter.listener(halted);
    now += 60_000;
    alerter.listener(halted);
    await alerter.flush(20_000);
    expect(r.got.map((g) => (JSON.parse(g.body) as { suppressed: number }).suppressed)).toEqual([0, 2]);
    expect(alerter.stats).toMatchObject({ sent: 2, suppressed: 2 });
    alerter.close();
  });

  it('a receiver that fails, then one that hangs, is retried with backoff; the bus never waits for it', async () => {
    // the first two answers 500, the third request hangs past the timeout, then all is well; the
    // answers must beat the same timeout: 1 s, not 300 ms (a loaded machine can hold a loopback
    // answer up for 100 ms and more, and a late 200 is one more failed attempt)
    const r = await receiver((n) => (n <= 2 ? 500 : n === 3 ? 'hang' : 200));
    const config = { ...configFor(r.url, { timeoutMs: 1_000 }), targets: configFor(r.url).targets.slice(0, 1) };
    const errors: string[] = [];
    const alerter = new Alerter({ config, run: 'bot-1', backoffMs: 10, onError: (m) => errors.push(m) });
    const bus = new EventBus();
    bus.subscribe(alerter.listener);
    bus.emit(TRIGGERS[1]!);
    // the emit returned with the message queued, nothing sent yet: the sending is on later turns
    expect(r.requests()).toBe(0);
    expect(alerter.pending).toBe(1);
    // the bus goes on while the receiver fails and hangs: a thousand faults are queued (bounded) at once
    for (let i = 0; i < 1_000; i++) bus.emit({ type: 'fault', strategyId: 's', message: 'x', at: i });
    expect(alerter.stats.suppressed).toBe(999);
    await alerter.flush(20_000);
    expect(r.got).toHaveLength(2);
    expect(JSON.parse(r.got[0]!.body)).toMatchObject({ kind: 'halt' });
    expect(alerter.stats).toMatchObject({ sent: 2, failedAttempts: 3, dropped: 0 });
    expect(errors).toEqual([]);
    alerter.close();
  });

  it('a receiver that never takes it is given up after its attempts, in one line that names no URL', async () => {
    const r = await receiver(() => 503);
    const config = { ...configFor(r.url, { attempts: 3 }), targets: configFor(r.url).targets.slice(3) };
    const errors: string[] = [];
    const alerter = new Alerter({ config, run: 'bot-1', backoffMs: 5, onError: (m) => errors.push(m) });
    alerter.listener(TRIGGERS[3]!);
    await alerter.flush(20_000);
    expect(r.requests()).toBe(3);
    expect(alerter.stats).toMatchObject({ sent: 0, failedAttempts: 3, dropped: 1 });
    expect(errors).toEqual(['alert to a telegram target given up after 3 attempt(s): HTTP 503']);
    alerter.close();
  });

  it('the config takes variable names, never values: an unset variable or a missing chat id is one issue naming the key', () => {
    const { issues } = resolveAlerts(
      { targets: [{ format: 'slack', urlEnv: 'NOPE_UNSET' }, { format: 'telegram', tokenEnv: 'TG' }, { format: 'discord' }], minIntervalMs: 0, attempts: 1, timeoutMs: 1000 },
      { TG: 'tok' },
    );
    expect(issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'alerts.targets.0.urlEnv: the environment variable NOPE_UNSET (the webhook URL) is not set',
      'alerts.targets.1.chatId: a telegram target needs chatId: the chat the bot writes to',
      'alerts.targets.2.urlEnv: a discord target needs urlEnv: the environment variable holding the webhook URL',
    ]);
  });
});
