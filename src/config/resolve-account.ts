import { fileErrorReason } from '../core/errors.ts';
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { Secret } from '../core/secret.ts';
import { privateKeyToAddress } from '../venue/signing/address.ts';
import { isValidPrivateKey } from '../venue/signing/ecdsa.ts';
import { hexToBytes, toHex } from '../venue/signing/hex.ts';
import type { ConfigIssue } from './config-issue.ts';
import { DEFAULT_SECRET_ENV } from './defaults.ts';
import type { AccountConfig, Address, ApiCredentials, Hex, KeySource, Mode, SecretEnvNames, VenueConfig } from './run-config.ts';
import { sandboxPrivateKey } from './sandbox-key.ts';
import type { AccountSection } from './schema.ts';

/**
 * Reads the account's secrets: the private key from `account.keyFile` when set, else from the
 * environment variable `account.privateKeyEnv` (default CLOBOT_PRIVATE_KEY); the L2 API
 * credentials from three environment variables (all or none). Checks the address and funder
 * against the key and the signature type. No message ever contains a secret: a malformed value
 * is called malformed, never shown.
 *
 * Per mode: backtest reads nothing; paper reads what is there and requires nothing; live
 * requires a key, except against the embedded sandbox, where a throwaway key derived from the
 * sandbox seed stands in (see sandbox-key.ts).
 */
export interface ResolvedAccount {
  readonly account: AccountConfig | undefined;
  readonly issues: readonly ConfigIssue[];
  readonly warnings: readonly ConfigIssue[];
}

export interface ResolveAccountInput {
  readonly mode: Mode;
  readonly section: AccountSection | undefined;
  readonly venue: VenueConfig | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /**
   * The command line's `--venue`: with it, an embedded-sandbox config talks to another venue
   * (a sandbox anyone may share), where the seed's public throwaway key must not stand in.
   */
  readonly venueUrl?: string | undefined;
}

const KEY_FORM = 'expected 64 hex digits, optionally 0x-prefixed, in the secp256k1 range';
const MAX_KEY_FILE_BYTES = 4096;

export function resolveAccount(input: ResolveAccountInput): ResolvedAccount {
  const { mode, section, venue, env, cwd, venueUrl } = input;
  if (mode === 'backtest') return { account: undefined, issues: [], warnings: [] };
  if (mode === 'paper' && section === undefined) return { account: undefined, issues: [], warnings: [] };

  const issues: ConfigIssue[] = [];
  const warnings: ConfigIssue[] = [];
  const names: SecretEnvNames = {
    privateKey: section?.privateKeyEnv ?? DEFAULT_SECRET_ENV.privateKey,
    apiKey: section?.apiKeyEnv ?? DEFAULT_SECRET_ENV.apiKey,
    apiSecret: section?.apiSecretEnv ?? DEFAULT_SECRET_ENV.apiSecret,
    apiPassphrase: section?.apiPassphraseEnv ?? DEFAULT_SECRET_ENV.apiPassphrase,
  };
  const envKeyPath = section?.privateKeyEnv !== undefined ? ['account', 'privateKeyEnv'] : ['account'];

  // --- the private key
  let keyBytes: Uint8Array | undefined;
  let keySource: KeySource | undefined;
  if (section?.keyFile !== undefined) {
    const path = resolvePath(section.keyFile, cwd);
    const read = readKeyFile(path);
    if (typeof read === 'string') {
      issues.push({ path: ['account', 'keyFile'], message: read });
    } else {
      keyBytes = read.bytes;
      keySource = { kind: 'file', path };
      if (read.openToOthers) {
        warnings.push({ path: ['account', 'keyFile'], message: `${path} can be read by other users; restrict it with chmod 600` });
      }
    }
  } else {
    const text = env[names.privateKey];
    if (text !== undefined && text.trim() !== '') {
      keyBytes = parsePrivateKey(text);
      if (keyBytes === undefined) {
        issues.push({ path: envKeyPath, message: `the environment variable ${names.privateKey} does not hold a valid private key (${KEY_FORM})` });
      } else {
        keySource = { kind: 'env', name: names.privateKey };
      }
    }
  }
  if (keyBytes === undefined && issues.length === 0 && mode === 'live') {
    if (venue?.kind === 'embedded' && venueUrl === undefined) {
      keyBytes = hexToBytes(sandboxPrivateKey(venue.embedded.seed), 32);
      keySource = { kind: 'sandbox', seed: venue.embedded.seed };
    } else {
      // the seed's throwaway key is public knowledge: only the in-process sandbox may take it
      const url = venueUrl ?? (venue?.kind === 'remote' ? venue.urls.trading : undefined);
      const where = url !== undefined ? ` against ${url}` : '';
      issues.push({
        path: envKeyPath,
        message: `no private key: live mode${where} signs orders; set the environment variable ${names.privateKey} or account.keyFile`,
      });
    }
  }
  const privateKey = keyBytes !== undefined ? new Secret(toHex(keyBytes) as Hex) : undefined;

  // --- addresses
  const derived = keyBytes !== undefined ? (privateKeyToAddress(keyBytes) as Address) : undefined;
  if (derived !== undefined && section?.address !== undefined && section.address !== derived) {
    issues.push({ path: ['account', 'address'], message: `does not match the private key's address ${derived} (${describeKeySource(keySource)})` });
  }
  const address = derived ?? section?.address;
  const signatureType = section?.signatureType ?? 0;
  let funder = section?.funder;
  if (signatureType === 0) {
    if (funder !== undefined && address !== undefined && funder !== address) {
      issues.push({
        path: ['account', 'funder'],
        message: 'is only for signatureType 1 (proxy wallet), 2 (Gnosis safe) or 3 (deposit wallet); with 0 the signer itself is the maker',
      });
    }
    funder = address;
  } else if (funder === undefined) {
    issues.push({
      path: ['account', 'funder'],
      message: `required with signatureType ${signatureType}: the ${WALLET_KIND[signatureType]} address that holds the funds`,
    });
  } else if (signatureType === 3 && address !== undefined && funder === address) {
    issues.push({ path: ['account', 'funder'], message: 'must be the deposit wallet with signatureType 3, not the signer address itself' });
  }

  // --- API credentials: all three or none
  const apiCredentials = readApiCredentials(names, env, issues);

  const account: AccountConfig = { address, funder, signatureType, privateKey, keySource, apiCredentials, env: names };
  return { account, issues, warnings };
}

