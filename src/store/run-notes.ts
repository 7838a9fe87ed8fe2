import type Database from 'better-sqlite3';
import { journalColumns } from './journal-entry.ts';
import { storeFailure } from './store-file.ts';
import type { JournalInput } from './store-types.ts';

/** The store's journal, heartbeat chain and named cursors: what a run notes besides orders and fills. */
export class RunNotes {
  readonly #file: string;
  readonly #insertJournal: Database.Statement;
  readonly #upsertHeartbeat: Database.Statement;
  readonly #upsertCursor: Database.Statement;
  readonly #selectCursor: Database.Statement;

  constructor(db: Database.Database, file: string) {
    this.#file = file;
    this.#insertJournal = db.prepare('INSERT INTO journal (at, type, strategy_id, payload) VALUES (?, ?, ?, ?)');
    this.#upsertHeartbeat = db.prepare('INSERT INTO heartbeat (id, chain_id, at) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET chain_id = excluded.chain_id, at = excluded.at');
    this.#upsertCursor = db.prepare('INSERT INTO cursor (name, value, at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, at = excluded.at');
    this.#selectCursor = db.prepare('SELECT value FROM cursor WHERE name = ?').pluck();
  }

  setHeartbeatId(id: string, at: number): void {
    try {
      this.#upsertHeartbeat.run(id, at);
    } catch (err) {
      throw storeFailure(this.#file, 'setHeartbeatId', err);
    }
  }

  /** Appends to the journal; returns the entry's sequence number. */
  journal(event: JournalInput): number {
    const c = journalColumns(event);
    try {
      return Number(this.#insertJournal.run(c.at, c.type, c.strategyId, JSON.stringify(event)).lastInsertRowid);
    } catch (err) {
      throw storeFailure(this.#file, `journal ${c.type}`, err);
    }
  }

  setCursor(name: string, value: string, at: number): void {
    try {
      this.#upsertCursor.run(name, value, at);
    } catch (err) {
      throw storeFailure(this.#file, `setCursor ${name}`, err);
    }
  }

  cursor(name: string): string | undefined {
    return (this.#selectCursor.get(name) as string | undefined) ?? undefined;
  }
}
