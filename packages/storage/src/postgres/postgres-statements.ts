/**
 * The SQL of the PostgreSQL adapter for one schema. Statements that check something (a revision,
 * a lease) call `docflow_check`, which raises: the transaction aborts at the failed check, so a
 * commit's statements can be sent together without waiting for each one's answer.
 */
export interface PostgresStatements {
  readonly docInsert: string;
  readonly docUpdate: string;
  readonly docUpsert: string;
  readonly docDelete: string;
  readonly docGet: string;
  /** Several documents by (collection, id): `$1` and `$2` arrays, rows in their order. */
  readonly docGetMany: string;
  readonly docGetByKey: string;
  readonly docIdByKey: string;
  readonly docRevision: string;
  readonly runInsert: string;
  readonly runInsertWithEvents: string;
  readonly runUpdate: string;
  readonly runUpdateWithEvents: string;
  /** The step commits of a group as one statement (see `batchQuery`). */
  readonly batch: string;
  readonly runRevision: string;
  readonly runGet: string;
  /** The select list of a run (table alias `r`) with its patches (for lists). */
  readonly runColumns: string;
  readonly runsDelete: string;
  readonly eventsAfter: string;
  readonly eventsAfterLimit: string;
  readonly workInsert: string;
  readonly workInsertLeased: string;
  readonly workDelete: string;
  readonly workFence: string;
  readonly workLease: string;
  readonly workClaim: string;
  readonly workClaimKinds: string;
  readonly workRenew: string;
  readonly workRelease: string;
  readonly workList: string;
  readonly workListByRun: string;
  readonly workNextClaimable: string;
  readonly workNextClaimableKinds: string;
  readonly deliveryUpsert: string;
  readonly deliveryFence: string;
  readonly deliveryGet: string;
  readonly deliveryClaim: string;
  readonly deliveryNextClaimable: string;
  readonly blobPut: string;
  readonly blobGet: string;
  readonly blobDelete: string;
  readonly blobKeys: string;
  readonly notify: string;
  /** The table of a keyset list, schema-qualified. */
  readonly table: (name: 'documents' | 'runs' | 'deliveries') => string;
}

/**
 * A run's columns, and the patches stored after its snapshot (the event rows after
 * `base_event_seq`, one per revision) read in the same statement, so in the same snapshot of the
 * database.
 */
function runColumns(events: string): string {
  return `r.id, r.kind, r.workflow_id, r.batch_id, r.status, r.active, r.priority, r.snapshot,
    r.base_revision, r.revision, r.created_at, r.updated_at, r.seq,
    CASE WHEN r.revision <> r.base_revision THEN (
      SELECT json_agg(json_build_object('patch', e.patch, 'revision', e.revision, 'at', e.at)
        ORDER BY e.last_seq)
      FROM ${events} e WHERE e.run_id = r.id AND e.last_seq > r.base_event_seq
    ) END AS patches`;
}

/** A column of the rows a batch statement writes, passed as an array of `type` (see `columnsOf`). */
export interface BatchColumn {
  readonly name: string;
  readonly type: string;
}

const column = (name: string, type: string): BatchColumn => ({ name, type });

/**
 * The parameters of the batch statement before its run and queue columns (see `batch`).
 */
export const BATCH_PARAMETERS = 9;

/**
 * The columns of a run write in a batch, in the order of a {@link BatchRun}. The snapshot, events
 * and patch go in as the texts the commit serialised (see {@link batchColumnValues}).
 */
export const BATCH_RUN_COLUMNS: readonly BatchColumn[] = [
  column('id', 'text'),
  column('kind', 'text'),
  column('workflow_id', 'text'),
  column('batch_id', 'text'),
  column('status', 'text'),
  column('active', 'boolean'),
  column('priority', 'float8'),
  column('snapshot', 'json'),
  column('expected', 'integer'),
  column('count', 'integer'),
  column('at', 'text'),
  column('events', 'json'),
  column('patch', 'json'),
];

