import { isStorageError, type RunWrite, snapshotPatch } from '@docflow/storage';
import {
  POSTGRES_MIGRATIONS,
  POSTGRES_SCHEMA_VERSION,
  postgresStorage,
} from '@docflow/storage/postgres';
import { postgresForTests } from '@docflow/storage/testing';
import pg from 'pg';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  BEGIN_COMMIT,
  SESSION_PLANNER_SETTINGS,
} from '../../src/postgres/postgres-commit-queue.ts';
import { migratePostgres } from '../../src/postgres/postgres-migrations.ts';
import { createOwnPool } from '../../src/postgres/postgres-pool.ts';
import { postgresStatements } from '../../src/postgres/postgres-statements.ts';
import { explainBatch } from '../../src/testing/postgres/explain-batch.ts';

const pgTest = postgresForTests();

function run(id: string, expectedRevision: number, extra: Partial<RunWrite> = {}): RunWrite {
  return {
    id,
    kind: 'workflow_run',
    status: 'PENDING',
    active: true,
    priority: 50,
    snapshot: { at: expectedRevision },
    expectedRevision,
    ...extra,
  };
}

/**
 * An open adapter on a pool of one connection, so that the connection's prepared statements
 * (`pg_prepared_statements`) can be read back through the pool.
 */
async function onOneConnection() {
  const pool = new pg.Pool({ connectionString: pgTest.url, max: 1 });
  onTestFinished(() => pool.end());
  const s = postgresStorage({ pool }, { schema: pgTest.schema() });
  await s.open();
  onTestFinished(() => s.close());
  return { pool, s };
}

async function admin(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: pgTest.url });
  await client.connect();
  onTestFinished(() => client.end());
  return client;
}

/**
 * The plan (EXPLAIN ANALYZE) of the batch statement for one step commit of run r1, as the
 * adapter's prepared statement keeps it after five executions (generic), in a transaction begun
 * as the adapter's are on a pool you pass (`BEGIN_COMMIT`), or with `session` on a session set
 * up as the adapter's own connections are: r1's update at revision 1, the fenced removal of w1
 * (owner a, attempt 1), w2 enqueued. Rolled back when the test ends.
 */
async function stepCommitPlan(
  client: pg.Client,
  schema: string,
  session = false,
): Promise<string[]> {
  if (session) await client.query(`${SESSION_PLANNER_SETTINGS}; BEGIN`);
  else await client.query(BEGIN_COMMIT);
  onTestFinished(() => client.query('ROLLBACK').then(() => undefined));
  const at = '2026-01-01T00:00:00.000Z';
  return explainBatch(
    client,
    schema,
    [
      {
        runIds: ['r1'],
        runs: [['r1', 'workflow_run', null, null, 'PENDING', true, 50, null, 1, 0, at, null, null]],
        finished: [{ id: 'w1', owner: 'a', attempts: 1 }],
        held: [],
        dequeue: [],
        enqueue: [['w2', 'r1', 'step', 50, 0, '{}', 1, 'a', 1]],
        workIds: ['w1', 'w2'],
      },
    ],
    'ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF',
  );
}

describe('postgresStorage options', () => {
  it('rejects bad options with INVALID_ARGUMENT before connecting', () => {
    const bad: [() => unknown, string][] = [
      [() => postgresStorage(null as never), 'connection'],
      [() => postgresStorage({ connectionString: '' }), 'connectionString'],
      [() => postgresStorage({ pool: {} as never }), 'connection'],
      [
        () => postgresStorage({ connectionString: 'postgres://x' }, { schema: 'Bad-Name' }),
        'schema',
      ],
      [
        () => postgresStorage({ connectionString: 'postgres://x' }, { maxConnections: 1 }),
        'maxConnections',
      ],
      [
        () =>
          postgresStorage({ connectionString: 'postgres://x' }, { maxCommitsPerTransaction: 0 }),
        'maxCommitsPerTransaction',
      ],
    ];
    for (const [make, path] of bad) {
      let error: unknown;
      try {
        make();
      } catch (e) {
        error = e;
      }
      expect(isStorageError(error, 'INVALID_ARGUMENT'), path).toBe(true);
      expect((error as { details: { path: string } }).details.path).toBe(path);
    }
  });

  it('fails to open an unreachable server with a retryable DATABASE_ERROR', async () => {
    const s = postgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres' });
    const error = await s.open().catch((e: unknown) => e);
    expect(isStorageError(error, 'DATABASE_ERROR')).toBe(true);
    expect((error as { retryable: boolean }).retryable).toBe(true);
    await expect(s.getRun('run_1')).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });
});

