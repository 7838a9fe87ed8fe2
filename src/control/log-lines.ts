import type { LogLine } from './control-state.ts';

/** pino's level numbers and their names. */
const LEVELS: Readonly<Record<number, string>> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
/** Fields every pino line has, kept apart from the line's own. */
const BASE_FIELDS = new Set(['time', 'level', 'msg', 'pid', 'hostname', 'name']);

/**
 * The run's newest log lines, for the control API and the dashboard: `tap` takes pino's JSON
 * lines (createLogger's `tap`, secrets already redacted there), keeps the newest `capacity`, and
 * hands each to the listeners (the message WebSocket).
 */
export class LogLines {
  readonly #capacity: number;
  readonly #lines: LogLine[] = [];
  #listeners: readonly ((line: LogLine) => void)[] = [];

  constructor(capacity = 200) {
    this.#capacity = capacity;
  }

  /** One JSON line of pino (a line that does not parse is kept as its text). */
  readonly tap = (text: string): void => {
    const line = parseLine(text);
    this.#lines.push(line);
    if (this.#lines.length > this.#capacity) this.#lines.splice(0, this.#lines.length - this.#capacity);
    for (const listener of this.#listeners) listener(line);
  };

  /** The newest `n` lines, oldest first. */
  newest(n = this.#capacity): LogLine[] {
    return this.#lines.slice(-n);
  }

  listen(listener: (line: LogLine) => void): () => void {
    this.#listeners = [...this.#listeners, listener];
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }
}

function parseLine(text: string): LogLine {
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) if (!BASE_FIELDS.has(k)) fields[k] = v;
    const level = typeof raw['level'] === 'number' ? (LEVELS[raw['level']] ?? String(raw['level'])) : typeof raw['level'] === 'string' ? raw['level'] : 'info';
    return { at: typeof raw['time'] === 'number' ? raw['time'] : Date.now(), level, msg: typeof raw['msg'] === 'string' ? raw['msg'] : '', fields };
  } catch {
    return { at: Date.now(), level: 'info', msg: text.trim(), fields: {} };
  }
}