/** The columns of a queue item a batch inserts, in the order of a {@link BatchWork}. */
export const BATCH_WORK_COLUMNS: readonly BatchColumn[] = [
  column('id', 'text'),
  column('run_id', 'text'),
  column('kind', 'text'),
  column('priority', 'integer'),
  column('available_at', 'bigint'),
  column('payload', 'json'),
  column('attempts', 'integer'),
  column('lease_owner', 'text'),
  column('lease_expires_at', 'bigint'),
];

/** A run write of a batch: the values of {@link BATCH_RUN_COLUMNS}, in order. */
export type BatchRun = readonly [
  id: string,
  kind: string,
  workflowId: string | null,
  batchId: string | null,
  status: string,
  active: boolean,
  priority: number,
  snapshot: string | null,
  expected: number,
  count: number,
  at: string,
  events: string | null,
  patch: string | null,
];

/** A queue item a batch inserts: the values of {@link BATCH_WORK_COLUMNS}, in order. */
export type BatchWork = readonly [
  id: string,
  runId: string,
  kind: string,
  priority: number,
  availableAt: number,
  payload: string,
  attempts: number,
  leaseOwner: string | null,
  leaseExpiresAt: number | null,
];

/**
 * A batch's JSON texts of one column go in as one text, separated by RECORD SEPARATOR (U+001E),
 * with UNIT SEPARATOR (U+001F) for NULL: JSON.stringify writes control characters escaped, never
 * raw, so neither is in a JSON text. The server splits it (`string_to_array`) and reads each
 * text once, to check it (`json[]`). A JSON document of the group's rows (`json_to_recordset`)
 * had it read each text three times (the document, the rows out of it, each value out of its
 * row): 10 µs of the server's CPU per step commit against 5 this way (16 commits with a 2.8 KB
 * snapshot in two of them). A `json[]` array parameter reads them once too, but its text form
 * escapes every quote: 4-8 µs more of the process's CPU per commit.
 */
const JSON_SEPARATOR = '\u001e';
const JSON_NULL = '\u001f';

/** The parameter of a batch column for its values in the batch's rows (see `columnsOf`). */
export function batchColumnValues(column: BatchColumn, values: readonly unknown[]): string {
  if (column.type !== 'json') return arrayLiteral(values);
  return values.map((v) => v ?? JSON_NULL).join(JSON_SEPARATOR);
}

