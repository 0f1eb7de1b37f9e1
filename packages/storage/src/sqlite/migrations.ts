import type BetterSqlite3 from 'better-sqlite3';
import { StorageError } from '../errors.ts';

/** One forward-only schema step. Never edit a released migration: add the next number. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema, as numbered steps. Every list and claim query of the adapter has an index here
 * whose leading columns are its equality filters and whose last column is its order. Indexes on
 * optional columns are partial (`IS NOT NULL`): a filter `x = ?` implies it, so they still serve
 * their queries, and rows without the column cost no index write.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
CREATE TABLE documents (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  parent_id TEXT,
  secondary_id TEXT,
  key TEXT,
  name TEXT,
  name_folded TEXT,
  blob_key TEXT,
  data TEXT NOT NULL,
  revision INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL,
  PRIMARY KEY (collection, id)
);
CREATE UNIQUE INDEX documents_by_seq ON documents (collection, seq);
CREATE INDEX documents_by_parent ON documents (collection, parent_id, seq) WHERE parent_id IS NOT NULL;
CREATE INDEX documents_by_secondary ON documents (collection, secondary_id, seq) WHERE secondary_id IS NOT NULL;
CREATE UNIQUE INDEX documents_by_key ON documents (collection, key) WHERE key IS NOT NULL;

CREATE TABLE runs (
  id TEXT PRIMARY KEY NOT NULL,
  kind TEXT NOT NULL,
  workflow_id TEXT,
  batch_id TEXT,
  status TEXT NOT NULL,
  active INTEGER NOT NULL,
  priority REAL NOT NULL,
  snapshot TEXT NOT NULL,
  revision INTEGER NOT NULL,
  event_seq INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX runs_by_seq ON runs (seq);
CREATE INDEX runs_by_kind ON runs (kind, seq);
CREATE INDEX runs_by_workflow ON runs (workflow_id, seq) WHERE workflow_id IS NOT NULL;
CREATE INDEX runs_by_batch ON runs (batch_id, seq) WHERE batch_id IS NOT NULL;
CREATE INDEX runs_by_status ON runs (status, seq);
CREATE INDEX runs_by_active ON runs (active, seq);

CREATE TABLE run_events (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  revision INTEGER NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (run_id, seq)
) WITHOUT ROWID;

CREATE TABLE work (
  id TEXT PRIMARY KEY NOT NULL,
  run_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  priority INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  available_at INTEGER NOT NULL,
  payload TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  lease_owner TEXT,
  lease_expires_at INTEGER
);
CREATE INDEX work_by_claim_order ON work (priority, seq);
CREATE INDEX work_by_run ON work (run_id, priority, seq);

CREATE TABLE deliveries (
  id TEXT PRIMARY KEY NOT NULL,
  endpoint_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  event TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts TEXT NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  lease_owner TEXT,
  lease_expires_at INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE UNIQUE INDEX deliveries_by_seq ON deliveries (seq);
CREATE INDEX deliveries_by_claim_order ON deliveries (status, next_attempt_at, seq);
CREATE INDEX deliveries_by_status ON deliveries (status, seq);
CREATE INDEX deliveries_by_endpoint ON deliveries (endpoint_id, seq);
CREATE INDEX deliveries_by_event ON deliveries (event_id, seq);

-- High-water marks of the seq counters, written only when rows are deleted, so that a seq is
-- never handed out twice even after the newest rows were deleted and the database reopened.
CREATE TABLE sequences (
  name TEXT PRIMARY KEY NOT NULL,
  value INTEGER NOT NULL
);

CREATE TABLE blobs (
  key TEXT PRIMARY KEY NOT NULL,
  bytes BLOB NOT NULL
);
`,
  },
  {
    version: 2,
    name: 'leased work and run events packed per commit',
    // Measured per step commit of the engine (5-step runs, WAL frames written): 10.4 pages before,
    // of which 4 were the leased work row's insert and delete across `work` and its three
    // B-trees, and 3.4 the event rows (three or four a commit) inserted into a WITHOUT ROWID tree
    // keyed by a random run id (page splits). Items enqueued already leased now live in a small
    // table of their own (one B-tree, a few rows: what is executing), and the events of one
    // commit are one row (`events`: [[type, data], …] for seq … last_seq), keyed by run and last
    // seq so that `listRunEvents(afterSeq)` finds the first row it needs by the key.
    sql: `
CREATE TABLE work_leased (
  id TEXT PRIMARY KEY NOT NULL,
  run_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  priority INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  available_at INTEGER NOT NULL,
  payload TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  lease_owner TEXT NOT NULL,
  lease_expires_at INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE run_events_v2 (
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  events TEXT NOT NULL,
  revision INTEGER NOT NULL,
  at TEXT NOT NULL,
  PRIMARY KEY (run_id, last_seq)
) WITHOUT ROWID;
INSERT INTO run_events_v2 (run_id, seq, last_seq, events, revision, at)
  SELECT run_id, seq, seq, json_array(json_array(type, json(data))), revision, at
  FROM run_events ORDER BY run_id, seq;
DROP TABLE run_events;
ALTER TABLE run_events_v2 RENAME TO run_events;
`,
  },
  {
    version: 3,
    name: 'run events appended in commit order',
    // Measured with bench/src/engine/commit-pages.ts: in a group of 16 step commits (16 runs in
    // flight, `batched`), the event rows dirtied 9.5 of the group's 29 pages. Keyed by run, each
    // commit's row went into the middle of the tree, next to its run's earlier rows, and the 16
    // runs' rows spread over as many pages, split as they filled. Rows now append to the table's
    // last page in commit order (a rowid table: a new row takes the largest rowid plus one), and
    // only the small entries of the index by run and last seq go into the middle.
    sql: `
CREATE TABLE run_events_v3 (
  id INTEGER PRIMARY KEY NOT NULL,
  run_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  last_seq INTEGER NOT NULL,
  events TEXT NOT NULL,
  revision INTEGER NOT NULL,
  at TEXT NOT NULL
);
INSERT INTO run_events_v3 (run_id, seq, last_seq, events, revision, at)
  SELECT run_id, seq, last_seq, events, revision, at FROM run_events ORDER BY run_id, last_seq;
DROP TABLE run_events;
ALTER TABLE run_events_v3 RENAME TO run_events;
CREATE UNIQUE INDEX run_events_by_run ON run_events (run_id, last_seq);
`,
  },
  {
    version: 4,
    name: 'run snapshots apart, with patches between them',
    // A 5-step run's snapshot is 2-3 KB, so each run row filled a page of its own and every step
    // commit rewrote that page (in a group of 16 step commits, 15 of its 26 WAL pages). The
    // snapshot now lives in a table of its own, rewritten whole only every 8 revisions and when
    // the run comes to rest; the commits in between store the caller's patch in their event row,
    // which appends. The run rows left are small, so the rows of runs in flight share pages.
    // A run reads as its snapshot with the patches of the event rows after `base_event_seq`.
    sql: `
CREATE TABLE run_snapshots (
  run_seq INTEGER PRIMARY KEY NOT NULL,
  base_revision INTEGER NOT NULL,
  base_event_seq INTEGER NOT NULL,
  snapshot TEXT NOT NULL
);
INSERT INTO run_snapshots (run_seq, base_revision, base_event_seq, snapshot)
  SELECT seq, revision, event_seq, snapshot FROM runs ORDER BY seq;
ALTER TABLE runs DROP COLUMN snapshot;
ALTER TABLE run_events ADD COLUMN patch TEXT;
`,
  },
  {
    version: 5,
    name: 'run rows behind their patches',
    // No table changes. A commit that stores its patch and changes none of the run row's columns
    // now leaves the row alone once the row shows patches follow its snapshot: the event row
    // carries the revision, and readers take the run's revision and update time from its last
    // patch. An older @docflow/storage would read such a run as corrupt, so it must refuse the
    // file (SCHEMA_TOO_NEW), which this version number makes it do.
    sql: '-- no table changes',
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** The version recorded in `schema_migrations`, 0 for a new database. */
export function recordedSchemaVersion(db: BetterSqlite3.Database): number {
  const table = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (table === undefined) return 0;
  const row = db.prepare('SELECT max(version) AS version FROM schema_migrations').get() as {
    version: number | null;
  };
  return row.version ?? 0;
}

/**
 * Brings the database to {@link SCHEMA_VERSION} in one transaction, recording each step in
 * `schema_migrations`. Refuses (SCHEMA_TOO_NEW) a database written by a newer schema: its rows may
 * mean things this code does not know, and writing them could corrupt them.
 */
export function migrate(
  db: BetterSqlite3.Database,
  path: string,
  migrations: readonly Migration[] = MIGRATIONS,
): { readonly from: number; readonly to: number } {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  return db
    .transaction(() => {
      db.exec(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY NOT NULL, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
      );
      const from = recordedSchemaVersion(db);
      if (from > latest) {
        throw new StorageError(
          'SCHEMA_TOO_NEW',
          `The database ${path} has schema version ${from}, but this @docflow/storage knows versions up to ${latest}. It was written by a newer docflow; upgrade @docflow/storage to open it.`,
          { details: { path, databaseVersion: from, supportedVersion: latest } },
        );
      }
      const record = db.prepare(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
      );
      for (const m of migrations) {
        if (m.version <= from) continue;
        db.exec(m.sql);
        record.run(m.version, m.name, new Date().toISOString());
      }
      return { from, to: Math.max(from, latest) };
    })
    .immediate();
}
