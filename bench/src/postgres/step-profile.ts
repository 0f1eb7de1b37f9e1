/**
 * Where a step's CPU goes, on both sides: the 5-step no-op workflow with 16 clients on a
 * throwaway PostgreSQL 15 (WARMUP runs, then RUNS measured). Prints the process's and the
 * server's CPU µs per step, the process's allocation and garbage collection per step (V8's
 * GCProfiler: the heap used before each collection less after the one before), the WAL by
 * resource manager, and the server's statements, tables and indexes per step
 * (pg_stat_statements), then the batch statement's generic plan.
 *
 *   cd bench && RUNS=2000 npx tsx src/postgres/step-profile.ts
 *
 * CPU_PROF=<file> writes the docflow process's CPU profile of the measured runs there,
 * HEAP_PROF=<file> its sampling heap profile (every allocation sampled, collected or not; it
 * slows the process, so take the CPU and allocation figures from a run without it; with
 * HEAP_PROF_SURVIVORS=1 only what outlived a young-generation collection, which is what those
 * collections spend their time copying); PERF=<file> the server's CPU profile of the measured
 * runs (Linux perf, see `server-perf.ts`);
 * SETTINGS='{"name":"value"}' adds server settings; EXPLAIN_LOG=<dir> logs sampled plans.
 */
import { fileURLToPath } from 'node:url';
import { GCProfiler } from 'node:v8';
import { postgresStorage } from '@docflow/storage/postgres';
import { startTemporaryPostgres } from '@docflow/storage/testing/postgres';
import pg from 'pg';
import { BEGIN_COMMIT } from '../../../packages/storage/src/postgres/postgres-commit-queue.ts';
import { explainBatch as batchPlan } from '../../../packages/storage/src/testing/postgres/explain-batch.ts';
import { runClients, startLinearEngine } from '../engine/linear-noop.ts';
import { buildCompiled, runCompiled } from './compiled-child.ts';
import { profileSection } from './section-profile.ts';
import { serverCpuMicros } from './server-cpu.ts';
import { recordServerCpu } from './server-perf.ts';

const RUNS = Number(process.env.RUNS ?? 2000);
const WARMUP = Math.ceil(RUNS / 4);
const SCHEMA = 'profile';

/** The docflow side: WARMUP runs, a reset of the statistics, RUNS runs; CPU per step printed. */
async function docflowSide(url: string, serverPid: number): Promise<void> {
  const storage = postgresStorage({ connectionString: url }, { schema: SCHEMA });
  const { engine, workflowId, fileId } = await startLinearEngine(storage);
  await runClients(engine, workflowId, fileId, WARMUP);
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('SELECT pg_stat_statements_reset(), pg_stat_reset()');
  const wal0 = (await admin.query('SELECT pg_current_wal_lsn() AS l')).rows[0].l as string;
  const before = (await storage.info()).commits;
  // PERF=<file>: the server's CPU profile over the measured runs (see `server-perf.ts`).
  const perf = process.env.PERF && (await recordServerCpu(process.env.PERF, serverPid));
  const stopProfiles = await profileSection({
    ...(process.env.CPU_PROF === undefined ? {} : { cpuProfile: process.env.CPU_PROF }),
    ...(process.env.HEAP_PROF === undefined ? {} : { heapProfile: process.env.HEAP_PROF }),
    survivorsOnly: process.env.HEAP_PROF_SURVIVORS === '1',
  });
  const gc = new GCProfiler();
  const heap0 = process.memoryUsage().heapUsed;
  gc.start();
  const cpu0 = process.cpuUsage();
  const server0 = serverCpuMicros(serverPid) ?? 0;
  const t0 = performance.now();
  await runClients(engine, workflowId, fileId, RUNS);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const heap = heapAllocation(heap0, gc.stop(), process.memoryUsage().heapUsed);
  await stopProfiles();
  const server = (serverCpuMicros(serverPid) ?? 0) - server0;
  if (perf) await perf();
  const after = (await storage.info()).commits;
  const wal1 = (await admin.query('SELECT pg_current_wal_lsn() AS l')).rows[0].l as string;
  const wal = (await admin.query('SELECT pg_wal_lsn_diff($1, $2) AS b', [wal1, wal0])).rows[0]
    .b as string;
  // What the WAL is made of, by resource manager (pg_walinspect, PostgreSQL 15).
  const kinds = await admin.query(
    `SELECT "resource_manager/record_type" AS kind, count, record_size, fpi_size
     FROM pg_get_wal_stats($1, $2) WHERE count > 0 ORDER BY record_size + fpi_size DESC`,
    [wal0, wal1],
  );
  await admin.end();
  await engine.stop();
  const n = RUNS * 5;
  console.log(
    '| WAL | records/step | bytes/step | full-page image bytes/step |\n|---|---|---|---|',
  );
  for (const k of kinds.rows) {
    console.log(
      `| ${k.kind} | ${(k.count / n).toFixed(2)} | ${(k.record_size / n).toFixed(0)} | ${(k.fpi_size / n).toFixed(0)} |`,
    );
  }
  console.log(
    `${n} steps, ${(n / seconds).toFixed(0)} steps/s; CPU µs per step: process ${((cpu.user + cpu.system) / n).toFixed(0)}, server ${(server / n).toFixed(0)}; process allocation ${(heap.bytes / n / 1024).toFixed(1)} KB per step, garbage collection ${(heap.gcMicros / n).toFixed(0)} µs per step (${heap.collections}); commits per step ${((after.commits - before.commits) / n).toFixed(2)}, transactions per step ${((after.transactions - before.transactions) / n).toFixed(2)}; WAL bytes per step ${(Number(wal) / n).toFixed(0)}`,
  );
}