describe.skipIf(pgTest.skip)('PostgreSQL adapter', () => {
  it('applies each numbered migration once when processes migrate together, under the lock', async () => {
    const schema = pgTest.schema();
    // A further step that would fail if applied twice (the table exists then).
    const next = POSTGRES_SCHEMA_VERSION + 1;
    const steps = [
      ...POSTGRES_MIGRATIONS,
      { version: next, name: 'test step', sql: 'CREATE TABLE @schema.extra (id integer)' },
    ];
    const clients = await Promise.all([admin(), admin(), admin()]);
    const results = await Promise.all(clients.map((c) => migratePostgres(c, schema, steps)));
    expect(results.map((r) => r.to)).toEqual([next, next, next]);
    expect(results.filter((r) => r.from === 0)).toHaveLength(1);
    const rows = await (clients[0] as pg.Client).query(
      `SELECT version, name FROM "${schema}".schema_migrations ORDER BY version`,
    );
    expect(rows.rows).toEqual([
      ...POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, name: m.name })),
      { version: next, name: 'test step' },
    ]);
    // An adapter of this version refuses the newer schema, and stays closed.
    const s = postgresStorage({ connectionString: pgTest.url }, { schema });
    const error = await s.open().catch((e: unknown) => e);
    expect(isStorageError(error, 'SCHEMA_TOO_NEW')).toBe(true);
    expect((error as { details: object }).details).toMatchObject({
      schema,
      databaseVersion: next,
      supportedVersion: POSTGRES_SCHEMA_VERSION,
    });
    await expect(s.listRuns()).rejects.toMatchObject({ code: 'NOT_OPEN' });
  });

  it('rejects only the failing commit of a transaction that carried several', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    await s.commit({ runs: [run('r1', 0), run('r2', 0)] });
    // Called in one turn: they go in one transaction. The fourth conflicts (r1 is at 1 then 2).
    const outcomes = await Promise.allSettled([
      s.commit({ runs: [run('r1', 1, { events: [{ type: 'a', data: {} }] })] }),
      s.commit({
        runs: [run('r2', 1)],
        enqueue: [{ id: 'w1', runId: 'r2', kind: 'k', priority: 5, payload: {} }],
      }),
      s.commit({ documents: [{ collection: 'workflows', id: 'd1', key: 'k', data: {} }] }),
      s.commit({
        runs: [run('r1', 1, { events: [{ type: 'stale', data: {} }] })],
        dequeue: ['w1'],
      }),
      s.commit({ documents: [{ collection: 'workflows', id: 'd2', key: 'k', data: {} }] }),
      s.commit({ runs: [run('r1', 2, { events: [{ type: 'b', data: {} }] })] }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'fulfilled',
    ]);
    const stale = (outcomes[3] as PromiseRejectedResult).reason;
    expect(stale).toMatchObject({
      code: 'REVISION_CONFLICT',
      details: { target: 'runs/r1', expectedRevision: 1, actualRevision: 2 },
    });
    // The key's owner is named, though it was written by a commit of the same transaction.
    expect((outcomes[4] as PromiseRejectedResult).reason).toMatchObject({
      code: 'DUPLICATE_KEY',
      details: { key: 'k', id: 'd2', ownerId: 'd1' },
    });
    expect((await s.listRunEvents('r1')).map((e) => [e.seq, e.type, e.revision])).toEqual([
      [1, 'a', 2],
      [2, 'b', 3],
    ]);
    expect((await s.listWork()).map((w) => w.id)).toEqual(['w1']);
    expect(await s.getDocument('workflows', 'd2')).toBeUndefined();
  });

  it('opens a second transaction while one is under way only when the waiting commits fill one', async () => {
    const s = await pgTest.storage({ maxCommitsPerTransaction: 3, maxCommitTransactions: 4 });
    await s.open();
    onTestFinished(() => s.close());
    const ids = ['r0', 'r1', 'r2', 'r3', 'r4', 'r5'];
    await s.commit({ runs: ids.map((id) => run(id, 0)) });
    const { schema } = await s.info();
    // Another session holds r0's row: the transaction of r0's next commit waits on the server.
    const locker = await admin();
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM "${schema}".runs WHERE id = 'r0' FOR UPDATE`);
    const before = (await s.info()).commits.transactions;
    const blocked = s.commit({ runs: [run('r0', 1)] });
    const watcher = await admin();
    while (
      (
        await watcher.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'
            AND position($1 IN query) > 0`,
          [schema],
        )
      ).rows[0].n === 0
    ) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Commits of later turns, one per turn: two wait (fewer than a transaction carries), the
    // third fills a transaction and the three go together, past the blocked one.
    const next = [];
    for (const id of ['r1', 'r2', 'r3']) {
      next.push(s.commit({ runs: [run(id, 1)] }));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(next);
    expect((await s.info()).commits.transactions - before).toBe(2);
    // Two more wait for the blocked transaction, and go together once it ends.
    const last = [s.commit({ runs: [run('r4', 1)] })];
    await new Promise((resolve) => setImmediate(resolve));
    last.push(s.commit({ runs: [run('r5', 1)] }));
    await locker.query('COMMIT');
    await Promise.all([blocked, ...last]);
    expect((await s.info()).commits.transactions - before).toBe(3);
    for (const id of ids) expect((await s.getRun(id))?.revision, id).toBe(2);
  });

  it('sends the commits that waited for a transaction with those its callers make on its answer', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    await s.commit({ runs: ['r0', 'r1', 'r2'].map((id) => run(id, 0)) });
    const before = (await s.info()).commits.transactions;
    const first = s.commit({ runs: [run('r0', 1)] });
    // A later turn: the first transaction is under way (it waits for its WAL flush), so this
    // commit waits for it.
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = s.commit({ runs: [run('r1', 1)] });
    // The first commit's caller commits again a few steps after its answer (as the engine
    // starts a run's next step): that commit goes with the waiting one.
    const follower = first.then(async () => {
      for (let hop = 0; hop < 3; hop++) await null;
      return s.commit({ runs: [run('r2', 1)] });
    });
    await Promise.all([waiting, follower]);
    expect((await s.info()).commits.transactions - before).toBe(2);
  });

  it('writes the runs of many commits in one statement, and still rejects only a stale one', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    const ids = Array.from({ length: 12 }, (_, i) => `r${i}`);
    // Each write carries its patch from the snapshot before it, which the adapter stores instead.
    const snapshotAt = (id: string, revision: number) => ({
      id,
      steps: Array.from({ length: revision }, (_, n) => ({ n, done: n < revision - 1 })),
    });
    // Creations of one turn: one batch.
    await Promise.all(
      ids.map((id) =>
        s.commit({
          runs: [
            run(id, 0, { snapshot: snapshotAt(id, 1), events: [{ type: 'created', data: {} }] }),
          ],
        }),
      ),
    );
    const step = (id: string, expected: number, type: string) =>
      s.commit({
        runs: [
          run(id, expected, {
            status: 'PROCESSING',
            snapshot: snapshotAt(id, expected + 1),
            patch: snapshotPatch(snapshotAt(id, expected), snapshotAt(id, expected + 1)),
            events: [{ type, data: { id } }],
          }),
        ],
      });
    // Updates of one turn, r5's stale, r3 twice (its second write starts another batch).
    const outcomes = await Promise.allSettled([
      ...ids.map((id) => step(id, id === 'r5' ? 7 : 1, 'a')),
      step('r3', 2, 'b'),
      step('r0', 2, 'b'),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      ...ids.map((id) => (id === 'r5' ? 'rejected' : 'fulfilled')),
      'fulfilled',
      'fulfilled',
    ]);
    expect((outcomes[5] as PromiseRejectedResult).reason).toMatchObject({
      code: 'REVISION_CONFLICT',
      details: { target: 'runs/r5', expectedRevision: 7, actualRevision: 1 },
    });
    for (const id of ids) {
      const expected =
        id === 'r5'
          ? [[1, 'created', 1]]
          : [[1, 'created', 1], [2, 'a', 2], ...(id === 'r3' || id === 'r0' ? [[3, 'b', 3]] : [])];
      expect(
        (await s.listRunEvents(id)).map((e) => [e.seq, e.type, e.revision]),
        id,
      ).toEqual(expected);
    }
    // The 12 creations went as one batch. The batch of updates failed; sent again commit by
    // commit it failed at r5; the five before it went as a batch, r5 was rejected, and the eight
    // after it (r3's and r0's second writes among them) as another.
    const { commits } = await s.info();
    expect(commits).toEqual({ commits: 25, transactions: 5, replays: 2, batchedCommits: 25 });
    const page = await s.listRuns({ order: 'asc', pageSize: 20 });
    expect(page.items.map((r) => r.id)).toEqual(ids);
    for (const r of page.items) {
      const revision = r.id === 'r5' ? 1 : r.id === 'r3' || r.id === 'r0' ? 3 : 2;
      const expected = snapshotAt(r.id, revision);
      expect(r.snapshot, r.id).toEqual(expected);
      expect((await s.getRun(r.id))?.snapshot, r.id).toEqual(expected);
    }
    // The patches were stored, not the snapshots: every update's event row has one.
    const client = await admin();
    const stored = await client.query(
      `SELECT count(*)::int AS n FROM "${(await s.info()).schema}".run_events WHERE patch IS NOT NULL`,
    );
    expect(stored.rows).toEqual([{ n: 13 }]);
    expect(page.items.find((r) => r.id === 'r3')).toMatchObject({
      revision: 3,
      status: 'PROCESSING',
    });
  });

  it('sends step commits (fenced runs and queue items) of a group as one statement, rejecting only a lost lease', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    const ids = [0, 1, 2, 3, 4, 5];
    const lease = { owner: 'a', leaseMs: 60_000 };
    const item = (id: string, runId: string, priority = 50) => ({
      id,
      runId,
      kind: 'step',
      priority,
      payload: { id },
      lease,
    });
    // Each run created with its first item leased to a (a step started on the fast path), and
    // one more item a holds: one batch.
    await Promise.all([
      ...ids.map((i) =>
        s.commit({
          runs: [run(`r${i}`, 0, { events: [{ type: 'created', data: {} }] })],
          enqueue: [item(`w${i}`, `r${i}`, i === 3 ? 1 : 50)],
        }),
      ),
      s.commit({ runs: [run('r6', 0)], enqueue: [item('x', 'r6')] }),
    ]);
    expect(await s.info()).toMatchObject({ commits: { transactions: 1, batchedCommits: 7 } });
    // Process b takes w3 over (its lease expired, as far as b's clock says).
    const [taken] = await s.claimWork({
      owner: 'b',
      limit: 1,
      leaseMs: 60_000,
      now: new Date(Date.now() + 3_600_000).toISOString(),
    });
    expect(taken).toMatchObject({ id: 'w3', attempts: 2, leaseOwner: 'b' });
    // The outcomes, in one turn: each fenced, its item removed, the next step's item leased;
    // r6's write holds x's lease without removing it.
    const outcomes = await Promise.allSettled([
      ...ids.map((i) =>
        s.commit({
          runs: [run(`r${i}`, 1, { events: [{ type: 'step', data: {} }] })],
          fences: [{ workId: `w${i}`, owner: 'a', attempts: 1 }],
          dequeue: [`w${i}`],
          enqueue: [item(`n${i}`, `r${i}`)],
        }),
      ),
      s.commit({ runs: [run('r6', 1)], fences: [{ workId: 'x', owner: 'a', attempts: 1 }] }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      ...ids.map((i) => (i === 3 ? 'rejected' : 'fulfilled')),
      'fulfilled',
    ]);
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({
      code: 'LEASE_LOST',
      details: { target: 'work/w3', owner: 'a' },
    });
    // One statement for the seven; it failed (w3), so the seven went again one by one, which
    // found w3's: the three before it committed as a batch, the three after it as another.
    expect((await s.info()).commits).toEqual({
      commits: 13,
      transactions: 5,
      replays: 2,
      batchedCommits: 13,
    });
    expect((await s.listWork()).map((w) => [w.id, w.leaseOwner, w.attempts])).toEqual([
      ['w3', 'b', 2],
      ['x', 'a', 1],
      ...[0, 1, 2, 4, 5].map((i) => [`n${i}`, 'a', 1]),
    ]);
    for (const i of ids) {
      expect((await s.getRun(`r${i}`))?.revision, `r${i}`).toBe(i === 3 ? 1 : 2);
      expect((await s.listRunEvents(`r${i}`)).map((e) => e.type)).toEqual(
        i === 3 ? ['created'] : ['created', 'step'],
      );
    }
    expect((await s.getRun('r6'))?.revision).toBe(2);
  });

  it('stores batched commits as written: separators, control characters, quotes and braces in their strings', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    // The batch statement passes a column's JSON texts joined by U+001E, NULL as U+001F: in a
    // JSON text those characters are always escaped. Keys out of order stay in their order.
    const odd = 'a\u001eb\u001fc "q" \\ \n\t\u0000 \u{1F600} é';
    // Its other columns go as arrays in text form: quotes, backslashes, commas and braces in
    // the strings, and a string that reads NULL.
    const r2 = 'r2 "q" \\ ,{x}';
    const owner = 'NULL';
    const snapshot = (n: number) => ({ z: odd, a: [odd, n], [odd]: { nested: null } });
    const lease = { owner, leaseMs: 60_000 };
    await Promise.all(
      ['r1', r2].map((id) =>
        s.commit({
          runs: [
            run(id, 0, {
              workflowId: owner,
              snapshot: snapshot(1),
              events: [{ type: odd, data: { odd } }],
            }),
          ],
          enqueue: [{ id: `w${id}`, runId: id, kind: r2, priority: 50, payload: { odd }, lease }],
        }),
      ),
    );
    // r1 stores its patch, r2 its snapshot (no patch), with no events.
    await Promise.all([
      s.commit({
        runs: [
          run('r1', 1, {
            workflowId: owner,
            snapshot: snapshot(2),
            patch: snapshotPatch(snapshot(1), snapshot(2)),
            events: [{ type: 'step', data: { list: [odd, null] } }],
          }),
        ],
        fences: [{ workId: 'wr1', owner, attempts: 1 }],
        dequeue: ['wr1'],
      }),
      s.commit({ runs: [run(r2, 1, { workflowId: owner, snapshot: snapshot(2) })] }),
    ]);
    expect((await s.info()).commits).toMatchObject({ transactions: 2, batchedCommits: 4 });
    for (const id of ['r1', r2]) {
      const stored = await s.getRun(id);
      expect(stored, id).toMatchObject({ id, workflowId: owner, revision: 2 });
      expect(JSON.stringify(stored?.snapshot), id).toBe(JSON.stringify(snapshot(2)));
    }
    expect((await s.listRunEvents('r1')).map((e) => [e.type, e.data])).toEqual([
      [odd, { odd }],
      ['step', { list: [odd, null] }],
    ]);
    expect((await s.listWork()).map((w) => [w.id, w.kind, w.leaseOwner, w.payload])).toEqual([
      [`w${r2}`, r2, owner, { odd }],
    ]);
  });

  it('runs only the parts of the batch statement that have rows to touch', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    const lease = { owner: 'a', leaseMs: 60_000 };
    await s.commit({
      runs: [run('r1', 0)],
      enqueue: [{ id: 'w1', runId: 'r1', kind: 'step', priority: 50, payload: {}, lease }],
    });
    const { schema } = await s.info();
    const client = await admin();
    const plan = await stepCommitPlan(client, schema);
    // A step's commit: the fenced removal of its item reads the queue table once; the parts
    // that lock kept items and remove unfenced ones (empty here) do not read it at all.
    const workScans = plan.filter((line) => / Scan (using \S+ )?on work\b/.test(line));
    expect(workScans.length, plan.join('\n')).toBeGreaterThanOrEqual(3);
    const executed = workScans.filter((line) => !line.includes('never executed'));
    expect(executed, plan.join('\n')).toHaveLength(1);
    const removed = await client.query(
      `SELECT count(*)::int AS n FROM "${schema}".work WHERE id IN ('w1', 'w2')`,
    );
    expect(removed.rows[0].n).toBe(1);
  });

  it('plans the batch statement to find rows by key, however small the tables are when it is planned', async () => {
    // A new schema: tables of a few rows (16 runs, each with its step leased), where reading
    // `runs` or `work` whole is the cheapest plan, and a prepared statement keeps its plan
    // while they grow. A schema of its own: the statistics it leaves stay with a schema.
    const s = postgresStorage({ connectionString: pgTest.url }, { schema: pgTest.schema() });
    await s.open();
    onTestFinished(() => s.close());
    const lease = { owner: 'a', leaseMs: 60_000 };
    const ids = Array.from({ length: 16 }, (_, i) => i + 1);
    await s.commit({
      runs: ids.map((i) => run(`r${i}`, 0)),
      enqueue: ids.map((i) => ({
        id: `w${i}`,
        runId: `r${i}`,
        kind: 'step',
        priority: 50,
        payload: {},
        lease,
      })),
    });
    const { schema } = await s.info();
    // As autovacuum leaves them: statistics of the small tables.
    await (await admin()).query(`VACUUM ANALYZE "${schema}".runs, "${schema}".work`);
    // In a transaction begun as on a pool you pass, and on a session as the adapter's own.
    const client = await admin();
    for (const session of [false, true]) {
      const plan = await stepCommitPlan(client, schema, session);
      await client.query('ROLLBACK');
      const text = plan.join('\n');
      expect(text).not.toMatch(/Seq Scan on (runs|work)\b/);
      expect(text).not.toMatch(
        /Index (Only )?Scan using \S+ on (runs|work)\b(?!.*\n\s*Index Cond)/,
      );
      // By primary key only: a partial index of the queue whose condition the fence implies
      // (leased rows) is small when the plan is made, and holds every step's dead row later.
      const indexes = [
        ...text.matchAll(/(?:Index (?:Only )?Scan using|Bitmap Index Scan on) (\w+)/g),
      ]
        .map((m) => m[1] as string)
        .filter((name) => /^(runs|work)_/.test(name));
      expect(new Set(indexes)).toEqual(new Set(['runs_pkey', 'work_pkey']));
    }
  });

  it('opens its own connections with the planner settings of its commits, before any query', async () => {
    // A step commit on the adapter's own pool is its batch statement alone, without the
    // BEGIN and SET LOCAL that give it these settings on a pool you pass.
    const pool = createOwnPool({
      connectionString: pgTest.url,
      max: 1,
      applicationName: 'docflow-test',
      session: SESSION_PLANNER_SETTINGS,
    });
    onTestFinished(() => pool.end());
    const client = await pool.connect();
    try {
      const shown = [];
      for (const name of [
        'plan_cache_mode',
        'enable_seqscan',
        'enable_hashjoin',
        'enable_mergejoin',
        'jit',
      ]) {
        shown.push((await client.query({ text: `SHOW ${name}` })).rows[0]?.[name]);
      }
      expect(shown).toEqual(['force_generic_plan', 'off', 'off', 'off', 'off']);
    } finally {
      client.release();
    }
  });

  it('keeps the writes of a step out of indexes no query reads', async () => {
    // A leased queue row (one per step) and a run's creation or status change write an entry
    // in every index of their table: each index here serves a read.
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    const { schema } = await s.info();
    const client = await admin();
    const indexes = async (table: string) =>
      (
        await client.query(
          'SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 ORDER BY 1',
          [schema, table],
        )
      ).rows.map((r) => r.indexname as string);
    expect(await indexes('work')).toEqual([
      'work_by_claim_order',
      'work_leased_by_expiry',
      'work_pkey',
      'work_queued_by_availability',
    ]);
    expect(await indexes('runs')).not.toContain('runs_by_active');
    expect(await indexes('runs')).toHaveLength(9);
  });

  it('applies commits in the order they were called, waiting for none', async () => {
    const s = await pgTest.storage({ maxCommitsPerTransaction: 2 });
    await s.open();
    onTestFinished(() => s.close());
    const pending = Array.from({ length: 9 }, (_, r) =>
      s.commit({ runs: [run('r', r, { events: [{ type: `e${r}`, data: {} }] })] }),
    );
    expect((await Promise.all(pending)).map((p) => p.runRevisions.r)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect((await s.listRunEvents('r')).map((e) => e.type)).toEqual(
      Array.from({ length: 9 }, (_, r) => `e${r}`),
    );
  });

  it('works on a pool of yours (no pipelining) and leaves it open on close', async () => {
    const pool = new pg.Pool({ connectionString: pgTest.url, max: 3 });
    onTestFinished(() => pool.end());
    const schema = pgTest.schema();
    const s = postgresStorage({ pool }, { schema });
    await s.open();
    const heard: string[] = [];
    const unsubscribe = await s.subscribe((w) => heard.push(w.topic));
    await s.commit({
      runs: [run('r1', 0)],
      enqueue: [{ id: 'w1', runId: 'r1', kind: 'k', priority: 5, payload: { x: 1 } }],
    });
    const [claimed] = await s.claimWork({ owner: 'me', limit: 1, leaseMs: 1000 });
    await s.commit({
      fences: [{ workId: 'w1', owner: 'me', attempts: claimed?.attempts ?? 0 }],
      runs: [run('r1', 1, { status: 'PROCESSED', active: false })],
      dequeue: ['w1'],
    });
    expect(await s.getRun('r1')).toMatchObject({ revision: 2, status: 'PROCESSED' });
    // A notification arrives on the listening connection when it arrives (a loaded machine).
    await vi.waitFor(() => expect(heard).toContain('work'), { timeout: 10_000 });
    await unsubscribe();
    await s.close();
    expect((await pool.query(`SELECT count(*)::int AS n FROM "${schema}".runs`)).rows).toEqual([
      { n: 1 },
    ]);
  });

  it('runs commits on generic plans, never planned for their parameters', async () => {
    const { pool, s } = await onOneConnection();
    // Step commits one at a time: each a batch statement of one commit, whose empty arrays a
    // custom plan would leave out (the server then kept planning it for each execution).
    const lease = { owner: 'a', leaseMs: 60_000 };
    const item = (n: number) => ({
      id: `w${n}`,
      runId: 'r1',
      kind: 'step',
      priority: 50,
      payload: {},
      lease,
    });
    await s.commit({ runs: [run('r1', 0)], enqueue: [item(0)] });
    for (let n = 1; n <= 8; n++) {
      await s.commit({
        runs: [run('r1', n)],
        fences: [{ workId: `w${n - 1}`, owner: 'a', attempts: 1 }],
        dequeue: [`w${n - 1}`],
        enqueue: [item(n)],
      });
    }
    expect((await s.info()).commits).toMatchObject({ commits: 9, batchedCommits: 9 });
    const client = await pool.connect();
    try {
      const { rows } = await client.query(
        "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE 'WITH w AS (SELECT * FROM unnest(%'",
      );
      expect(rows.map((r) => [Number(r.generic_plans), Number(r.custom_plans)])).toEqual([[9, 0]]);
    } finally {
      client.release();
    }
  });

  it('renews and releases leases on a generic plan on keys, however small the queue table was when analyzed', async () => {
    const { pool, s } = await onOneConnection();
    const lease = { owner: 'a', leaseMs: 60_000 };
    const ids = ['w1', 'w2', 'w3'];
    await s.commit({
      runs: [run('r1', 0)],
      enqueue: ids.map((id) => ({
        id,
        runId: 'r1',
        kind: 'step',
        priority: 50,
        payload: {},
        lease,
      })),
    });
    const { schema } = await s.info();
    // Statistics of a table of three rows, where reading it whole is the cheapest plan.
    await pool.query(`VACUUM ANALYZE "${schema}".work`);
    expect(await s.renewWork(['w1', 'w2'], { owner: 'a', leaseMs: 60_000 })).toEqual(['w1', 'w2']);
    await s.releaseWork(['w3'], { owner: 'a' });
    expect((await s.listWork()).map((w) => [w.id, w.leaseOwner ?? null])).toEqual([
      ['w1', 'a'],
      ['w2', 'a'],
      ['w3', null],
    ]);
    const client = await pool.connect();
    try {
      const { rows } = await client.query(
        `SELECT name, generic_plans, custom_plans FROM pg_prepared_statements
         WHERE statement LIKE 'UPDATE "${schema}".work SET lease_%' ORDER BY statement`,
      );
      expect(rows.map((r) => [Number(r.generic_plans), Number(r.custom_plans)])).toEqual([
        [1, 0],
        [1, 0],
      ]);
      await client.query(BEGIN_COMMIT);
      for (const { name } of rows) {
        const plan = await client.query(`EXPLAIN EXECUTE ${name}('{w1}', 'a', 0)`);
        const text = (plan.rows as { 'QUERY PLAN': string }[])
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(text, text).toMatch(/Index Scan using work_pkey/);
        expect(text).not.toMatch(/Seq Scan/);
      }
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });

  it('reads a list page with one generic plan on keys, made on an empty table and kept as it grows', async () => {
    const { pool, s } = await onOneConnection();
    const first = await s.listRuns({ kind: 'workflow_run', pageSize: 10 });
    expect(first.items).toEqual([]);
    for (let k = 0; k < 3; k++) {
      await s.commit({
        runs: Array.from({ length: 1000 }, (_, i) => ({
          id: `run_${k}_${i}`,
          kind: 'workflow_run',
          status: 'PROCESSED',
          active: false,
          priority: 50,
          snapshot: { n: i },
          expectedRevision: 0,
        })),
      });
    }
    for (let i = 0; i < 6; i++) {
      const page = await s.listRuns({ kind: 'workflow_run', pageSize: 10 });
      expect(page.items.map((r) => r.id)[0]).toBe('run_2_999');
    }
    const client = await pool.connect();
    try {
      const { rows } = await client.query(
        "SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%JOIN (SELECT seq FROM%'",
      );
      expect(rows).toHaveLength(1);
      // Planned once, not for each call.
      expect(Number(rows[0].custom_plans)).toBe(0);
      expect(Number(rows[0].generic_plans)).toBe(7);
      // The plan kept from the empty table reads 3,000 runs by their indexes.
      await client.query('BEGIN; SET LOCAL plan_cache_mode = force_generic_plan');
      const plan = await client.query(`EXPLAIN EXECUTE ${rows[0].name}('workflow_run', 11)`);
      await client.query('ROLLBACK');
      const text = (plan.rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toContain('Index');
      expect(text).not.toMatch(/Seq Scan|Sort/);
    } finally {
      client.release();
    }
  });

  it('keeps JSON as written (key order included) and serves lists from indexes', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    const data = { zeta: 1, alpha: { b: 2, a: 1 }, mid: [3, 2, 1] };
    await s.commit({ documents: [{ collection: 'files', id: 'f1', data }] });
    expect(JSON.stringify((await s.getDocument('files', 'f1'))?.data)).toBe(JSON.stringify(data));
    const info = await s.info();
    const client = await admin();
    await client.query(`SET search_path = "${info.schema}"`);
    await client.query('SET enable_seqscan = off');
    const plan = async (sql: string) =>
      ((await client.query(`EXPLAIN ${sql}`)).rows as { 'QUERY PLAN': string }[])
        .map((r) => r['QUERY PLAN'])
        .join('\n');
    // The first page of a list and the claim walk an index in order: no sort, at any size.
    for (const sql of [
      'SELECT * FROM runs ORDER BY seq DESC LIMIT 11',
      "SELECT * FROM runs WHERE status = 'x' ORDER BY seq DESC LIMIT 11",
      "SELECT * FROM runs WHERE workflow_id = 'x' AND seq < 5 ORDER BY seq DESC LIMIT 11",
      "SELECT seq FROM runs WHERE kind = 'k' AND workflow_id = 'x' ORDER BY seq DESC LIMIT 11",
      "SELECT seq FROM runs WHERE kind = 'k' AND status = 'x' ORDER BY seq DESC LIMIT 11",
      "SELECT seq FROM runs WHERE kind = 'k' AND batch_id = 'x' ORDER BY seq DESC LIMIT 11",
      "SELECT * FROM documents WHERE collection = 'files' ORDER BY seq DESC LIMIT 11",
      'SELECT id FROM work WHERE available_at <= 1 ORDER BY priority, seq LIMIT 5',
      "SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= 1 ORDER BY next_attempt_at, seq LIMIT 5",
    ]) {
      const text = await plan(sql);
      expect(text, sql).toContain('Index');
      expect(text, sql).not.toMatch(/Sort|Seq Scan/);
    }
  });
});

