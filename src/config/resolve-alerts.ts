import { Secret } from '../core/secret.ts';
import type { ConfigIssue } from './config-issue.ts';
import type { ConfigFile } from './schema.ts';
import type { AlertsConfig, AlertTarget } from './run-config.ts';

/** Telegram's Bot API, unless a target names another (`apiUrl`). */
export const TELEGRAM_API = 'https://api.telegram.org';

/**
 * The `alerts` section with its URLs and tokens read from the environment variables it names (a
 * webhook URL carries its own token, so both are Secrets). A variable unset or empty, or a target
 * missing what its format needs, is an issue naming the key and the variable (never its value).
 */
export function resolveAlerts(section: ConfigFile['alerts'], env: Readonly<Record<string, string | undefined>>): { alerts: AlertsConfig | undefined; issues: ConfigIssue[] } {
  if (section === undefined) return { alerts: undefined, issues: [] };
  const issues: ConfigIssue[] = [];
  const targets: AlertTarget[] = [];
  section.targets.forEach((t, i) => {
    const path = ['alerts', 'targets', i];
    const read = (key: 'urlEnv' | 'tokenEnv', name: string | undefined, what: string): string | undefined => {
      if (name === undefined) {
        issues.push({ path: [...path, key], message: `a ${t.format} target needs ${key}: the environment variable holding ${what}` });
        return undefined;
      }
      const value = env[name];
      if (value === undefined || value.trim() === '') issues.push({ path: [...path, key], message: `the environment variable ${name} (${what}) is not set` });
      return value?.trim() || undefined;
    };
    if (t.format === 'telegram') {
      const token = read('tokenEnv', t.tokenEnv, "the bot's token");
      if (t.chatId === undefined) issues.push({ path: [...path, 'chatId'], message: 'a telegram target needs chatId: the chat the bot writes to' });
      if (token !== undefined && t.chatId !== undefined) targets.push({ format: 'telegram', url: new Secret(`${(t.apiUrl ?? TELEGRAM_API).replace(/\/+$/, '')}/bot${token}/sendMessage`), chatId: String(t.chatId) });
      return;
    }
    const url = read('urlEnv', t.urlEnv, 'the webhook URL');
    if (url === undefined) return;
    if (!/^https?:\/\/[^\s]+$/.test(url)) {
      issues.push({ path: [...path, 'urlEnv'], message: `the environment variable ${t.urlEnv} does not hold an http(s) URL` });
      return;
    }
    targets.push({ format: t.format, url: new Secret(url) });
  });
  return { alerts: { targets, minIntervalMs: section.minIntervalMs, dailyLoss: section.dailyLoss, attempts: section.attempts, timeoutMs: section.timeoutMs }, issues };
}