/**
 * Bytes allocated on the heap between two points (objects collected since included) and the
 * time spent collecting: each collection's heap before it less the heap after the one before.
 */
function heapAllocation(
  usedAtStart: number,
  profile: ReturnType<GCProfiler['stop']>,
  usedAtEnd: number,
): { bytes: number; gcMicros: number; collections: string } {
  let bytes = 0;
  let used = usedAtStart;
  const byKind = new Map<string, { count: number; micros: number }>();
  for (const collection of profile?.statistics ?? []) {
    bytes += collection.beforeGC.heapStatistics.usedHeapSize - used;
    used = collection.afterGC.heapStatistics.usedHeapSize;
    const kind = byKind.get(collection.gcType) ?? { count: 0, micros: 0 };
    kind.count++;
    kind.micros += collection.cost;
    byKind.set(collection.gcType, kind);
  }
  let gcMicros = 0;
  for (const kind of byKind.values()) gcMicros += kind.micros;
  const collections = [...byKind]
    .map(([name, k]) => `${k.count} ${name}, ${(k.micros / 1000).toFixed(1)} ms`)
    .join('; ');
  return { bytes: bytes + usedAtEnd - used, gcMicros, collections };
}

/** The server's statistics per step, after the docflow side. */
async function report(url: string): Promise<void> {
  const n = RUNS * 5;
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  // The statistics collector sends table counts at the end of a transaction, within 0.5 s.
  await new Promise((r) => setTimeout(r, 1500));
  const statements = await c.query(
    `SELECT calls, plans, rows, total_exec_time, total_plan_time, shared_blks_hit, wal_records,
       regexp_replace(left(query, 110), '\\s+', ' ', 'g') AS q
     FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 20`,
  );
  console.log(
    '\n| statement | plans/step | calls/step | rows/step | exec µs/step | plan µs/step | buffers/step | WAL records/step |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of statements.rows) {
    console.log(
      `| ${r.q} | ${(r.plans / n).toFixed(2)} | ${(r.calls / n).toFixed(2)} | ${(r.rows / n).toFixed(2)} | ${((r.total_exec_time * 1000) / n).toFixed(1)} | ${((r.total_plan_time * 1000) / n).toFixed(1)} | ${(r.shared_blks_hit / n).toFixed(1)} | ${(r.wal_records / n).toFixed(2)} |`,
    );
  }
  const tables = await c.query(
    `SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del, seq_scan, seq_tup_read,
       idx_scan, pg_relation_size(relid) / 8192 AS pages FROM pg_stat_user_tables
     WHERE schemaname = $1 ORDER BY relname`,
    [SCHEMA],
  );
  console.log(
    '\n| table | inserted/step | updated/step | of them HOT | deleted/step | indexes | sequential scans/step | rows they read/step | index scans/step | pages at the end |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of tables.rows) {
    const indexes = await c.query(
      `SELECT count(*)::int AS k FROM pg_indexes WHERE schemaname = $1 AND tablename = $2`,
      [SCHEMA, r.relname],
    );
    console.log(
      `| ${r.relname} | ${(r.n_tup_ins / n).toFixed(2)} | ${(r.n_tup_upd / n).toFixed(2)} | ${(r.n_tup_hot_upd / n).toFixed(2)} | ${(r.n_tup_del / n).toFixed(2)} | ${indexes.rows[0].k} | ${(r.seq_scan / n).toFixed(2)} | ${(r.seq_tup_read / n).toFixed(1)} | ${(r.idx_scan / n).toFixed(2)} | ${r.pages} |`,
    );
  }
  const indexes = await c.query(
    `SELECT indexrelname, idx_scan, idx_tup_read, idx_tup_fetch FROM pg_stat_user_indexes
     WHERE schemaname = $1 AND idx_scan > 0 ORDER BY idx_tup_read DESC`,
    [SCHEMA],
  );
  console.log('\n| index | scans/step | entries read/step | rows fetched/step |');
  console.log('|---|---|---|---|');
  for (const r of indexes.rows) {
    console.log(
      `| ${r.indexrelname} | ${(r.idx_scan / n).toFixed(2)} | ${(r.idx_tup_read / n).toFixed(1)} | ${(r.idx_tup_fetch / n).toFixed(1)} |`,
    );
  }
  try {
    await explainBatch(c);
  } catch (error) {
    console.log(`\nEXPLAIN failed: ${(error as Error).message}`);
  }
  await c.end();
}