describe('postgresStorage document reads', () => {
  it('read only the columns a stored document is made of', async () => {
    const s = await pgTest.storage();
    await s.open();
    onTestFinished(() => s.close());
    await s.commit({
      documents: [{ collection: 'files', id: 'f1', key: 'k1', name: 'A.pdf', data: { n: 1 } }],
    });
    const { schema } = await s.info();
    const client = await admin();
    const statements = postgresStatements(`"${schema}"`);
    const columns = [
      'collection',
      'id',
      'parent_id',
      'secondary_id',
      'key',
      'name',
      'blob_key',
      'data',
      'revision',
      'created_at',
      'updated_at',
    ];
    for (const [text, values] of [
      [statements.docGet, ['files', 'f1']],
      [statements.docGetByKey, ['files', 'k1']],
      [statements.docGetMany, [['files'], ['f1']]],
    ] as const) {
      const result = await client.query(text, [...values]);
      expect(result.fields.map((f) => f.name)).toEqual(columns);
    }
    const doc = await s.getDocument('files', 'f1');
    expect(doc).toMatchObject({ id: 'f1', key: 'k1', name: 'A.pdf', data: { n: 1 }, revision: 1 });
    expect(await s.getDocumentByKey('files', 'k1')).toEqual(doc);
  });

  it('are sent as one statement for the reads of one turn, each answered with its own row', async () => {
    const pool = new pg.Pool({ connectionString: pgTest.url, max: 4 });
    onTestFinished(() => pool.end());
    const sent: string[] = [];
    const counting = {
      connect: async () => {
        const client = await pool.connect();
        return Object.assign(Object.create(client) as pg.PoolClient, {
          query: (config: { text: string; values?: unknown[] }) => {
            sent.push(config.text);
            return client.query(config);
          },
        });
      },
      end: () => pool.end(),
    };
    const s = postgresStorage({ pool: counting }, { schema: pgTest.schema() });
    await s.open();
    onTestFinished(() => s.close());
    await s.commit({
      documents: [
        { collection: 'files', id: 'f1', data: { n: 1 } },
        { collection: 'files', id: 'f2', data: { n: 2 } },
        { collection: 'workflows', id: 'f1', data: { n: 3 } },
      ],
    });
    const statements = postgresStatements(`"${s.schema}"`);
    const reads = (text: string) => sent.filter((t) => t === text).length;
    sent.length = 0;
    const docs = await Promise.all([
      s.getDocument('files', 'f2'),
      s.getDocument('workflows', 'f1'),
      s.getDocument('files', 'missing'),
      s.getDocument('files', 'f2'),
      s.getDocument('files', 'f1'),
    ]);
    expect(docs.map((d) => d?.data)).toEqual([{ n: 2 }, { n: 3 }, undefined, { n: 2 }, { n: 1 }]);
    expect(docs[0]).not.toBe(docs[3]);
    expect([reads(statements.docGetMany), reads(statements.docGet)]).toEqual([1, 0]);
    // A read alone takes the one-document statement; reads of later turns are statements of
    // their own.
    sent.length = 0;
    expect((await s.getDocument('files', 'f1'))?.data).toEqual({ n: 1 });
    expect(await s.getDocument('files', 'none')).toBeUndefined();
    expect([reads(statements.docGetMany), reads(statements.docGet)]).toEqual([0, 2]);
  });
});
