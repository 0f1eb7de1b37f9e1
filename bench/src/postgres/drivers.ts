/**
 * Issue 20's driver choice (docs/decisions/0010-postgres-driver.md): node-postgres (`pg`)
 * beside porsager's `postgres` on the PostgreSQL adapter's two hot paths, in interleaved rounds
 * on one throwaway server (installed defaults: fsync and synchronous_commit on).
 *
 * - step commit: 16 clients, each its own connection, each a transaction that updates a run
 *   (a 2.5 KB JSON snapshot, revision check in WHERE) and appends its events row; sent statement
 *   by statement (each awaited) and pipelined (BEGIN … COMMIT in one round trip).
 * - claim: 16 clients claim one item at a time (`FOR UPDATE SKIP LOCKED`, priority then FIFO)
 *   from a queue of 40,000 and delete it, as a worker completing work does.
 *
 * Reports operations per second and this process's CPU per operation (the engine shares the
 * machine's cores with the driver), each round, and the ratio postgres/pg.
 *
 *   cd bench && npx tsx src/postgres/drivers.ts
 */
import { startTemporaryPostgres } from '@docflow/storage/testing/postgres';
import pg from 'pg';
import postgres from 'postgres';
import { machineLine } from '../harness.ts';

const CLIENTS = 16;
const DURATION_MS = Number(process.env.DURATION_MS ?? 3000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const QUEUE = 40_000;

const server = await startTemporaryPostgres();
const url = server.url;

const snapshot = JSON.stringify({
  paths: Array.from({ length: 5 }, (_, i) => ({
    id: `path_${i}`,
    step: `s${i}`,
    files: ['file_1'],
  })),
  stepRuns: Array.from({ length: 10 }, (_, i) => ({
    id: `workflow_step_run_0000000000000${i}`,
    step: `s${i % 5}`,
    status: 'PROCESSED',
    startTime: '2030-01-01T00:00:00.000Z',
    endTime: '2030-01-01T00:00:00.001Z',
    output: { ok: true, n: i, text: 'x'.repeat(120) },
  })),
});
const events = JSON.stringify([
  ['workflow_step_run.processed', { id: 'workflow_step_run_1', status: 'PROCESSED' }],
  ['workflow_step_run.created', { id: 'workflow_step_run_2', status: 'PENDING' }],
  ['workflow_step_run.processing', { id: 'workflow_step_run_2', status: 'PROCESSING' }],
]);

const admin = postgres(url, { onnotice: () => {} });
await admin.unsafe(`
CREATE TABLE runs (id text PRIMARY KEY, snapshot json NOT NULL, revision int NOT NULL,
  event_seq int NOT NULL, updated_at text NOT NULL) WITH (fillfactor = 80);
CREATE TABLE run_events (run_id text NOT NULL, seq int NOT NULL, last_seq int NOT NULL,
  events json NOT NULL, revision int NOT NULL, at text NOT NULL, PRIMARY KEY (run_id, last_seq));
CREATE TABLE work (id text PRIMARY KEY, priority int NOT NULL, seq bigint NOT NULL,
  available_at bigint NOT NULL, attempts int NOT NULL DEFAULT 0, lease_owner text,
  lease_expires_at bigint, payload json NOT NULL);
CREATE INDEX work_by_claim_order ON work (priority, seq);
`);

const UPDATE =
  'UPDATE runs SET snapshot = $1, revision = $2, event_seq = $3, updated_at = $4 WHERE id = $5 AND revision = $6';
const INSERT =
  'INSERT INTO run_events (run_id, seq, last_seq, events, revision, at) VALUES ($1, $2, $3, $4, $5, $6)';
const CLAIM = `UPDATE work SET lease_owner = $1, lease_expires_at = $2, attempts = attempts + 1
WHERE id IN (SELECT id FROM work WHERE available_at <= $3 AND (lease_expires_at IS NULL OR lease_expires_at <= $3)
  ORDER BY priority, seq LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING id, priority, seq, available_at, attempts, lease_owner, lease_expires_at, payload`;
const DELETE = 'DELETE FROM work WHERE id = $1';

let runCounter = 0;
async function resetRuns(): Promise<string[]> {
  const ids = Array.from({ length: CLIENTS }, () => `run_${runCounter++}`);
  await admin.unsafe('TRUNCATE runs, run_events');
  await admin`INSERT INTO runs ${admin(ids.map((id) => ({ id, snapshot, revision: 1, event_seq: 0, updated_at: 'x' })))}`;
  return ids;
}

async function refillQueue(): Promise<void> {
  await admin.unsafe('TRUNCATE work');
  await admin.unsafe(
    `INSERT INTO work (id, priority, seq, available_at, payload)
     SELECT 'work_' || g, 1 + (g % 5) * 20, g, 0, '{"step":"s1"}' FROM generate_series(1, ${QUEUE}) g`,
  );
  await admin.unsafe('VACUUM ANALYZE work');
}

/** Runs `op` in CLIENTS loops for DURATION_MS; ops/s and this process's CPU µs per op. */
async function loop(op: (client: number, n: number) => Promise<void>) {
  let ops = 0;
  const end = performance.now() + DURATION_MS;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let n = 0; performance.now() < end; n++) {
        await op(c, n);
        ops++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { opsPerSecond: ops / seconds, cpuUsPerOp: (cpu.user + cpu.system) / ops };
}

const at = '2030-01-01T00:00:00.000Z';

interface Subject {
  readonly name: string;
  readonly kind: 'commit' | 'claim';
  readonly run: () => Promise<{ opsPerSecond: number; cpuUsPerOp: number }>;
}

function commitArgs(id: string, n: number) {
  const revision = n + 1;
  return {
    update: [snapshot, revision + 1, n * 3 + 3, at, id, revision],
    insert: [id, n * 3 + 1, n * 3 + 3, events, revision + 1, at],
  };
}

/**
 * porsager: a connection reserved per client; tagged templates (prepared, its fast path); its
 * queries are pipelined unless awaited.
 */
async function porsagerCommit(pipelined: boolean) {
  const sql = postgres(url, { max: CLIENTS, prepare: true, onnotice: () => {} });
  const ids = await resetRuns();
  const conns = await Promise.all(ids.map(() => sql.reserve()));
  const update = (tx: postgres.ReservedSql, a: unknown[]) =>
    tx`UPDATE runs SET snapshot = ${a[0] as string}::json, revision = ${a[1] as number}, event_seq = ${a[2] as number}, updated_at = ${a[3] as string} WHERE id = ${a[4] as string} AND revision = ${a[5] as number}`;
  const insert = (tx: postgres.ReservedSql, a: unknown[]) =>
    tx`INSERT INTO run_events (run_id, seq, last_seq, events, revision, at) VALUES (${a[0] as string}, ${a[1] as number}, ${a[2] as number}, ${a[3] as string}::json, ${a[4] as number}, ${a[5] as string})`;
  try {
    return await loop(async (c, n) => {
      const tx = conns[c] as postgres.ReservedSql;
      const args = commitArgs(ids[c] as string, n);
      if (pipelined) {
        const [, u] = await Promise.all([
          tx`BEGIN`,
          update(tx, args.update),
          insert(tx, args.insert),
          tx`COMMIT`,
        ]);
        if (u.count !== 1) throw new Error('revision conflict');
      } else {
        await tx`BEGIN`;
        const u = await update(tx, args.update);
        if (u.count !== 1) throw new Error('revision conflict');
        await insert(tx, args.insert);
        await tx`COMMIT`;
      }
    });
  } finally {
    for (const c of conns) c.release();
    await sql.end();
  }
}

/** node-postgres: a client per client, in pipeline mode (8.23) or not. */
async function pgCommit(pipelined: boolean) {
  const ids = await resetRuns();
  // node-postgres 8.23's pipeline mode (its types do not list the option yet).
  const config = (pipeline: boolean) => ({ connectionString: url, pipeline }) as pg.ClientConfig;
  const clients = ids.map(() => new pg.Client(config(pipelined)));
  await Promise.all(clients.map((c) => c.connect()));
  const named = (name: string, text: string, values: unknown[]) => ({ name, text, values });
  try {
    return await loop(async (c, n) => {
      const client = clients[c] as pg.Client;
      const { update, insert } = commitArgs(ids[c] as string, n);
      if (pipelined) {
        const [, u] = await Promise.all([
          client.query('BEGIN'),
          client.query(named('u', UPDATE, update)),
          client.query(named('i', INSERT, insert)),
          client.query('COMMIT'),
        ]);
        if (u.rowCount !== 1) throw new Error('revision conflict');
      } else {
        await client.query('BEGIN');
        const u = await client.query(named('u', UPDATE, update));
        if (u.rowCount !== 1) throw new Error('revision conflict');
        await client.query(named('i', INSERT, insert));
        await client.query('COMMIT');
      }
    });
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

async function porsagerClaim() {
  await refillQueue();
  const sql = postgres(url, { max: CLIENTS, prepare: true, onnotice: () => {} });
  try {
    return await loop(async (c) => {
      const now = Date.now();
      const rows =
        await sql`UPDATE work SET lease_owner = ${`owner_${c}`}, lease_expires_at = ${now + 30_000}, attempts = attempts + 1
        WHERE id IN (SELECT id FROM work WHERE available_at <= ${now} AND (lease_expires_at IS NULL OR lease_expires_at <= ${now})
          ORDER BY priority, seq LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, priority, seq, available_at, attempts, lease_owner, lease_expires_at, payload`;
      const row = rows[0];
      if (row === undefined) throw new Error('queue drained: raise QUEUE');
      await sql`DELETE FROM work WHERE id = ${row.id as string}`;
    });
  } finally {
    await sql.end();
  }
}

async function pgClaim() {
  await refillQueue();
  const pool = new pg.Pool({ connectionString: url, max: CLIENTS });
  try {
    return await loop(async (c) => {
      const now = Date.now();
      const result = await pool.query({
        name: 'claim',
        text: CLAIM,
        values: [`owner_${c}`, now + 30_000, now],
      });
      const row = result.rows[0];
      if (row === undefined) throw new Error('queue drained: raise QUEUE');
      await pool.query({ name: 'delete', text: DELETE, values: [row.id] });
    });
  } finally {
    await pool.end();
  }
}

const subjects: Subject[] = [
  { name: 'pg, awaited', kind: 'commit', run: () => pgCommit(false) },
  { name: 'postgres, awaited', kind: 'commit', run: () => porsagerCommit(false) },
  { name: 'pg, pipelined', kind: 'commit', run: () => pgCommit(true) },
  { name: 'postgres, pipelined', kind: 'commit', run: () => porsagerCommit(true) },
  { name: 'pg', kind: 'claim', run: pgClaim },
  { name: 'postgres', kind: 'claim', run: porsagerClaim },
];

const results = new Map<string, { opsPerSecond: number; cpuUsPerOp: number }[]>();
try {
  for (const s of subjects) await s.run(); // warm-up: JIT, prepared statements, the server's caches
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    for (const s of order) {
      const r = await s.run();
      const key = `${s.kind}: ${s.name}`;
      results.set(key, [...(results.get(key) ?? []), r]);
    }
  }
} finally {
  await admin.end();
  await server.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log(
  `### PostgreSQL drivers on the adapter's hot paths\n\n${machineLine()}, ${CLIENTS} clients, ${ROUNDS} rounds of ${DURATION_MS} ms\n`,
);
console.log(
  '| path: driver | ops/s, each round | median ops/s | CPU µs/op (this process), median |',
);
console.log('|---|---|---|---|');
for (const [key, rs] of results) {
  console.log(
    `| ${key} | ${rs.map((r) => r.opsPerSecond.toFixed(0)).join(' ')} | ${median(rs.map((r) => r.opsPerSecond)).toFixed(0)} | ${median(rs.map((r) => r.cpuUsPerOp)).toFixed(1)} |`,
  );
}
const ratio = (a: string, b: string) =>
  median((results.get(a) ?? []).map((r) => r.opsPerSecond)) /
  median((results.get(b) ?? []).map((r) => r.opsPerSecond));
console.log(
  `\npostgres/pg ops/s: commit awaited ${ratio('commit: postgres, awaited', 'commit: pg, awaited').toFixed(2)}, commit pipelined ${ratio('commit: postgres, pipelined', 'commit: pg, pipelined').toFixed(2)}, claim ${ratio('claim: postgres', 'claim: pg').toFixed(2)}`,
);