/**
 * The plan of the group commit's batch statement (its generic plan, as the adapter's prepared
 * statement runs it after five executions) for one step commit: a run's update with its events
 * row, the fenced removal of its leased queue item and the insertion of the next step's.
 */
async function explainBatch(c: pg.Client): Promise<void> {
  const s = `"${SCHEMA}"`;
  const run = (await c.query(`SELECT id, revision FROM ${s}.runs ORDER BY seq DESC LIMIT 1`))
    .rows[0] as { id: string; revision: number };
  await c.query(BEGIN_COMMIT); // as the adapter's commit transactions begin
  await c.query(
    `INSERT INTO ${s}.work (id, run_id, kind, priority, available_at, payload, attempts, lease_owner, lease_expires_at) VALUES ('explain-1', $1, 'step', 0, 0, '{}', 1, 'me', 9999999999999)`,
    [run.id],
  );
  const at = new Date().toISOString();
  const plan = await batchPlan(
    c,
    SCHEMA,
    [
      {
        runIds: [run.id],
        runs: [
          [
            run.id,
            'workflow',
            null,
            null,
            'PROCESSING',
            true,
            0,
            null,
            run.revision,
            1,
            at,
            JSON.stringify([['step.completed', {}]]),
            JSON.stringify([{ op: 'replace', path: '/x', value: 1 }]),
          ],
        ],
        finished: [{ id: 'explain-1', owner: 'me', attempts: 1 }],
        held: [],
        dequeue: [],
        enqueue: [['explain-2', run.id, 'step', 0, 0, '{}', 1, 'me', 9999999999999]],
        workIds: ['explain-1', 'explain-2'],
      },
    ],
    'ANALYZE, BUFFERS, COSTS OFF',
  );
  await c.query('ROLLBACK');
  console.log('\nThe batch statement, one step commit (generic plan):\n');
  for (const line of plan) console.log(`    ${line}`);
}

const [side, url, pid] = process.argv.slice(2);
if (side === 'docflow' && url !== undefined) {
  await docflowSide(url, Number(pid));
  process.exit(0);
} else {
  buildCompiled(fileURLToPath(new URL('../../..', import.meta.url)));
  const server = await startTemporaryPostgres({
    settings: {
      shared_preload_libraries: 'pg_stat_statements',
      'pg_stat_statements.track': 'all',
      'pg_stat_statements.track_planning': 'on',
      track_io_timing: 'off',
      // Planner settings to try, e.g. SETTINGS='{"enable_seqscan":"off"}'.
      ...(JSON.parse(process.env.SETTINGS ?? '{}') as Record<string, string>),
      ...(process.env.EXPLAIN_LOG === undefined
        ? {}
        : {
            session_preload_libraries: 'auto_explain',
            'auto_explain.log_min_duration': 0,
            'auto_explain.log_analyze': 'on',
            'auto_explain.log_buffers': 'on',
            'auto_explain.log_nested_statements': 'on',
            'auto_explain.sample_rate': 0.002,
            logging_collector: 'on',
            log_directory: process.env.EXPLAIN_LOG,
          }),
    },
  });
  try {
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE EXTENSION pg_stat_statements');
    await admin.query('CREATE EXTENSION pg_walinspect');
    await admin.end();
    process.stdout.write(
      runCompiled(fileURLToPath(import.meta.url), ['docflow', server.url, String(server.pid)]),
    );
    await report(server.url);
  } finally {
    await server.stop();
  }
}
