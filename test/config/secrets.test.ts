import { chmodSync } from 'node:fs';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.ts';
import type { RunConfig } from '../../src/config/run-config.ts';
import { sandboxPrivateKey } from '../../src/config/sandbox-key.ts';
import { parsePrivateKey } from '../../src/config/resolve-account.ts';
import { privateKeyToAddress } from '../../src/venue/signing/address.ts';
import { configErrorLines, lineOf, tempDir, VECTOR_ADDRESS, VECTOR_KEY } from './helpers.ts';

const tmp = tempDir();
const KEY_HEX = VECTOR_KEY.slice(2);
const REMOTE = 'mode: live\nvenue:\n  baseUrl: https://venue.example\n';
const API = {
  CLOBOT_API_KEY: '0b7c5f8e-1a2b-4c3d-8e9f-0123456789ab',
  CLOBOT_API_SECRET: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0LTEyMzQ=',
  CLOBOT_API_PASSPHRASE: 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9',
};

function load(name: string, text: string, env: Record<string, string> = {}): RunConfig {
  return loadConfig(tmp.write(name, text), env, { cwd: tmp.dir });
}

function errors(name: string, text: string, env: Record<string, string> = {}): { path: string; lines: string[] } {
  const path = tmp.write(name, text);
  return { path, lines: configErrorLines(() => loadConfig(path, env, { cwd: tmp.dir })) };
}

/** Every way the config could be printed or logged. */
function printed(config: RunConfig): string {
  return [inspect(config, { depth: 20 }), JSON.stringify(config), String(config.mode === 'live' ? config.account.privateKey : ''), `${JSON.stringify(config.account)}`].join('\n');
}

