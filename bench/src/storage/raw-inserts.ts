/**
 * The storage floor: what `sqliteStorage().commit()` costs over raw better-sqlite3 writing the same
 * rows in the same kind of transaction (a run-shaped row plus one event row), per durability.
 *
 *   cd bench && npx tsx src/storage/raw-inserts.ts
 *
 * Scenarios:
 * - create: insert a run row and its first event in one transaction.
 * - transition: a step transition on an existing run (check and bump the revision, replace the
 *   snapshot, append an event): the engine's hot path, which issue 2 wants at ≥ 10k/s on normal.
 * - batched: 16 concurrent transitions; the adapter groups them in one fsynced transaction, the
 *   peer writes the same 16 in one raw transaction on synchronous=FULL.
 */
import { join } from 'node:path';
import type { Durability, RunWrite, StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import Database from 'better-sqlite3';
import {
  type ComparisonRow,
  type Measurement,
  type MeasureOptions,
  measure,
  report,
  scratchDir,
} from '../harness.ts';

const durationMs = Number(process.env.BENCH_MS ?? 1500);
// The machine is shared: each pair runs this many alternating rounds and keeps its best.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = scratchDir('docflow-bench-storage-');
let files = 0;

// A ~500-byte snapshot, the size the engine prototype persisted per transition.
const snapshot = {
  value: { status: 'PROCESSING', paths: [{ id: 'p1', at: 'parse', files: ['file_abc123'] }] },
  context: {
    runId: 'workflow_run_0123456789',
    metadata: { customer: 'acme', ref: 'INV-2031-0042' },
  },
  outputs: { parse: { chunks: 3, blocks: 42, ref: 'blob_parse_0123456789abcdef' } },
  padding: 'x'.repeat(260),
};
const event = { type: 'workflow_step_run.processed', data: { step: 'parse', attempt: 1 } };

/** Raw better-sqlite3 with the same pragmas and a minimal run/event schema. */
function rawDb(synchronous: 'NORMAL' | 'FULL') {
  const db = new Database(join(dir, `raw-${files++}.db`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  db.exec(`CREATE TABLE runs (id TEXT PRIMARY KEY, status TEXT, snapshot TEXT, revision INTEGER, event_seq INTEGER, updated_at TEXT);
    CREATE TABLE run_events (run_id TEXT, seq INTEGER, type TEXT, data TEXT, revision INTEGER, at TEXT, PRIMARY KEY (run_id, seq)) WITHOUT ROWID;
    CREATE TABLE work (id TEXT PRIMARY KEY, run_id TEXT, priority INTEGER, seq INTEGER, available_at INTEGER, payload TEXT);
    CREATE INDEX work_by_claim_order ON work (priority, seq);`);
  const insertWork = db.prepare('INSERT INTO work VALUES (?, ?, 50, ?, ?, ?)');
  const deleteWork = db.prepare('DELETE FROM work WHERE id = ?');
  let workSeq = 0;
  const insertRun = db.prepare('INSERT INTO runs VALUES (?, ?, ?, 1, 1, ?)');
  const bump = db.prepare(
    'UPDATE runs SET snapshot = ?, revision = revision + 1, event_seq = event_seq + 1, updated_at = ? WHERE id = ? AND revision = ? RETURNING event_seq',
  );
  const insertEvent = db.prepare('INSERT INTO run_events VALUES (?, ?, ?, ?, ?, ?)');
  const create = db.transaction((id: string) => {
    const at = new Date().toISOString();
    insertRun.run(id, 'PENDING', JSON.stringify(snapshot), at);
    insertEvent.run(id, 1, event.type, JSON.stringify(event.data), 1, at);
  });
  const transition = (id: string, revision: number) => {
    const at = new Date().toISOString();
    const row = bump.get(JSON.stringify(snapshot), at, id, revision) as
      | { event_seq: number }
      | undefined;
    if (row === undefined) throw new Error('conflict');
    insertEvent.run(id, row.event_seq, event.type, JSON.stringify(event.data), revision + 1, at);
  };
  return {
    db,
    create: (id: string) => create(id),
    transition: db.transaction(transition),
    /** A step of the engine: transition, dequeue the finished item, enqueue the next one. */
    step: db.transaction((id: string, revision: number) => {
      transition(id, revision);
      deleteWork.run(`${id}@${revision - 1}`);
      insertWork.run(
        `${id}@${revision}`,
        id,
        ++workSeq,
        Date.now(),
        JSON.stringify({ step: revision }),
      );
    }),
    transitions: db.transaction((items: [string, number][]) => {
      for (const [id, revision] of items) transition(id, revision);
    }),
  };
}

function runWrite(id: string, expectedRevision: number): RunWrite {
  return {
    id,
    kind: 'workflow_run',
    status: 'PROCESSING',
    active: true,
    priority: 50,
    snapshot,
    expectedRevision,
    events: [event],
  };
}

async function adapter(durability: Durability): Promise<StorageAdapter> {
  const storage = sqliteStorage({ path: join(dir, `adapter-${files++}.db`), durability });
  await storage.open();
  return storage;
}

/** Round-robin over a pool of runs, tracking each one's revision. */
function pool(size: number) {
  const revisions = new Array<number>(size).fill(1);
  let cursor = 0;
  return {
    ids: Array.from({ length: size }, (_, i) => `run_${i}`),
    next(): [string, number] {
      const i = cursor++ % size;
      const revision = revisions[i] ?? 1;
      revisions[i] = revision + 1;
      return [`run_${i}`, revision];
    },
  };
}

/** Measures subject and peer in alternating rounds and keeps each one's best round. */
async function pair(
  subject: [string, () => unknown],
  peer: [string, () => unknown],
  options: MeasureOptions,
): Promise<{ subject: Measurement; peer: Measurement }> {
  let best: { subject?: Measurement; peer?: Measurement } = {};
  for (let round = 0; round < rounds; round++) {
    const s = await measure(subject[0], subject[1], options);
    const p = await measure(peer[0], peer[1], options);
    best = {
      subject: best.subject && best.subject.opsPerSecond >= s.opsPerSecond ? best.subject : s,
      peer: best.peer && best.peer.opsPerSecond >= p.opsPerSecond ? best.peer : p,
    };
  }
  if (best.subject === undefined || best.peer === undefined)
    throw new Error('BENCH_ROUNDS must be ≥ 1');
  return { subject: best.subject, peer: best.peer };
}

const rows: ComparisonRow[] = [];
for (const durability of ['normal', 'full'] as const) {
  const sync = durability === 'normal' ? 'NORMAL' : 'FULL';
  const options = { durationMs };

  const storage = await adapter(durability);
  const raw = rawDb(sync);
  let a = 0;
  let b = 0;
  rows.push(
    await pair(
      [
        `commit: create run+event (${durability})`,
        () => storage.commit({ runs: [runWrite(`new_${a++}`, 0)] }),
      ],
      [`raw: insert run+event (${sync})`, () => raw.create(`new_${b++}`)],
      options,
    ),
  );

  const subjectPool = pool(100);
  const peerPool = pool(100);
  await storage.commit({ runs: subjectPool.ids.map((id) => runWrite(id, 0)) });
  for (const id of peerPool.ids) raw.create(id);
  rows.push({
    ...(await pair(
      [
        `commit: step transition (${durability})`,
        () => {
          const [id, revision] = subjectPool.next();
          return storage.commit({ runs: [runWrite(id, revision)] });
        },
      ],
      [
        `raw: update run+insert event (${sync})`,
        () => {
          const [id, revision] = peerPool.next();
          raw.transition(id, revision);
        },
      ],
      options,
    )),
    ...(durability === 'normal' ? { target: '≥ 10k/s subject' } : {}),
  });
  rows.push(
    await pair(
      [
        `commit: transition+dequeue+enqueue (${durability})`,
        () => {
          const [id, revision] = subjectPool.next();
          return storage.commit({
            runs: [runWrite(id, revision)],
            dequeue: [`${id}@${revision - 1}`],
            enqueue: [
              {
                id: `${id}@${revision}`,
                runId: id,
                kind: 'step',
                priority: 50,
                payload: { step: revision },
              },
            ],
          });
        },
      ],
      [
        `raw: same 4 statements (${sync})`,
        () => {
          const [id, revision] = peerPool.next();
          raw.step(id, revision);
        },
      ],
      options,
    ),
  );
  await storage.close();
  raw.db.close();
}

{
  const concurrency = 16;
  const storage = await adapter('batched');
  const raw = rawDb('FULL');
  const subjectPool = pool(100);
  const peerPool = pool(100);
  await storage.commit({ runs: subjectPool.ids.map((id) => runWrite(id, 0)) });
  for (const id of peerPool.ids) raw.create(id);
  rows.push(
    await pair(
      [
        `commit ×${concurrency} concurrent (batched)`,
        () =>
          Promise.all(
            Array.from({ length: concurrency }, () => {
              const [id, revision] = subjectPool.next();
              return storage.commit({ runs: [runWrite(id, revision)] });
            }),
          ),
      ],
      [
        `raw: ${concurrency} transitions in 1 txn (FULL)`,
        () => {
          raw.transitions(Array.from({ length: concurrency }, () => peerPool.next()));
        },
      ],
      { durationMs, opsPerCall: concurrency },
    ),
  );
  await storage.close();
  raw.db.close();
}

report('storage: sqliteStorage.commit vs raw better-sqlite3 (one transaction per op)', rows);

/**
 * CPU time per step transition on `normal`. On a shared machine wall-clock ops/s swings with the
 * neighbours' load; CPU microseconds per op do not, and 1e6 / µs is the single-core ceiling.
 */
async function cpuPerOp(fn: () => unknown, ops: number): Promise<number> {
  for (let i = 0; i < 2000; i++) await fn();
  const start = process.cpuUsage();
  for (let i = 0; i < ops; i++) await fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ops;
}

{
  const storage = await adapter('normal');
  const raw = rawDb('NORMAL');
  const subjectPool = pool(100);
  const peerPool = pool(100);
  await storage.commit({ runs: subjectPool.ids.map((id) => runWrite(id, 0)) });
  for (const id of peerPool.ids) raw.create(id);
  const ops = Number(process.env.BENCH_CPU_OPS ?? 20_000);
  const subject = await cpuPerOp(() => {
    const [id, revision] = subjectPool.next();
    return storage.commit({ runs: [runWrite(id, revision)] });
  }, ops);
  const peer = await cpuPerOp(() => {
    const [id, revision] = peerPool.next();
    raw.transition(id, revision);
  }, ops);
  console.log('### storage: CPU per step transition (normal)\n');
  console.log(
    '| subject | CPU µs/op | ceiling ops/s | peer | CPU µs/op | ceiling ops/s | ratio (peer/subject µs) |',
  );
  console.log('|---|---|---|---|---|---|---|');
  console.log(
    `| commit: step transition | ${subject.toFixed(1)} | ${(1e6 / subject).toFixed(0)} | raw: update run+insert event | ${peer.toFixed(1)} | ${(1e6 / peer).toFixed(0)} | ${(peer / subject).toFixed(2)} |\n`,
  );
  await storage.close();
  raw.db.close();
}