/** What each signature type calls the wallet that holds the funds. */
export const WALLET_KIND: Readonly<Record<0 | 1 | 2 | 3, string>> = { 0: 'EOA', 1: 'proxy wallet', 2: 'safe', 3: 'deposit wallet' };

function describeKeySource(source: KeySource | undefined): string {
  if (source === undefined) return 'no key';
  if (source.kind === 'env') return `from ${source.name}`;
  if (source.kind === 'file') return `from ${source.path}`;
  return `the sandbox key of seed ${source.seed}`;
}

/** 32 key bytes from hex text (optional 0x, surrounding whitespace ignored), or undefined. */
export function parsePrivateKey(text: string): Uint8Array | undefined {
  const t = text.trim();
  const hex = t.startsWith('0x') || t.startsWith('0X') ? t.slice(2) : t;
  const bytes = hexToBytes('0x' + hex, 32);
  return bytes !== undefined && isValidPrivateKey(bytes) ? bytes : undefined;
}

/** `~/x` and relative paths against the working directory. */
export function resolvePath(path: string, cwd: string): string {
  if (path === '~' || path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return isAbsolute(path) ? path : resolve(cwd, path);
}

function readKeyFile(path: string): { bytes: Uint8Array; openToOthers: boolean } | string {
  let size: number;
  let mode: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return `${path} is not a file`;
    size = st.size;
    mode = st.mode;
  } catch (err) {
    return `cannot read key file ${path} (${fileErrorReason(err)})`;
  }
  if (size > MAX_KEY_FILE_BYTES) return `key file ${path} does not hold a private key (${KEY_FORM}); it is ${size} bytes`;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return `cannot read key file ${path} (${fileErrorReason(err)})`;
  }
  const bytes = parsePrivateKey(text);
  if (bytes === undefined) return `key file ${path} does not hold a valid private key (${KEY_FORM})`;
  return { bytes, openToOthers: process.platform !== 'win32' && (mode & 0o077) !== 0 };
}

const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const BASE64_RE = /^[A-Za-z0-9+/_-]+={0,2}$/;

function readApiCredentials(names: SecretEnvNames, env: Readonly<Record<string, string | undefined>>, issues: ConfigIssue[]): ApiCredentials | undefined {
  const read = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const apiKey = read(names.apiKey);
  const secret = read(names.apiSecret);
  const passphrase = read(names.apiPassphrase);
  const given = [
    [names.apiKey, apiKey],
    [names.apiSecret, secret],
    [names.apiPassphrase, passphrase],
  ] as const;
  const set = given.filter(([, v]) => v !== undefined).map(([n]) => n);
  if (set.length === 0) return undefined;
  if (apiKey === undefined || secret === undefined || passphrase === undefined) {
    const unset = given.filter(([, v]) => v === undefined).map(([n]) => n);
    issues.push({
      path: ['account'],
      message: `API credentials are partial: ${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set but ${unset.join(', ')} ${unset.length === 1 ? 'is' : 'are'} not; set all three, or none to derive them from the key`,
    });
    return undefined;
  }
  let ok = true;
  if (!UUID_RE.test(apiKey)) {
    issues.push({ path: ['account'], message: `the environment variable ${names.apiKey} does not hold an API key (expected a UUID)` });
    ok = false;
  }
  if (!BASE64_RE.test(secret) || Buffer.from(secret.replace(/-/g, '+').replace(/_/g, '/'), 'base64').length < 16) {
    issues.push({ path: ['account'], message: `the environment variable ${names.apiSecret} does not hold an API secret (expected base64 of at least 16 bytes)` });
    ok = false;
  }
  if (/\s/.test(passphrase) || passphrase.length > 256) {
    issues.push({ path: ['account'], message: `the environment variable ${names.apiPassphrase} does not hold a passphrase (expected one word, no spaces)` });
    ok = false;
  }
  if (!ok) return undefined;
  return { apiKey: new Secret(apiKey), secret: new Secret(secret), passphrase: new Secret(passphrase) };
}