describe('private key from the environment', () => {
  it('is read, its address derived, and it never prints', () => {
    const config = load('env.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    if (config.mode !== 'live') throw new Error('live');
    expect(config.account.privateKey.reveal()).toBe(VECTOR_KEY);
    expect(config.account.address).toBe(VECTOR_ADDRESS);
    const text = printed(config);
    expect(text).not.toContain(KEY_HEX);
    expect(text).toContain('***');
  });

  it('accepts the key without 0x and with surrounding whitespace', () => {
    const config = load('env-bare.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: `  ${KEY_HEX}\n` });
    expect(config.account?.privateKey?.reveal()).toBe(VECTOR_KEY);
  });

  it('reads the variable named by account.privateKeyEnv', () => {
    const text = `${REMOTE}account:\n  privateKeyEnv: MY_BOT_KEY\n`;
    const config = load('env-named.yaml', text, { MY_BOT_KEY: VECTOR_KEY, CLOBOT_PRIVATE_KEY: sandboxPrivateKey(9) });
    expect(config.account?.address).toBe(VECTOR_ADDRESS);
    expect(config.account?.keySource).toEqual({ kind: 'env', name: 'MY_BOT_KEY' });
  });

  it('missing for live against a real URL: one line naming the variable', () => {
    const { path, lines } = errors('missing.yaml', REMOTE);
    expect(lines).toEqual([
      `account (${path}:1): no private key: live mode against https://venue.example signs orders; set the environment variable CLOBOT_PRIVATE_KEY or account.keyFile`,
    ]);
    const text = `${REMOTE}account:\n  privateKeyEnv: MY_BOT_KEY\n`;
    const named = errors('missing-named.yaml', text);
    expect(named.lines).toEqual([
      `account.privateKeyEnv (${named.path}:${lineOf(text, 'privateKeyEnv')}): no private key: live mode against https://venue.example signs orders; set the environment variable MY_BOT_KEY or account.keyFile`,
    ]);
  });

  it('malformed: says so without showing the value', () => {
    for (const bad of [KEY_HEX.slice(0, 62) + 'zz', KEY_HEX + '11', '0x' + '0'.repeat(64), 'f'.repeat(64)]) {
      const { path, lines } = errors('malformed.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: bad });
      expect(lines).toEqual([
        `account (${path}:1): the environment variable CLOBOT_PRIVATE_KEY does not hold a valid private key (expected 64 hex digits, optionally 0x-prefixed, in the secp256k1 range)`,
      ]);
      expect(lines.join('\n')).not.toContain(bad.slice(4, 40));
    }
  });

  it('an empty variable counts as unset', () => {
    const { lines } = errors('empty-var.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: '  ' });
    expect(lines[0]).toContain('no private key');
  });
});

describe('private key from a key file', () => {
  it('is read (0600: no warning) and never prints', () => {
    const keyPath = tmp.write('keys/bot.key', `${KEY_HEX}\n`, 0o600);
    chmodSync(keyPath, 0o600);
    const config = load('file.yaml', `${REMOTE}account:\n  keyFile: keys/bot.key\n`, { CLOBOT_PRIVATE_KEY: sandboxPrivateKey(3) });
    if (config.mode !== 'live') throw new Error('live');
    expect(config.account.keySource).toEqual({ kind: 'file', path: keyPath });
    expect(config.account.address).toBe(VECTOR_ADDRESS);
    expect(config.source.warnings).toEqual([]);
    const text = printed(config);
    expect(text).not.toContain(KEY_HEX);
    expect(text).toContain('***');
  });

  it('a file others can read gives a warning', () => {
    const keyPath = tmp.write('keys/open.key', VECTOR_KEY);
    chmodSync(keyPath, 0o644);
    const text = `${REMOTE}account:\n  keyFile: keys/open.key\n`;
    const path = tmp.write('file-open.yaml', text);
    const config = loadConfig(path, {}, { cwd: tmp.dir });
    expect(config.source.warnings).toEqual([
      `account.keyFile (${path}:${lineOf(text, 'keyFile')}): ${keyPath} can be read by other users; restrict it with chmod 600`,
    ]);
  });

  it('a missing or malformed file is an error that does not show the content', () => {
    const missing = errors('file-missing.yaml', `${REMOTE}account:\n  keyFile: keys/none.key\n`);
    expect(missing.lines).toEqual([`account.keyFile (${missing.path}:5): cannot read key file ${tmp.dir}/keys/none.key (no such file: ENOENT)`]);
    const content = 'not-a-key-' + KEY_HEX.slice(0, 20);
    tmp.write('keys/bad.key', content, 0o600);
    const bad = errors('file-bad.yaml', `${REMOTE}account:\n  keyFile: keys/bad.key\n`);
    expect(bad.lines).toEqual([
      `account.keyFile (${bad.path}:5): key file ${tmp.dir}/keys/bad.key does not hold a valid private key (expected 64 hex digits, optionally 0x-prefixed, in the secp256k1 range)`,
    ]);
    expect(bad.lines.join('\n')).not.toContain(content);
  });
});

describe('secrets written into the YAML', () => {
  it('a private key under account: an error naming the variable, never the value', () => {
    const text = `${REMOTE}account:\n  privateKey: ${VECTOR_KEY}\n`;
    const { path, lines } = errors('yaml-key.yaml', text, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(lines).toEqual([
      `account.privateKey (${path}:5): secrets are never read from the config file; remove it and set the environment variable CLOBOT_PRIVATE_KEY (or account.keyFile)`,
    ]);
    expect(lines.join('\n')).not.toContain(KEY_HEX);
  });

  it('API credentials and other spellings, anywhere in the file', () => {
    const text = [
      'mode: paper',
      'venue: { embedded: {} }',
      'account:',
      '  apiPassphraseEnv: MY_PASS',
      '  api_secret: abc',
      '  passphrase: def',
      'strategies:',
      '  - id: a',
      '    module: a.ts',
      '    markets: { slugs: [x] }',
      '    params: { Password: hunter2 }',
      '',
    ].join('\n');
    const { path, lines } = errors('yaml-api.yaml', text);
    expect(lines).toEqual([
      `account.api_secret (${path}:5): secrets are never read from the config file; remove it and set the environment variable CLOBOT_API_SECRET`,
      `account.passphrase (${path}:6): secrets are never read from the config file; remove it and set the environment variable MY_PASS`,
      `strategies[0].params.Password (${path}:11): secrets are never read from the config file; put it in an environment variable`,
    ]);
    expect(lines.join('\n')).not.toMatch(/hunter2|abc|def/);
  });

  it('a key pasted where a variable name belongs is refused and not shown', () => {
    const text = `${REMOTE}account:\n  privateKeyEnv: ${VECTOR_KEY}\n  apiSecretEnv: "${API.CLOBOT_API_SECRET}"\n`;
    const { path, lines } = errors('yaml-envname.yaml', text);
    expect(lines).toEqual([
      `account.privateKeyEnv (${path}:5): looks like a secret value: this key takes the NAME of an environment variable, put the secret itself in that variable`,
      `account.apiSecretEnv (${path}:6): looks like a secret value: this key takes the NAME of an environment variable, put the secret itself in that variable`,
    ]);
    expect(lines.join('\n')).not.toContain(KEY_HEX);
    expect(lines.join('\n')).not.toContain(API.CLOBOT_API_SECRET);
  });
});

describe('API credentials', () => {
  it('all three from the environment: Secrets that never print', () => {
    const config = load('api.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: VECTOR_KEY, ...API });
    const creds = config.account?.apiCredentials;
    expect(creds?.apiKey.reveal()).toBe(API.CLOBOT_API_KEY);
    expect(creds?.secret.reveal()).toBe(API.CLOBOT_API_SECRET);
    expect(creds?.passphrase.reveal()).toBe(API.CLOBOT_API_PASSPHRASE);
    const text = printed(config);
    for (const v of Object.values(API)) expect(text).not.toContain(v);
  });

  it('none: derived later from the key', () => {
    expect(load('api-none.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: VECTOR_KEY }).account?.apiCredentials).toBeUndefined();
  });

  it('partial or malformed: an error naming the variables, not the values', () => {
    const partial = errors('api-partial.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: VECTOR_KEY, CLOBOT_API_KEY: API.CLOBOT_API_KEY });
    expect(partial.lines).toEqual([
      `account (${partial.path}:1): API credentials are partial: CLOBOT_API_KEY is set but CLOBOT_API_SECRET, CLOBOT_API_PASSPHRASE are not; set all three, or none to derive them from the key`,
    ]);
    const bad = errors('api-bad.yaml', REMOTE, { CLOBOT_PRIVATE_KEY: VECTOR_KEY, ...API, CLOBOT_API_KEY: 'sk-live-0123456789', CLOBOT_API_SECRET: '%%%' });
    expect(bad.lines).toEqual([
      `account (${bad.path}:1): the environment variable CLOBOT_API_KEY does not hold an API key (expected a UUID)`,
      `account (${bad.path}:1): the environment variable CLOBOT_API_SECRET does not hold an API secret (expected base64 of at least 16 bytes)`,
    ]);
    expect(bad.lines.join('\n')).not.toMatch(/sk-live|%%%/);
  });
});

describe('addresses and signature types', () => {
  it('a given address must be the key\'s', () => {
    const other = privateKeyToAddress(parsePrivateKey(sandboxPrivateKey(5)) as Uint8Array);
    const text = `${REMOTE}account:\n  address: ${other}\n`;
    const { path, lines } = errors('addr.yaml', text, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(lines).toEqual([`account.address (${path}:5): does not match the private key's address ${VECTOR_ADDRESS} (from CLOBOT_PRIVATE_KEY)`]);
  });

  it('signatureType 1 and 2 need a funder, which becomes the maker', () => {
    const funder = '0x' + 'ab'.repeat(20);
    const { path, lines } = errors('sig1.yaml', `${REMOTE}account:\n  signatureType: 1\n`, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(lines).toEqual([`account.funder (${path}:4): required with signatureType 1: the proxy wallet address that holds the funds`]);
    const config = load('sig2.yaml', `${REMOTE}account:\n  signatureType: 2\n  funder: "${funder}"\n`, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(config.account?.signatureType).toBe(2);
    expect(config.account?.address).toBe(VECTOR_ADDRESS);
    expect(config.account?.funder?.toLowerCase()).toBe(funder);
  });

  it('signatureType 0 with a different funder is an error', () => {
    const text = `${REMOTE}account:\n  funder: "0x${'cd'.repeat(20)}"\n`;
    const { path, lines } = errors('sig0.yaml', text, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(lines).toEqual([
      `account.funder (${path}:5): is only for signatureType 1 (proxy wallet), 2 (Gnosis safe) or 3 (deposit wallet); with 0 the signer itself is the maker`,
    ]);
  });

  it('signatureType 3 needs a deposit wallet as funder, not the signer', () => {
    const wallet = '0x' + 'ef'.repeat(20);
    const { path, lines } = errors('sig3.yaml', `${REMOTE}account:\n  signatureType: 3\n`, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(lines).toEqual([`account.funder (${path}:4): required with signatureType 3: the deposit wallet address that holds the funds`]);
    const self = errors('sig3s.yaml', `${REMOTE}account:\n  signatureType: 3\n  funder: "${VECTOR_ADDRESS}"\n`, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(self.lines).toEqual([`account.funder (${self.path}:6): must be the deposit wallet with signatureType 3, not the signer address itself`]);
    const config = load('sig3w.yaml', `${REMOTE}account:\n  signatureType: 3\n  funder: "${wallet}"\n`, { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(config.account?.signatureType).toBe(3);
    expect(config.account?.funder?.toLowerCase()).toBe(wallet);
  });

  it('signatureType must be 0, 1, 2 or 3', () => {
    const { path, lines } = errors('sig4.yaml', `${REMOTE}account:\n  signatureType: 4\n`);
    expect(lines).toEqual([`account.signatureType (${path}:5): must be 0 (EOA), 1 (proxy wallet), 2 (Gnosis safe) or 3 (deposit wallet), was 4`]);
  });
});

describe('mode rules for keys', () => {
  it('live against the embedded sandbox without a key: a deterministic sandbox-only key', () => {
    const text = (seed: number): string => `mode: live\nvenue:\n  embedded: { seed: ${seed} }\n`;
    const a = load('sb1.yaml', text(7));
    const b = load('sb2.yaml', text(7));
    const c = load('sb3.yaml', text(8));
    if (a.mode !== 'live' || b.mode !== 'live' || c.mode !== 'live') throw new Error('live');
    expect(a.account.keySource).toEqual({ kind: 'sandbox', seed: 7 });
    expect(a.account.address).toBe(b.account.address);
    expect(a.account.address).not.toBe(c.account.address);
    expect(a.account.privateKey.reveal()).toBe(sandboxPrivateKey(7));
    expect(a.account.address).toBe(privateKeyToAddress(parsePrivateKey(sandboxPrivateKey(7)) as Uint8Array));
  });

  it('live against the embedded sandbox uses a configured key when there is one', () => {
    const config = load('sb-key.yaml', 'mode: live\nvenue:\n  embedded: {}\n', { CLOBOT_PRIVATE_KEY: VECTOR_KEY });
    expect(config.account?.address).toBe(VECTOR_ADDRESS);
  });

  it('paper needs no key; an account section is resolved when present', () => {
    const bare = load('paper.yaml', REMOTE.replace('live', 'paper'));
    expect(bare.account).toBeUndefined();
    const withAccount = load('paper-acct.yaml', `${REMOTE.replace('live', 'paper')}account:\n  address: "${VECTOR_ADDRESS}"\n`);
    expect(withAccount.account?.address).toBe(VECTOR_ADDRESS);
    expect(withAccount.account?.privateKey).toBeUndefined();
  });

  it('backtest reads no secrets at all, even malformed ones', () => {
    const config = load('bt.yaml', 'mode: backtest\naccount:\n  signatureType: 1\n', { CLOBOT_PRIVATE_KEY: 'garbage', CLOBOT_API_KEY: 'x' });
    expect(config.account).toBeUndefined();
  });
});