const QUOTED = /["\\]/;

/**
 * The text form of an array of strings, numbers, booleans and nulls (`{"a",1,t,NULL}`): what
 * node-postgres writes for a JavaScript array, which escapes every string with two regular
 * expression replacements; here only the strings that have a quote or a backslash are (the
 * batch's columns cost the process a third less).
 */
export function arrayLiteral(values: readonly unknown[]): string {
  const elements = values.map((v) => {
    if (v === null || v === undefined) return 'NULL';
    if (typeof v === 'boolean') return v ? 't' : 'f';
    if (typeof v !== 'string') return String(v);
    return QUOTED.test(v) ? `"${v.replace(/["\\]/g, '\\$&')}"` : `"${v}"`;
  });
  return `{${elements.join(',')}}`;
}

/**
 * Rows from one parameter per column, from `$first` on, in their order: `unnest(…) WITH
 * ORDINALITY AS alias(columns…, ordinality)`; a column's parameter is an array of its type, or a
 * text of JSON texts (see {@link batchColumnValues}).
 */
function columnsOf(columns: readonly BatchColumn[], first: number, alias: string): string {
  const arrays = columns.map((c, i) =>
    c.type === 'json'
      ? `string_to_array($${first + i}, chr(30), chr(31))::json[]`
      : `$${first + i}::${c.type}[]`,
  );
  const names = columns.map((c) => c.name).join(', ');
  return `unnest(${arrays.join(', ')}) WITH ORDINALITY AS ${alias}(${names}, ordinality)`;
}

const WORK_AVAILABLE =
  'available_at <= $3 AND (lease_expires_at IS NULL OR lease_expires_at <= $3)';

/** The statements for `quoted`, a quoted schema name. */
export function postgresStatements(quoted: string): PostgresStatements {
  const s = quoted;
  const check = (exists: string, code: string, target: string) =>
    `SELECT ${s}.docflow_check(EXISTS (${exists}), '${code}', ${target}) AS ok`;
  const docColumns =
    'collection, id, parent_id, secondary_id, key, name, name_folded, blob_key, data, revision, created_at, updated_at';
  const docValues = '$1, $2, $3, $4, $5, $6, $7, $8, $9, 1, $10, $10';
  const docSet = `parent_id = $3, secondary_id = $4, key = $5, name = $6, name_folded = $7,
    blob_key = $8, data = $9, revision = d.revision + 1, updated_at = $10`;
  // A run's row and its events row in one statement: the events row takes its seqs from the
  // run's event count as the UPDATE left it. `$8` is the snapshot, or null when the write stores
  // its patch (`$13`) instead: the row keeps its stored snapshot and where it was taken.
  const runUpdate = `UPDATE ${s}.runs SET kind = $2, workflow_id = $3, batch_id = $4, status = $5,
    active = $6, priority = $7, snapshot = coalesce($8::json, snapshot),
    base_revision = CASE WHEN $8::json IS NULL THEN base_revision ELSE $9 + 1 END,
    base_event_seq = CASE WHEN $8::json IS NULL THEN base_event_seq ELSE event_seq + $10 END,
    revision = $9 + 1, event_seq = event_seq + $10, updated_at = $11
    WHERE id = $1 AND revision = $9 RETURNING event_seq`;
  const runInsert = `INSERT INTO ${s}.runs (id, kind, workflow_id, batch_id, status, active,
    priority, snapshot, base_revision, base_event_seq, revision, event_seq, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, 1, $9, $10, $10)
    ON CONFLICT (id) DO NOTHING RETURNING 1`;
  // What a document read returns (see `documentFromPg`): node-postgres parses the columns'
  // description with every execution of a prepared statement, and a run's creation reads three.
  const docRead = `collection, id, parent_id, secondary_id, key, name, blob_key, data, revision,
    created_at, updated_at`;
  return {
    docInsert: `WITH d AS (INSERT INTO ${s}.documents (${docColumns}) VALUES (${docValues})
      ON CONFLICT (collection, id) DO NOTHING RETURNING revision)
      SELECT ${s}.docflow_check(EXISTS (SELECT 1 FROM d), 'REVISION_CONFLICT', $1 || '/' || $2) AS ok, (SELECT revision FROM d)`,
    docUpdate: `WITH d AS (UPDATE ${s}.documents d SET ${docSet}
      WHERE collection = $1 AND id = $2 AND revision = $11 RETURNING revision)
      SELECT ${s}.docflow_check(EXISTS (SELECT 1 FROM d), 'REVISION_CONFLICT', $1 || '/' || $2) AS ok, (SELECT revision FROM d)`,
    docUpsert: `INSERT INTO ${s}.documents AS d (${docColumns}) VALUES (${docValues})
      ON CONFLICT (collection, id) DO UPDATE SET ${docSet} RETURNING revision`,
    docDelete: `DELETE FROM ${s}.documents WHERE (collection, id) IN
      (SELECT * FROM unnest($1::text[], $2::text[]))`,
    docGet: `SELECT ${docRead} FROM ${s}.documents WHERE collection = $1 AND id = $2`,
    // A row per pair asked that exists, in the order asked (read with the columns of docGet).
    docGetMany: `SELECT d.*
      FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(collection, id, n)
      CROSS JOIN LATERAL (SELECT ${docRead} FROM ${s}.documents
        WHERE collection = k.collection AND id = k.id) d ORDER BY k.n`,
    docGetByKey: `SELECT ${docRead} FROM ${s}.documents WHERE collection = $1 AND key = $2`,
    docIdByKey: `SELECT id FROM ${s}.documents WHERE collection = $1 AND key = $2`,
    docRevision: `SELECT revision FROM ${s}.documents WHERE collection = $1 AND id = $2`,
    runInsert: `WITH r AS (${runInsert})
      ${check('SELECT 1 FROM r', 'REVISION_CONFLICT', "'runs/' || $1")}`,
    runInsertWithEvents: `WITH r AS (${runInsert}), e AS (
        INSERT INTO ${s}.run_events (run_id, seq, last_seq, events, revision, at)
        SELECT $1, 1, $9, $11::json, 1, $10 FROM r)
      ${check('SELECT 1 FROM r', 'REVISION_CONFLICT', "'runs/' || $1")}`,
    runUpdate: `WITH r AS (${runUpdate})
      ${check('SELECT 1 FROM r', 'REVISION_CONFLICT', "'runs/' || $1")}`,
    runUpdateWithEvents: `WITH r AS (${runUpdate}), e AS (
        INSERT INTO ${s}.run_events (run_id, seq, last_seq, events, patch, revision, at)
        SELECT $1, event_seq - $10 + 1, event_seq, $12::json, $13::json, $9 + 1, $11 FROM r)
      ${check('SELECT 1 FROM r', 'REVISION_CONFLICT', "'runs/' || $1")}`,
    // The commits of a group that write runs and queue items only (the engine's step commits),
    // as one statement: run creations and updates (distinct runs, `BATCH_RUN_COLUMNS`) with
    // their events rows, the fenced queue items removed ($2-$4: id, owner, attempts) or kept
    // locked ($5-$7), the other removals ($8), the insertions (`BATCH_WORK_COLUMNS`; every queue
    // id distinct); $1 and $9 count the run writes and fences. A statement costs the server
    // more than the rows it writes. The count checks abort the transaction if a run write or a
    // fence missed; the queue then sends those commits one by one, which tells whose it was.
    // The parts on the queue table run only when their arrays have ids (`cardinality(…) > 0`,
    // a one-time filter in the plan): the generic plan reads a small queue table sequentially,
    // and a step's commit, which removes one fenced item and locks none, read it three times
    // (with the dead rows they pass, about a fifth of the server's CPU in the step benchmark).
    // Fences compare owners with IS NOT DISTINCT FROM (the same as = for the owner a fence
    // names), which does not imply `lease_owner IS NOT NULL`: the planner then never reads the
    // partial index of leased rows whole for them, a plan it picks when the queue was empty at
    // its last analyze, and which passes the dead row of every step since the last vacuum
    // (1,061 index entries per step in the step benchmark, half of the batch statement's time).
    batch: `WITH w AS (SELECT * FROM ${columnsOf(BATCH_RUN_COLUMNS, BATCH_PARAMETERS + 1, 'w')}),
      c AS (INSERT INTO ${s}.runs (id, kind, workflow_id, batch_id, status, active, priority,
          snapshot, base_revision, base_event_seq, revision, event_seq, created_at, updated_at)
        SELECT id, kind, workflow_id, batch_id, status, active, priority, snapshot, 1, count, 1,
          count, at, at FROM w WHERE expected = 0 ORDER BY ordinality
        ON CONFLICT (id) DO NOTHING RETURNING id),
      u AS (UPDATE ${s}.runs SET kind = w.kind, workflow_id = w.workflow_id, batch_id = w.batch_id,
          status = w.status, active = w.active, priority = w.priority,
          snapshot = coalesce(w.snapshot, runs.snapshot),
          base_revision = CASE WHEN w.snapshot IS NULL THEN runs.base_revision
            ELSE w.expected + 1 END,
          base_event_seq = CASE WHEN w.snapshot IS NULL THEN runs.base_event_seq
            ELSE runs.event_seq + w.count END,
          revision = w.expected + 1, event_seq = runs.event_seq + w.count, updated_at = w.at
        FROM w WHERE w.expected <> 0 AND runs.id = w.id AND runs.revision = w.expected
        RETURNING runs.id, runs.event_seq, w.count, w.events, w.patch, w.expected, w.at),
      e AS (INSERT INTO ${s}.run_events (run_id, seq, last_seq, events, patch, revision, at)
        SELECT w.id, 1, w.count, w.events, NULL, 1, w.at FROM w JOIN c ON c.id = w.id
        WHERE w.events IS NOT NULL
        UNION ALL
        SELECT id, event_seq - count + 1, event_seq, events, patch, expected + 1, at FROM u
        WHERE events IS NOT NULL),
      f AS (DELETE FROM ${s}.work USING unnest($2::text[], $3::text[], $4::integer[])
          AS f(id, owner, attempts)
        WHERE cardinality($2::text[]) > 0 AND work.id = ANY($2::text[]) AND work.id = f.id
          AND work.lease_owner IS NOT DISTINCT FROM f.owner AND work.attempts = f.attempts
        RETURNING work.id),
      h AS (SELECT work.id FROM ${s}.work, unnest($5::text[], $6::text[], $7::integer[])
          AS h(id, owner, attempts)
        WHERE cardinality($5::text[]) > 0 AND work.id = ANY($5::text[]) AND work.id = h.id
          AND work.lease_owner IS NOT DISTINCT FROM h.owner AND work.attempts = h.attempts
        FOR UPDATE OF work),
      d AS (DELETE FROM ${s}.work WHERE cardinality($8::text[]) > 0 AND id = ANY($8::text[])),
      q AS (INSERT INTO ${s}.work (id, run_id, kind, priority, available_at, payload, attempts,
          lease_owner, lease_expires_at)
        SELECT id, run_id, kind, priority, available_at, payload, attempts, lease_owner,
          lease_expires_at
        FROM ${columnsOf(BATCH_WORK_COLUMNS, BATCH_PARAMETERS + BATCH_RUN_COLUMNS.length + 1, 'q')}
        ORDER BY ordinality
        ON CONFLICT (id) DO NOTHING)
      SELECT ${s}.docflow_check((SELECT count(*) FROM c) + (SELECT count(*) FROM u) = $1,
          'REVISION_CONFLICT', 'runs')
        AND ${s}.docflow_check((SELECT count(*) FROM f) + (SELECT count(*) FROM h) = $9,
          'LEASE_LOST', 'work') AS ok`,
    runRevision: `SELECT revision FROM ${s}.runs WHERE id = $1`,
    runGet: `SELECT ${runColumns(`${s}.run_events`)} FROM ${s}.runs r WHERE r.id = $1`,
    runColumns: runColumns(`${s}.run_events`),
    runsDelete: `WITH r AS (DELETE FROM ${s}.runs WHERE id = ANY($1::text[])),
      e AS (DELETE FROM ${s}.run_events WHERE run_id = ANY($1::text[]))
      DELETE FROM ${s}.work WHERE run_id = ANY($1::text[])`,
    eventsAfter: `SELECT * FROM ${s}.run_events WHERE run_id = $1 AND last_seq > $2 ORDER BY last_seq`,
    // A row holds at least one event, so `limit` rows hold at least `limit` events.
    eventsAfterLimit: `SELECT * FROM ${s}.run_events WHERE run_id = $1 AND last_seq > $2
      ORDER BY last_seq LIMIT $3`,
    workInsert: `INSERT INTO ${s}.work (id, run_id, kind, priority, available_at, payload, attempts)
      VALUES ($1, $2, $3, $4, $5, $6, 0) ON CONFLICT (id) DO NOTHING`,
    workInsertLeased: `INSERT INTO ${s}.work (id, run_id, kind, priority, available_at, payload,
      attempts, lease_owner, lease_expires_at) VALUES ($1, $2, $3, $4, $5, $6, 1, $7, $8)
      ON CONFLICT (id) DO NOTHING`,
    workDelete: `DELETE FROM ${s}.work WHERE id = ANY($1::text[])`,
    // The row stays locked until the commit ends: a claim (SKIP LOCKED) passes it by meanwhile.
    workFence: check(
      `SELECT 1 FROM ${s}.work WHERE id = $1 AND lease_owner = $2 AND attempts = $3 FOR UPDATE`,
      'LEASE_LOST',
      "'work/' || $1",
    ),
    workLease: `SELECT lease_owner, attempts FROM ${s}.work WHERE id = $1`,
    // Skips rows another transaction is claiming (or fencing): concurrent claimers never wait
    // for each other and never take the same row.
    workClaim: `UPDATE ${s}.work w SET lease_owner = $1, lease_expires_at = $2,
      attempts = w.attempts + 1
      FROM (SELECT id FROM ${s}.work WHERE ${WORK_AVAILABLE} ORDER BY priority, seq LIMIT $4
        FOR UPDATE SKIP LOCKED) c
      WHERE w.id = c.id RETURNING w.*`,
    workClaimKinds: `UPDATE ${s}.work w SET lease_owner = $1, lease_expires_at = $2,
      attempts = w.attempts + 1
      FROM (SELECT id FROM ${s}.work WHERE ${WORK_AVAILABLE} AND kind = ANY($5::text[])
        ORDER BY priority, seq LIMIT $4 FOR UPDATE SKIP LOCKED) c
      WHERE w.id = c.id RETURNING w.*`,
    // By id: the owner compared as the fences compare it (see `batch`), which keeps the planner
    // off the partial index of leased rows and its dead rows. Run on keys (see `renewWork`).
    workRenew: `UPDATE ${s}.work SET lease_expires_at = $3
      WHERE id = ANY($1::text[]) AND lease_owner IS NOT DISTINCT FROM $2 RETURNING id`,
    workRelease: `UPDATE ${s}.work SET lease_owner = NULL, lease_expires_at = NULL,
      available_at = coalesce($3, available_at)
      WHERE id = ANY($1::text[]) AND lease_owner IS NOT DISTINCT FROM $2
      RETURNING available_at, priority`,
    workList: `SELECT * FROM ${s}.work ORDER BY priority, seq`,
    workListByRun: `SELECT * FROM ${s}.work WHERE run_id = $1 ORDER BY priority, seq`,
    workNextClaimable: `SELECT least(
        (SELECT min(available_at) FROM ${s}.work WHERE lease_owner IS NULL),
        (SELECT min(greatest(available_at, lease_expires_at)) FROM ${s}.work
          WHERE lease_owner IS NOT NULL)) AS at`,
    workNextClaimableKinds: `SELECT least(
        (SELECT min(available_at) FROM ${s}.work WHERE lease_owner IS NULL AND kind = ANY($1::text[])),
        (SELECT min(greatest(available_at, lease_expires_at)) FROM ${s}.work
          WHERE lease_owner IS NOT NULL AND kind = ANY($1::text[]))) AS at`,
    deliveryUpsert: `INSERT INTO ${s}.deliveries (id, endpoint_id, event_id, event_type, event,
        status, attempts, next_attempt_at, created_at, updated_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
      ON CONFLICT (id) DO UPDATE SET endpoint_id = excluded.endpoint_id,
        event_id = excluded.event_id, event_type = excluded.event_type, event = excluded.event,
        status = excluded.status, attempts = excluded.attempts,
        next_attempt_at = excluded.next_attempt_at, lease_owner = NULL, lease_expires_at = NULL,
        updated_at = excluded.updated_at`,
    deliveryFence: check(
      `SELECT 1 FROM ${s}.deliveries WHERE id = $1 AND lease_owner = $2 FOR UPDATE`,
      'LEASE_LOST',
      "'deliveries/' || $1",
    ),
    deliveryGet: `SELECT * FROM ${s}.deliveries WHERE id = $1`,
    deliveryClaim: `UPDATE ${s}.deliveries d SET lease_owner = $1, lease_expires_at = $2
      FROM (SELECT id FROM ${s}.deliveries WHERE status = 'pending' AND next_attempt_at <= $3
        AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
        ORDER BY next_attempt_at, seq LIMIT $4 FOR UPDATE SKIP LOCKED) c
      WHERE d.id = c.id RETURNING d.*`,
    deliveryNextClaimable: `SELECT least(
        (SELECT next_attempt_at FROM ${s}.deliveries WHERE status = 'pending'
          AND lease_owner IS NULL ORDER BY next_attempt_at LIMIT 1),
        (SELECT min(greatest(next_attempt_at, lease_expires_at)) FROM ${s}.deliveries
          WHERE lease_owner IS NOT NULL AND status = 'pending')) AS at`,
    blobPut: `INSERT INTO ${s}.blobs (key, bytes) VALUES ($1, $2)
      ON CONFLICT (key) DO UPDATE SET bytes = excluded.bytes`,
    blobGet: `SELECT bytes FROM ${s}.blobs WHERE key = $1`,
    blobDelete: `DELETE FROM ${s}.blobs WHERE key = $1`,
    blobKeys: `SELECT key FROM ${s}.blobs WHERE starts_with(key, $1)`,
    notify: 'SELECT pg_notify($1, $2)',
    table: (name) => `${s}.${name}`,
  };
}
