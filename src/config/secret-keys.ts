import type { ConfigIssue } from './config-issue.ts';
import { DEFAULT_SECRET_ENV } from './defaults.ts';
import type { KeyPath, PathSegment } from './yaml-source.ts';

type SecretKind = 'privateKey' | 'apiKey' | 'apiSecret' | 'apiPassphrase' | 'other';

/**
 * Secrets are never read from the config file. A key that would hold one (`privateKey`,
 * `secret`, `apiSecret`, `passphrase`, `password`, `mnemonic`, ...) anywhere in the file is an
 * error that names the environment variable to use instead. Keys are compared without case,
 * `_` or `-`, so `private_key` and `API-SECRET` are caught too. The value is never looked at.
 */
const SECRET_KEYS: ReadonlyMap<string, SecretKind> = new Map(Object.entries({
  privatekey: 'privateKey',
  secretkey: 'privateKey',
  signingkey: 'privateKey',
  mnemonic: 'privateKey',
  seedphrase: 'privateKey',
  apikey: 'apiKey',
  secret: 'apiSecret',
  apisecret: 'apiSecret',
  passphrase: 'apiPassphrase',
  apipassphrase: 'apiPassphrase',
  password: 'other',
  authtoken: 'other',
  credentials: 'other',
} satisfies Record<string, SecretKind>));

export function findSecretKeys(data: unknown, envNames: { privateKey?: string; apiKey?: string; apiSecret?: string; apiPassphrase?: string }): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  walk(data, [], (path, key) => {
    const inAccount = path[0] === 'account' && path.length === 2;
    const normal = key.toLowerCase().replace(/[_-]/g, '');
    const kind = SECRET_KEYS.get(normal) ?? (inAccount && normal === 'key' ? 'privateKey' : undefined);
    if (kind === undefined) return;
    let hint: string;
    if (kind === 'other' || !inAccount) {
      hint = 'secrets are never read from the config file; put it in an environment variable';
      if (kind === 'privateKey') hint += ` (${envNames.privateKey ?? DEFAULT_SECRET_ENV.privateKey} for the account key, or account.keyFile)`;
    } else if (kind === 'privateKey') {
      hint = `secrets are never read from the config file; remove it and set the environment variable ${envNames.privateKey ?? DEFAULT_SECRET_ENV.privateKey} (or account.keyFile)`;
    } else {
      const name = envNames[kind] ?? DEFAULT_SECRET_ENV[kind];
      hint = `secrets are never read from the config file; remove it and set the environment variable ${name}`;
    }
    issues.push({ path, message: hint });
  });
  return issues;
}

function walk(value: unknown, path: PathSegment[], onKey: (path: KeyPath, key: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, [...path, i], onKey));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [k, v] of Object.entries(value)) {
    const p = [...path, k];
    onKey(p, k);
    walk(v, p, onKey);
  }
}
