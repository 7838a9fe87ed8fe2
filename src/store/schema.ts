import type { Database } from 'better-sqlite3';

/** `meta.format` of every run store; anything else is not ours. */
export const STORE_FORMAT = 'clobot-store';

/** One schema change: run inside the migration transaction, in version order. */
export interface StoreMigration {
  /** The schema version this migration produces (1 = the first schema). */
  readonly version: number;
  readonly description: string;
  readonly up: (db: Database) => void;
}

/**
 * Version 1. Every table is STRICT, so a non-integer amount can never land in an INTEGER column;
 * money columns hold Micros (integer count of 1e-6). Times are epoch ms from the run's clock.
 *
 * The `meta` and `lock` tables are a fixed contract across versions: any build reads them to
 * refuse a newer store or a locked one before touching anything else.
 */
const V1_SQL = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE lock (
  id    INTEGER PRIMARY KEY CHECK (id = 1),
  pid   INTEGER NOT NULL,
  host  TEXT NOT NULL,
  since INTEGER NOT NULL
) STRICT;

CREATE TABLE run (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  run_id     TEXT NOT NULL CHECK (length(run_id) = 8),
  name       TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT;

CREATE TABLE id_reservations (
  seq      INTEGER PRIMARY KEY,
  first_id INTEGER NOT NULL,
  last_id  INTEGER NOT NULL,
  at       INTEGER NOT NULL,
  CHECK (first_id >= 1 AND last_id >= first_id)
) STRICT;

-- WITHOUT ROWID where the key is the lookup: one b-tree per table, so a commit writes fewer pages
CREATE TABLE orders (
  client_order_id TEXT PRIMARY KEY,
  strategy_id     TEXT NOT NULL,
  order_id        TEXT,
  token_id        TEXT NOT NULL,
  condition_id    TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price           INTEGER NOT NULL,
  size            INTEGER NOT NULL,
  order_type      TEXT NOT NULL,
  post_only       INTEGER NOT NULL CHECK (post_only IN (0, 1)),
  status          TEXT NOT NULL,
  status_reason   TEXT,
  filled          INTEGER NOT NULL,
  request         TEXT NOT NULL,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE TABLE order_history (
  client_order_id TEXT NOT NULL,
  n               INTEGER NOT NULL,
  status          TEXT NOT NULL,
  at              INTEGER NOT NULL,
  reason          TEXT,
  PRIMARY KEY (client_order_id, n)
) STRICT, WITHOUT ROWID;

-- every status change of an order is kept, numbered per order, by the database itself
CREATE TRIGGER orders_history_insert AFTER INSERT ON orders BEGIN
  INSERT INTO order_history (client_order_id, n, status, at, reason)
  VALUES (new.client_order_id, 1, new.status, new.updated_at, new.status_reason);
END;
CREATE TRIGGER orders_history_update AFTER UPDATE OF status ON orders WHEN old.status <> new.status BEGIN
  INSERT INTO order_history (client_order_id, n, status, at, reason)
  VALUES (new.client_order_id,
          coalesce((SELECT max(n) FROM order_history WHERE client_order_id = new.client_order_id), 0) + 1,
          new.status, new.updated_at, new.status_reason);
END;

CREATE TABLE fills (
  trade_id        TEXT NOT NULL,
  order_id        TEXT NOT NULL,
  seq             INTEGER NOT NULL UNIQUE,
  client_order_id TEXT NOT NULL,
  token_id        TEXT NOT NULL,
  side            TEXT NOT NULL CHECK (side IN ('BUY', 'SELL')),
  price           INTEGER NOT NULL,
  size            INTEGER NOT NULL,
  fee             INTEGER NOT NULL,
  liquidity       TEXT NOT NULL CHECK (liquidity IN ('MAKER', 'TAKER')),
  confirmed       INTEGER NOT NULL CHECK (confirmed IN (0, 1)),
  ts_event        INTEGER NOT NULL,
  ts_init         INTEGER NOT NULL,
  PRIMARY KEY (trade_id, order_id)
) STRICT, WITHOUT ROWID;

-- net size, traded amounts and fees per token, for ad-hoc SQL; average prices and realized PnL
-- need the fills in order and are derived in code (replay-portfolio.ts)
CREATE VIEW positions AS
  SELECT token_id,
         sum(CASE side WHEN 'BUY' THEN size ELSE -size END) AS size,
         sum(CASE side WHEN 'BUY' THEN size ELSE 0 END) AS bought,
         sum(CASE side WHEN 'SELL' THEN size ELSE 0 END) AS sold,
         sum(fee) AS fees,
         count(*) AS fills
  FROM fills GROUP BY token_id;

CREATE TABLE balances (
  seq            INTEGER PRIMARY KEY,
  balance        INTEGER NOT NULL,
  after_fill_seq INTEGER NOT NULL,
  at             INTEGER NOT NULL,
  reason         TEXT
) STRICT;

CREATE TABLE heartbeat (
  id       INTEGER PRIMARY KEY CHECK (id = 1),
  chain_id TEXT NOT NULL,
  at       INTEGER NOT NULL
) STRICT;

CREATE TABLE journal (
  seq         INTEGER PRIMARY KEY,
  at          INTEGER NOT NULL,
  type        TEXT NOT NULL,
  strategy_id TEXT,
  payload     TEXT NOT NULL
) STRICT;

CREATE TABLE cursor (
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  at    INTEGER NOT NULL
) STRICT;
`;

/**
 * Version 2: fills whose trade FAILED on chain. A void fill leaves `fills` (so positions, PnL and
 * the `positions` view are as if it never filled) and is kept here, a row of `fills` as it was
 * (every column, so its checks held) plus when it was voided; its order keeps the filled size the
 * venue matched.
 */
const V2_SQL = `
CREATE TABLE voided_fills AS SELECT *, 0 AS voided_at FROM fills WHERE 0;
CREATE UNIQUE INDEX voided_fills_key ON voided_fills (trade_id, order_id);
`;

/** The rows of the staged orders (the FROM of the view staged_orders, schema 3 and 4). */
const STAGED_ROWS = `  FROM (SELECT r->>'clientOrderId' AS client_order_id,
               r->>'strategyId' AS strategy_id,
               o->>0 AS order_id,
               s->>(r->>'tokenId') AS token_id,
               s->>(r->>'conditionId') AS condition_id,
               r->>'side' AS side,
               r->>'price' AS price,
               r->>'size' AS size,
               coalesce(r->>'orderType', 'GTC') AS order_type,
               CASE WHEN r->>'postOnly' THEN 1 ELSE 0 END AS post_only,
               o->>1 AS status,
               o->>5 AS status_reason,
               o->>2 AS filled,
               r,
               o->>3 AS created_at,
               o->>4 AS updated_at
        FROM (SELECT b.orders->0 AS s, j.value AS o, j.value->6 AS r FROM order_batches b, json_each(b.orders, '$[1]') j));`;

/**
 * Version 3: orders staged before their post. The orders of a batch are written as ONE row of
 * `order_batches` and committed before the post: one small append instead of a row per order in
 * the orders b-tree and its history, so the commit that lets the orders go is small. The row is
 * JSON `[strings, orders]`: each order `[hash, status, filled, created, updated, reason, request]`
 * with the request's token id and condition id as indexes into `strings` (a batch repeats them:
 * a third of its bytes otherwise). On a later turn the owner folds them into `order_rows` (the orders table, renamed) as
 * the upsert it would have written (staged-orders.ts); the next open folds what a crash left. The
 * view `orders` is both, so every reader (`clobot status`, ad-hoc SQL) sees a staged order as its
 * row will be.
 */
const V3_SQL = `
ALTER TABLE orders RENAME TO order_rows;

CREATE TABLE order_batches (
  seq    INTEGER PRIMARY KEY,
  orders TEXT NOT NULL
) STRICT;

CREATE VIEW staged_orders AS
  SELECT client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only,
         status, status_reason, filled,
         json_set(r, '$.tokenId', token_id, '$.conditionId', condition_id) AS request,
         created_at, updated_at
${STAGED_ROWS}

CREATE VIEW orders AS
  SELECT client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only,
         status, status_reason, filled, request, created_at, updated_at
  FROM order_rows
  UNION ALL
  SELECT * FROM staged_orders;
`;

/**
 * Version 4: the caller's refs and each strategy's share. An order's `ref` and `group` (strategy
 * API 3, kept in its request JSON) as columns of `order_rows` (VIRTUAL generated: read from the
 * request, nothing more written) and of the views `staged_orders` and `orders` (as `ref` and
 * `order_group`); the view `strategy_positions`: net size, traded amounts, turnover and fees per
 * (strategy, token) from the fills of each strategy's orders (average prices and PnL are derived
 * in code, as for `positions`).
 */
const V4_SQL = `
ALTER TABLE order_rows ADD COLUMN ref TEXT GENERATED ALWAYS AS (request->>'ref') VIRTUAL;
ALTER TABLE order_rows ADD COLUMN order_group TEXT GENERATED ALWAYS AS (request->>'group') VIRTUAL;

DROP VIEW orders;
DROP VIEW staged_orders;

CREATE VIEW staged_orders AS
  SELECT client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only,
         status, status_reason, filled,
         json_set(r, '$.tokenId', token_id, '$.conditionId', condition_id) AS request,
         created_at, updated_at, r->>'ref' AS ref, r->>'group' AS order_group
${STAGED_ROWS}

CREATE VIEW orders AS
  SELECT client_order_id, strategy_id, order_id, token_id, condition_id, side, price, size, order_type, post_only,
         status, status_reason, filled, request, created_at, updated_at, ref, order_group
  FROM order_rows
  UNION ALL
  SELECT * FROM staged_orders;

CREATE VIEW strategy_positions AS
  SELECT o.strategy_id,
         f.token_id,
         sum(CASE f.side WHEN 'BUY' THEN f.size ELSE -f.size END) AS size,
         sum(CASE f.side WHEN 'BUY' THEN f.size ELSE 0 END) AS bought,
         sum(CASE f.side WHEN 'SELL' THEN f.size ELSE 0 END) AS sold,
         sum(f.price * f.size) / 1000000 AS turnover,
         sum(f.fee) AS fees,
         count(*) AS fills
  FROM fills f JOIN orders o ON o.client_order_id = f.client_order_id
  GROUP BY o.strategy_id, f.token_id;
`;

/** Every schema version in order; a new store runs them all, an older store the missing ones. */
export const STORE_MIGRATIONS: readonly StoreMigration[] = Object.freeze([
  { version: 1, description: 'run, ids, orders, history, fills, balances, heartbeat, journal, cursors', up: (db: Database) => db.exec(V1_SQL) },
  { version: 2, description: 'voided fills (trades that failed on chain)', up: (db: Database) => db.exec(V2_SQL) },
  { version: 3, description: 'orders staged before their post (order_batches), orders table renamed order_rows, view orders', up: (db: Database) => db.exec(V3_SQL) },
  { version: 4, description: "orders' ref and group columns, view strategy_positions", up: (db: Database) => db.exec(V4_SQL) },
]);

/** The schema version this build writes and the newest it can read. */
export const STORE_SCHEMA_VERSION = STORE_MIGRATIONS[STORE_MIGRATIONS.length - 1]!.version;

/** Tables (and views) a current store must have; a missing one means the file was damaged. */
export const REQUIRED_TABLES: readonly string[] = Object.freeze([
  'meta',
  'lock',
  'run',
  'id_reservations',
  'orders',
  'order_rows',
  'order_batches',
  'staged_orders',
  'order_history',
  'fills',
  'voided_fills',
  'positions',
  'strategy_positions',
  'balances',
  'heartbeat',
  'journal',
  'cursor',
]);
