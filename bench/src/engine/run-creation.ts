/**
 * Issue 2's figures: durable run creation per second and a 2-step run's end-to-end latency on
 * SQLite (`normal` and `full`), beside raw better-sqlite3 writes of the same rows in the same
 * process (the floor: what the database alone costs).
 *
 *   cd bench && npx tsx src/engine/run-creation.ts
 */
import { join } from 'node:path';
import { createEngine, defineStep, type Engine } from '@docflow/engine';
import type { Durability } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import Database from 'better-sqlite3';
import { type ComparisonRow, measure, report, scratchDir } from '../harness.ts';

const durationMs = Number(process.env.BENCH_MS ?? 3000);

const noopParse = defineStep({ type: 'PARSE', execute: async () => ({ output: { chunks: [] } }) });

async function engineOn(
  durability: Durability,
): Promise<{ engine: Engine; workflowId: string; fileId: string }> {
  const dir = scratchDir('docflow-bench-');
  const engine = createEngine({
    storage: sqliteStorage({ path: join(dir, 'bench.db'), durability }),
    steps: [noopParse],
  });
  await engine.start();
  const file = await engine.files.upload({ name: 'a.txt', data: 'hello' });
  const wf = await engine.workflows.create({
    name: 'bench',
    steps: [
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      { name: 'parse', type: 'PARSE' },
    ],
  });
  await engine.workflows.deploy(wf.id);
  return { engine, workflowId: wf.id, fileId: file.id };
}

/** The rows a run's creation writes, with the same sizes, straight into better-sqlite3. */
function rawFloor(durability: Durability, snapshotBytes: number) {
  const dir = scratchDir('docflow-bench-raw-');
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${durability === 'full' ? 'FULL' : 'NORMAL'}`);
  db.exec(`create table runs (id text primary key, status text, snapshot text, revision integer, seq integer);
           create table run_events (run_id text, seq integer, type text, data text, primary key (run_id, seq));
           create table work (id text primary key, run_id text, priority integer, seq integer, payload text);`);
  const insertRun = db.prepare('insert into runs values (?, ?, ?, ?, ?)');
  const updateRun = db.prepare(
    'update runs set status = ?, snapshot = ?, revision = revision + 1 where id = ?',
  );
  const insertEvent = db.prepare('insert into run_events values (?, ?, ?, ?)');
  const insertWork = db.prepare('insert into work values (?, ?, ?, ?, ?)');
  const deleteWork = db.prepare('delete from work where id = ?');
  const snapshot = 'x'.repeat(snapshotBytes);
  let n = 0;
  const create = db.transaction((id: string) => {
    insertRun.run(id, 'PROCESSING', snapshot, 1, ++n);
    for (let i = 1; i <= 4; i++) insertEvent.run(id, i, 'step.created', '{"stepRunId":"x"}');
    insertWork.run(`${id}#0`, id, 50, n, '{"stepRunId":"x"}');
  });
  const start = db.transaction((id: string) => {
    updateRun.run('PROCESSING', snapshot, id);
    insertEvent.run(id, 5, 'step.start', '{}');
  });
  const finish = db.transaction((id: string) => {
    updateRun.run('PROCESSED', snapshot, id);
    insertEvent.run(id, 6, 'step.complete', '{}');
    insertEvent.run(id, 7, 'run.complete', '{}');
    deleteWork.run(`${id}#0`);
  });
  return { db, create, start, finish };
}

const rows: ComparisonRow[] = [];
for (const durability of ['normal', 'full'] as const) {
  const { engine, workflowId, fileId } = await engineOn(durability);
  const created = await measure(
    `engine.workflowRuns.create (${durability})`,
    () => engine.workflowRuns.create({ workflow: { id: workflowId }, file: { id: fileId } }),
    { durationMs },
  );
  await engine.idle({ timeoutMs: 120_000 });
  const latency = await measure(
    `2-step run create→PROCESSED (${durability})`,
    async () => {
      const run = await engine.workflowRuns.create({
        workflow: { id: workflowId },
        file: { id: fileId },
      });
      await engine.workflowRuns.waitFor(run.id);
    },
    { durationMs },
  );
  const sample = await engine.storage.listRuns({ pageSize: 1 });
  const snapshotBytes = JSON.stringify(sample.items[0]?.snapshot ?? {}).length;
  await engine.stop();

  const floor = rawFloor(durability, snapshotBytes);
  let i = 0;
  const rawCreate = await measure(
    `raw insert run+events+work (${durability})`,
    () => floor.create(`r${i++}`),
    { durationMs },
  );
  let j = 0;
  const rawRun = await measure(
    `raw 3 transactions of a 2-step run (${durability})`,
    () => {
      const id = `l${j++}`;
      floor.create(id);
      floor.start(id);
      floor.finish(id);
    },
    { durationMs },
  );
  floor.db.close();
  rows.push({ subject: created, peer: rawCreate }, { subject: latency, peer: rawRun });
}
report('Durable run creation and 2-step latency on SQLite (issue 2)', rows);
