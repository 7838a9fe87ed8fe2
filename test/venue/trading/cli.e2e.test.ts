import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLoopback, type Loopback, type SeenRequest } from '../loopback-server.ts';
import { sandboxWalletAddress } from '../../../src/sandbox/trading/wallets.ts';
import { ADDRESS, API_KEY, API_PASSPHRASE, API_SECRET, KEY, TOKEN } from './helpers.ts';

let server: Loopback | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Runs the real CLI (`node bin/clobot.mjs ...`) without blocking this process's loopback server. */
function clobot(args: string[], env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('CLOBOT_')) base[k] = v;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/clobot.mjs', ...args], { env: { ...base, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('clobot book', () => {
  it('prints the book as a depth table, bids and asks side by side, best first, cut to --depth', async () => {
    server = await startLoopback((_req, res) =>
      sendJson(res, 200, {
        market: '0x' + 'ab'.repeat(32),
        asset_id: TOKEN,
        timestamp: '1767225600000',
        hash: 'h1',
        // any order on the wire; sorted locally
        bids: [
          { price: '0.48', size: '1200' },
          { price: '0.5', size: '30.25' },
          { price: '0.49', size: '5' },
        ],
        asks: [
          { price: '0.53', size: '7' },
          { price: '0.52', size: '100' },
        ],
        tick_size: '0.01',
        min_order_size: '5',
        neg_risk: false,
        last_trade_price: '0.51',
      }),
    );
    const r = await clobot(['book', TOKEN, '--venue', server.url, '--depth', '2']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      [
        `book ${TOKEN}  market 0x${'ab'.repeat(32)}  tick 0.01  last 0.51`,
        'BID SIZE   BID | ASK   ASK SIZE',
        '   30.25   0.5 | 0.52  100',
        '       5  0.49 | 0.53  7',
        '',
      ].join('\n'),
    );
    expect((server.requests[0] as SeenRequest).url).toBe(`/book?token_id=${TOKEN}`);
  });

  it('a token with no book is one line on stderr naming it and the venue\'s words, exit 2; another venue error, one line, exit 1', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 404, { error: 'No orderbook exists for the requested token id' }));
    const r = await clobot(['book', '123', '--venue', server.url]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `clobot: no order book for token '123' at ${server.url}: No orderbook exists for the requested token id (\`clobot markets\` lists the token ids)\n`,
    );
    expect(r.stderr).not.toContain('VenueRejectError');
    await server.close();
    server = await startLoopback((_req, res) => sendJson(res, 400, { error: 'invalid token id' }));
    const bad = await clobot(['book', '123', '--venue', server.url]);
    expect(bad.status).toBe(1);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('invalid token id');
  });
});

describe('clobot keys', () => {
  const answer = { apiKey: API_KEY, secret: API_SECRET, passphrase: API_PASSPHRASE };

  it('derives the credentials of CLOBOT_PRIVATE_KEY and prints them masked', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, answer));
    const r = await clobot(['keys', '--venue', server.url, '--nonce', '3'], { CLOBOT_PRIVATE_KEY: KEY });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe([`address    ${ADDRESS}`, `wallet     EOA (signatureType 0) ${ADDRESS}`, 'apiKey     f4f2…755a', 'secret     CzBV…YYY=', 'passphrase 0123…cdef', ''].join('\n'));
    for (const secret of [API_SECRET, API_PASSPHRASE, KEY, KEY.slice(2)]) expect(r.stdout + r.stderr).not.toContain(secret);
    const req = server.requests[0] as SeenRequest;
    expect(req.url).toBe('/auth/derive-api-key');
    expect(req.headers['service_nonce']).toBe('3');
    expect(req.headers['service_address']).toBe(ADDRESS);
  });

  it('says which wallet type is in use: --signature-type and --funder, or the sandbox\'s wallet of the key', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, answer));
    const wallet = '0x5B38Da6a701c568545dCfcB03FcB875f56beddC4';
    const deposit = await clobot(['keys', '--venue', server.url, '--signature-type', '3', '--funder', wallet.toLowerCase()], { CLOBOT_PRIVATE_KEY: KEY });
    expect(deposit.status).toBe(0);
    expect(deposit.stdout).toContain(`wallet     deposit wallet (signatureType 3) ${wallet}\n`);
    const proxy = await clobot(['keys', '--venue', server.url, '--signature-type', '1'], { CLOBOT_PRIVATE_KEY: KEY });
    expect(proxy.stdout).toContain(`wallet     proxy wallet (signatureType 1) ${sandboxWalletAddress(ADDRESS, 'proxy')} (the sandbox's proxy wallet of this key; on the venue pass --funder)\n`);
    const self = await clobot(['keys', '--venue', server.url, '--signature-type', '3', '--funder', ADDRESS], { CLOBOT_PRIVATE_KEY: KEY });
    expect(self).toMatchObject({ status: 2, stdout: '' });
    expect(self.stderr).toContain('--funder: must be the deposit wallet');
    const four = await clobot(['keys', '--venue', server.url, '--signature-type', '4'], { CLOBOT_PRIVATE_KEY: KEY });
    expect(four.status).not.toBe(0);
    expect(four.stderr).toContain('expected 0..3');
  });

  it('--show prints them in full', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, answer));
    const r = await clobot(['keys', '--venue', server.url, '--show'], { CLOBOT_PRIVATE_KEY: KEY });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`secret     ${API_SECRET}\n`);
    expect(r.stdout).toContain(`passphrase ${API_PASSPHRASE}\n`);
    expect(r.stdout).not.toContain(KEY.slice(2));
  });

  it('an unset or malformed key is one line on stderr, exit 2, and the value is never echoed', async () => {
    server = await startLoopback((_req, res) => sendJson(res, 200, answer));
    const unset = await clobot(['keys', '--venue', server.url]);
    expect(unset).toEqual({ status: 2, stdout: '', stderr: 'clobot: CLOBOT_PRIVATE_KEY is not set\n' });
    const bad = '0x1234deadbeefnothex';
    const malformed = await clobot(['keys', '--venue', server.url], { CLOBOT_PRIVATE_KEY: bad });
    expect(malformed.status).toBe(2);
    expect(malformed.stdout).toBe('');
    expect(malformed.stderr.trim().split('\n')).toHaveLength(1);
    expect(malformed.stderr).toContain('CLOBOT_PRIVATE_KEY');
    expect(malformed.stderr).not.toContain('deadbeef');
    expect(server.requests).toHaveLength(0);
  });
});
