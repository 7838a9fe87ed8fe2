import type Database from 'better-sqlite3';
import { StoreError } from '../core/errors.ts';
import { STORE_FORMAT, STORE_MIGRATIONS, type StoreMigration } from './schema.ts';
import { readSchemaVersion, storeFailure } from './store-file.ts';

/**
 * Brings a store to the newest schema of `migrations` in ONE transaction: the version is read
 * inside it (so two processes creating the same new file cannot both run version 1), every
 * missing migration runs in order, and `meta.schemaVersion` is set last. A failing migration
 * rolls everything back: the store stays at its old version, untouched. A newer store is refused.
 */
export function migrateStore(db: Database.Database, file: string, migrations: readonly StoreMigration[] = STORE_MIGRATIONS): { from: number; to: number } {
  const target = migrations[migrations.length - 1]?.version ?? 0;
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new StoreError(`${file}: migration list out of order at version ${m.version}`, 'INVALID', file);
  });
  const run = db.transaction(() => {
    const from = readSchemaVersion(db, file);
    if (from > target) {
      throw new StoreError(`${file}: written by a newer clobot (store schema ${from}; this build reads up to ${target}); left untouched`, 'NEWER_FORMAT', file);
    }
    for (const m of migrations) {
      if (m.version <= from) continue;
      try {
        m.up(db);
      } catch (err) {
        throw storeFailure(file, `migration to schema ${m.version} (${m.description})`, err);
      }
    }
    if (from === 0) db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)').run('format', STORE_FORMAT);
    db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run('schemaVersion', String(target));
    return { from, to: target };
  });
  return db.inTransaction ? run() : run.immediate();
}
