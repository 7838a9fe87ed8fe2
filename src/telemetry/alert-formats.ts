import type { AlertFormat } from '../config/run-config.ts';
import type { Alert } from './alert-rules.ts';

const ICON: Readonly<Record<Alert['severity'], string>> = { info: 'ℹ️', warning: '⚠️', critical: '🚨' };

/** The plain text of an alert: its title, its detail lines, how many like it were held back. */
export function alertText(alert: Alert): string {
  const held = alert.suppressed ? [`(${alert.suppressed} more ${alert.kind} alert(s) held back by the rate limit)`] : [];
  return [alert.title, ...alert.detail, ...held].join('\n');
}

/**
 * The JSON body an alert is POSTed as, per receiver: `json` (the alert's fields), `slack`
 * (incoming webhook: `text`), `discord` (webhook: `content`, at most 2,000 characters),
 * `telegram` (Bot API sendMessage: `chat_id`, `text`, at most 4,096 characters).
 */
export function alertBody(alert: Alert, format: AlertFormat, chatId?: string): unknown {
  const text = alertText(alert);
  switch (format) {
    case 'json':
      return { source: 'clobot', kind: alert.kind, severity: alert.severity, title: alert.title, detail: alert.detail, at: new Date(alert.at).toISOString(), suppressed: alert.suppressed ?? 0 };
    case 'slack':
      return { text: `${ICON[alert.severity]} ${text}` };
    case 'discord':
      return { content: clip(`${ICON[alert.severity]} ${text}`, 2_000), allowed_mentions: { parse: [] } };
    case 'telegram':
      return { chat_id: chatId, text: clip(`${ICON[alert.severity]} ${text}`, 4_096), disable_web_page_preview: true };
  }
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
