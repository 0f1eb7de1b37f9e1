import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Durability, JsonObject, RunWrite } from '@docflow/storage';
import { isStorageError, StorageError, snapshotPatch } from '@docflow/storage';
import {
  MIGRATIONS,
  SCHEMA_VERSION,
  sqliteStorage,
  terminateWriterThread,
} from '@docflow/storage/sqlite';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { keysetSelect } from '../../src/sqlite/keyset-select.ts';
import { migrate } from '../../src/sqlite/migrations.ts';
import { prepareStatements } from '../../src/sqlite/sqlite-statements.ts';
import { BACKGROUND_CHECKPOINTS_AFTER } from '../../src/sqlite/sqlite-storage.ts';

const dir = mkdtempSync(join(tmpdir(), 'docflow-sqlite-'));
let n = 0;
const tempPath = () => join(dir, `db-${n++}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(id: string, expectedRevision: number, extra: Partial<RunWrite> = {}): RunWrite {
  return {
    id,
    kind: 'workflow_run',
    status: 'PENDING',
    active: true,
    priority: 50,
    snapshot: { id },
    expectedRevision,
    ...extra,
  };
}

describe('migrations', () => {
  it('records every migration once in schema_migrations, also across reopens', async () => {
    const path = tempPath();
    for (let i = 0; i < 2; i++) {
      const s = sqliteStorage({ path });
      await s.open();
      expect(s.info().schemaVersion).toBe(SCHEMA_VERSION);
      await s.close();
    }
    const raw = new BetterSqlite3(path, { readonly: true });
    const rows = raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
    raw.close();
    expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  });

  it('applies only the missing steps of a forward-only list', () => {
    const raw = new BetterSqlite3(':memory:');
    const steps = [
      { version: 1, name: 'one', sql: 'CREATE TABLE a (x)' },
      { version: 2, name: 'two', sql: 'CREATE TABLE b (x)' },
    ];
    expect(migrate(raw, ':memory:', steps.slice(0, 1))).toEqual({ from: 0, to: 1 });
    expect(migrate(raw, ':memory:', steps)).toEqual({ from: 1, to: 2 });
    expect(migrate(raw, ':memory:', steps)).toEqual({ from: 2, to: 2 });
    expect(raw.prepare('SELECT count(*) AS c FROM schema_migrations').get()).toEqual({ c: 2 });
    raw.close();
  });

  it('keeps the events and queued work of a version-1 database across migration 2', async () => {
    const path = join(dir, 'v1.db');
    const raw = new BetterSqlite3(path);
    migrate(raw, path, MIGRATIONS.slice(0, 1));
    raw
      .prepare(
        `INSERT INTO run_events (run_id, seq, type, data, revision, at) VALUES
          ('run_b', 1, 'run.created', '{}', 1, '2030-01-01T00:00:00.000Z'),
          ('run_a', 2, 'step.start', '{"n":2}', 2, '2030-01-01T00:00:01.000Z'),
          ('run_a', 1, 'run.created', '{"n":1}', 1, '2030-01-01T00:00:00.000Z')`,
      )
      .run();
    raw
      .prepare(
        `INSERT INTO work (id, run_id, kind, priority, seq, available_at, payload, attempts,
          lease_owner, lease_expires_at) VALUES ('w1', 'run_a', 'step', 50, 1, 0, '{}', 1, 'old', 1)`,
      )
      .run();
    raw.close();
    const s = sqliteStorage({ path });
    await s.open();
    expect(s.info().schemaVersion).toBe(SCHEMA_VERSION);
    expect((await s.listRunEvents('run_a')).map((e) => [e.seq, e.type, e.data])).toEqual([
      [1, 'run.created', { n: 1 }],
      [2, 'step.start', { n: 2 }],
    ]);
    expect((await s.listWork()).map((w) => [w.id, w.leaseOwner])).toEqual([['w1', 'old']]);
    await s.close();
  });

  it('keeps the event rows of a version-2 database across migration 3, still one per run and last seq', async () => {
    const path = join(dir, 'v2.db');
    const raw = new BetterSqlite3(path);
    migrate(raw, path, MIGRATIONS.slice(0, 2));
    raw
      .prepare(
        `INSERT INTO run_events (run_id, seq, last_seq, events, revision, at) VALUES
          ('run_a', 3, 3, '[["step.start",{"n":3}]]', 2, '2030-01-01T00:00:01.000Z'),
          ('run_b', 1, 1, '[["run.created",{}]]', 1, '2030-01-01T00:00:00.000Z'),
          ('run_a', 1, 2, '[["run.created",{"n":1}],["run.start",{"n":2}]]', 1, '2030-01-01T00:00:00.000Z')`,
      )
      .run();
    raw.close();
    const s = sqliteStorage({ path });
    await s.open();
    expect(s.info().schemaVersion).toBe(SCHEMA_VERSION);
    expect((await s.listRunEvents('run_a', { afterSeq: 1 })).map((e) => [e.seq, e.type])).toEqual([
      [2, 'run.start'],
      [3, 'step.start'],
    ]);
    await s.close();
    const check = new BetterSqlite3(path);
    expect(() =>
      check
        .prepare(
          `INSERT INTO run_events (run_id, seq, last_seq, events, revision, at)
            VALUES ('run_a', 3, 3, '[]', 3, 'x')`,
        )
        .run(),
    ).toThrow(/UNIQUE/);
    check.close();
  });

  it('appends event rows in commit order, whichever run they belong to', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path });
    await s.open();
    const event = [{ type: 'e', data: {} }];
    // run_z sorts after run_a: keyed by run, its rows would sit after run_a's.
    await s.commit({ runs: [run('run_z', 0, { events: event })] });
    await s.commit({ runs: [run('run_a', 0, { events: event })] });
    await s.commit({ runs: [run('run_z', 1, { events: event })] });
    await s.close();
    const raw = new BetterSqlite3(path, { readonly: true });
    expect(raw.prepare('SELECT run_id, last_seq FROM run_events ORDER BY rowid').all()).toEqual([
      { run_id: 'run_z', last_seq: 1 },
      { run_id: 'run_a', last_seq: 1 },
      { run_id: 'run_z', last_seq: 2 },
    ]);
    raw.close();
  });

  it('refuses a database written by a newer schema with SCHEMA_TOO_NEW naming both versions', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path });
    await s.open();
    await s.commit({ runs: [run('run_1', 0)] });
    await s.close();
    const newer = SCHEMA_VERSION + 7;
    const raw = new BetterSqlite3(path);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(newer, 'future', 'x');
    raw.close();

    const reopened = sqliteStorage({ path });
    const error = await reopened.open().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isStorageError(error, 'SCHEMA_TOO_NEW')).toBe(true);
    expect((error as StorageError).message).toContain(`schema version ${newer}`);
    expect((error as StorageError).message).toContain(`up to ${SCHEMA_VERSION}`);
    expect((error as StorageError).details).toMatchObject({
      databaseVersion: newer,
      supportedVersion: SCHEMA_VERSION,
    });
    // Refused means closed: nothing can be read or written through it.
    await expect(reopened.getRun('run_1')).rejects.toSatisfy((e) => isStorageError(e, 'NOT_OPEN'));
    const check = new BetterSqlite3(path, { readonly: true });
    expect(check.prepare('SELECT count(*) AS c FROM runs').get()).toEqual({ c: 1 });
    check.close();
  });
});

describe('durability', () => {
  const expected: Record<Durability, number> = { normal: 1, full: 2, batched: 1 };
  for (const durability of ['normal', 'full', 'batched'] as const) {
    it(`${durability}: WAL, synchronous=${expected[durability]}, commits survive close and reopen`, async () => {
      const path = tempPath();
      const s = sqliteStorage({ path, durability });
      await s.open();
      expect(s.info()).toMatchObject({
        journalMode: 'wal',
        synchronous: expected[durability],
        durability,
      });
      await Promise.all([
        s.commit({ runs: [run('run_1', 0)] }),
        s.commit({ runs: [run('run_2', 0)] }),
      ]);
      await s.commit({ runs: [run('run_1', 1, { status: 'PROCESSING' })] });
      await s.close();
      const again = sqliteStorage({ path, durability });
      await again.open();
      expect((await again.getRun('run_1'))?.status).toBe('PROCESSING');
      expect((await again.getRun('run_2'))?.revision).toBe(1);
      await again.close();
    });
  }

  it('rejects an unknown durability with INVALID_ARGUMENT', () => {
    expect(() => sqliteStorage({ path: ':memory:', durability: 'eventual' as Durability })).toThrow(
      StorageError,
    );
  });

  it('maps the file for reads and checkpoints every 10,000 WAL pages unless told otherwise', async () => {
    const tuned = sqliteStorage({ path: join(dir, 'tuned.db') });
    await tuned.open();
    expect(tuned.info()).toMatchObject({
      mmapSizeBytes: 256 * 1024 * 1024,
      walCheckpointPages: 10_000,
    });
    await tuned.close();
    const own = sqliteStorage({
      path: join(dir, 'own.db'),
      mmapSizeBytes: 0,
      walCheckpointPages: 500,
    });
    await own.open();
    expect(own.info()).toMatchObject({ mmapSizeBytes: 0, walCheckpointPages: 500 });
    await own.close();
    for (const bad of [{ mmapSizeBytes: -1 }, { walCheckpointPages: 1.5 }]) {
      const field = Object.keys(bad)[0] as string;
      expect(() => sqliteStorage({ path: ':memory:', ...bad })).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: expect.stringContaining(field),
        }),
      );
    }
  });

  it('stores what a batched commit was given when called, whatever happens to it before the group is written', async () => {
    const s = sqliteStorage({ path: tempPath(), durability: 'batched' });
    await s.open();
    const write = { ...run('run_1', 0), status: 'PENDING' };
    const item = {
      id: 'w1',
      runId: 'run_1',
      kind: 'step',
      priority: 10,
      payload: { n: 1 },
      lease: { owner: 'me', leaseMs: 60_000 },
    };
    const committed = s.commit({ runs: [write], enqueue: [item] });
    // The group is written at the end of the tick: change everything before then.
    write.status = 'CHANGED';
    item.priority = 99;
    item.lease.owner = 'someone else';
    item.payload.n = 2;
    await committed;
    expect((await s.getRun('run_1'))?.status).toBe('PENDING');
    const [stored] = await s.listWork();
    expect([stored?.priority, stored?.leaseOwner, stored?.payload]).toEqual([10, 'me', { n: 1 }]);
    await s.close();
  });

  describe("the writer's memory of the runs it wrote", () => {
    const ev = (type: string) => ({ type, data: {} });
    const seqs = async (s: ReturnType<typeof sqliteStorage>, id: string) =>
      (await s.listRunEvents(id)).map((e) => [e.seq, e.type]);

    it("follows another connection's writes: event numbers and indexed columns stay right", async () => {
      const path = tempPath();
      const a = sqliteStorage({ path });
      // A second writer on purpose: what a writes must follow what another connection wrote.
      const b = sqliteStorage({ path, exclusive: false });
      await a.open();
      await b.open();
      await a.commit({ runs: [run('run_1', 0, { events: [ev('a1'), ev('a2')] })] });
      // From memory: no other connection wrote in between.
      await a.commit({ runs: [run('run_1', 1, { events: [ev('a3')] })] });
      await a.commit({ runs: [run('run_1', 2, { events: [ev('a4'), ev('a5')] })] });
      await b.commit({
        runs: [run('run_1', 3, { status: 'PROCESSING', events: [ev('b1'), ev('b2'), ev('b3')] })],
      });
      // a's memory says revision 3; the run is at 4 now.
      await expect(a.commit({ runs: [run('run_1', 3, { events: [ev('x')] })] })).rejects.toSatisfy(
        (e) => isStorageError(e, 'REVISION_CONFLICT'),
      );
      await a.commit({ runs: [run('run_1', 4, { status: 'DONE', events: [ev('a6')] })] });
      await a.commit({ runs: [run('run_1', 5, { status: 'DONE', events: [ev('a7')] })] });
      expect(await seqs(a, 'run_1')).toEqual([
        [1, 'a1'],
        [2, 'a2'],
        [3, 'a3'],
        [4, 'a4'],
        [5, 'a5'],
        [6, 'b1'],
        [7, 'b2'],
        [8, 'b3'],
        [9, 'a6'],
        [10, 'a7'],
      ]);
      expect((await a.listRuns({ status: 'DONE' })).items.map((r) => r.id)).toEqual(['run_1']);
      expect((await a.listRuns({ status: 'PROCESSING' })).items).toEqual([]);
      await a.close();
      await b.close();
    });

    it('forgets what a rolled-back commit wrote', async () => {
      const path = tempPath();
      const a = sqliteStorage({ path });
      // A second writer on purpose: what a writes must follow what another connection wrote.
      const b = sqliteStorage({ path, exclusive: false });
      await a.open();
      await b.open();
      await a.commit({ runs: [run('run_1', 0, { events: [ev('a1')] })] });
      await a.commit({ runs: [run('run_2', 0)] });
      // run_1's update is rolled back with the conflict that follows it in the same commit.
      await expect(
        a.commit({
          runs: [
            run('run_1', 1, { status: 'LOST', events: [ev('lost1'), ev('lost2')] }),
            run('run_2', 0),
          ],
        }),
      ).rejects.toSatisfy((e) => isStorageError(e, 'REVISION_CONFLICT'));
      // Another connection takes the run to revision 2 with one event.
      await b.commit({ runs: [run('run_1', 1, { status: 'B', events: [ev('b1')] })] });
      await a.commit({ runs: [run('run_1', 2, { status: 'A', events: [ev('a2')] })] });
      expect(await seqs(a, 'run_1')).toEqual([
        [1, 'a1'],
        [2, 'b1'],
        [3, 'a2'],
      ]);
      expect((await a.listRuns({ status: 'A' })).items.map((r) => r.id)).toEqual(['run_1']);
      await a.close();
      await b.close();
    });
  });

  describe('background checkpoints', () => {
    /** Commits runs with 3 KB snapshots (one a page) until the WAL holds about `pages` pages. */
    async function fill(s: ReturnType<typeof sqliteStorage>, prefix: string, pages: number) {
      const snapshot = { text: 'x'.repeat(3000) };
      for (let i = 0; i < pages; i++) {
        await s.commit({ runs: [run(`${prefix}_${i}`, 0, { snapshot })] });
      }
    }
    /** Pages in the database file itself (the WAL not counted). */
    const filePages = (path: string) => Math.floor(statSync(path).size / 4096);

    for (const writerThread of [false, true]) {
      it(`copy the WAL into the database file while the writer never does (writerThread ${writerThread})`, async () => {
        const path = tempPath();
        // walCheckpointPages 0: the writer never checkpoints; only the thread can.
        const s = sqliteStorage({ path, walCheckpointPages: 0, writerThread });
        await s.open();
        expect(s.info().backgroundCheckpoints).toBe(true);
        const before = filePages(path);
        await fill(s, 'run', 300);
        await expect
          .poll(() => filePages(path), { timeout: 5000, interval: 20 })
          .toBeGreaterThan(before + 200);
        // Reads see every commit, and the adapter closes with the thread's connection let go.
        expect((await s.getRun('run_299'))?.revision).toBe(1);
        await s.close();
      });
    }

    it('leave the database file alone when turned off', async () => {
      const path = tempPath();
      const s = sqliteStorage({ path, walCheckpointPages: 0, backgroundCheckpoints: false });
      await s.open();
      expect(s.info().backgroundCheckpoints).toBe(false);
      const before = filePages(path);
      await fill(s, 'run', 300);
      await new Promise((r) => setTimeout(r, 300));
      expect(filePages(path)).toBe(before);
      await s.close();
      expect(() => sqliteStorage({ path, backgroundCheckpoints: 1 as never })).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: expect.stringContaining('backgroundCheckpoints'),
        }),
      );
    });

    it('serve several databases at once, and none after they closed', async () => {
      const paths = [tempPath(), tempPath()];
      const stores = paths.map((path) => sqliteStorage({ path, walCheckpointPages: 0 }));
      for (const s of stores) await s.open();
      const before = paths.map(filePages);
      await Promise.all(stores.map((s, i) => fill(s, `db${i}`, 200)));
      for (const [i, path] of paths.entries()) {
        await expect
          .poll(() => filePages(path), { timeout: 5000, interval: 20 })
          .toBeGreaterThan((before[i] as number) + 100);
      }
      for (const s of stores) await s.close();
      // Closed: the files can go, and a database opened again on one path works.
      const again = sqliteStorage({ path: paths[0] as string });
      await again.open();
      expect((await again.getRun('db0_199'))?.revision).toBe(1);
      await again.close();
    });

    it('start only once an adapter has written enough to need them', async () => {
      const path = tempPath();
      const s = sqliteStorage({ path, walCheckpointPages: 0 });
      await s.open();
      const before = filePages(path);
      await fill(s, 'run', BACKGROUND_CHECKPOINTS_AFTER - 10);
      await new Promise((r) => setTimeout(r, 300));
      expect(filePages(path)).toBe(before);
      await fill(s, 'more', 20);
      await expect
        .poll(() => filePages(path), { timeout: 5000, interval: 20 })
        .toBeGreaterThan(before);
      await s.close();
    });

    it('are off for a private in-memory database', async () => {
      const s = sqliteStorage({ path: ':memory:' });
      await s.open();
      expect(s.info().backgroundCheckpoints).toBe(false);
      await s.close();
    });
  });

  it('writes on a worker thread when asked, reading on its own connection', async () => {
    const path = join(dir, 'threaded.db');
    const s = sqliteStorage({ path, writerThread: true, durability: 'batched' });
    await s.open();
    expect(s.info()).toMatchObject({ writerThread: true, schemaVersion: SCHEMA_VERSION });
    await Promise.all([
      s.commit({ runs: [run('run_1', 0)] }),
      s.commit({ runs: [run('run_2', 0)] }),
    ]);
    await expect(s.commit({ runs: [run('run_1', 0)] })).rejects.toSatisfy((e) =>
      isStorageError(e, 'REVISION_CONFLICT'),
    );
    await s.blobs.put('b', new Uint8Array([1, 2]));
    expect(await s.blobs.get('b')).toEqual(new Uint8Array([1, 2]));
    expect((await s.getRun('run_2'))?.revision).toBe(1);
    await s.close();
    const memory = sqliteStorage({ path: ':memory:', writerThread: true });
    await memory.open();
    expect(memory.info().writerThread).toBe(false);
    await memory.close();
    expect(() => sqliteStorage({ path, writerThread: 'yes' as never })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        message: expect.stringContaining('writerThread'),
      }),
    );
  });

  it('writes what arrives while the writer thread is busy as one group; a conflict rejects only its call', async () => {
    const s = sqliteStorage({ path: join(dir, 'grouped.db'), writerThread: true });
    await s.open();
    await s.commit({ runs: [run('run_0', 0)] });
    const calls = Array.from({ length: 20 }, (_, i) =>
      i === 7
        ? s.commit({ runs: [run('run_0', 0)] })
        : s.commit({ runs: [run(`run_${i + 1}`, 0, { events: [{ type: 'a', data: { i } }] })] }),
    );
    const settled = await Promise.allSettled(calls);
    expect(settled.map((r) => r.status)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i === 7 ? 'rejected' : 'fulfilled')),
    );
    const rejected = settled[7];
    expect(
      rejected?.status === 'rejected' && isStorageError(rejected.reason, 'REVISION_CONFLICT'),
    ).toBe(true);
    for (let i = 0; i < 20; i++) {
      if (i === 7) continue;
      expect((await s.listRunEvents(`run_${i + 1}`)).map((e) => e.data)).toEqual([{ i }]);
    }
    expect(await s.getRun('run_8')).toBeUndefined();
    await s.close();
  });

  it('fails the calls of a database whose writer thread ended, and starts a new thread after', async () => {
    const s = sqliteStorage({ path: join(dir, 'ended.db'), writerThread: true });
    await s.open();
    await s.commit({ runs: [run('run_1', 0)] });
    await terminateWriterThread();
    await expect(s.commit({ runs: [run('run_2', 0)] })).rejects.toSatisfy((e) =>
      isStorageError(e, 'DATABASE_ERROR'),
    );
    // Reads are this thread's own and still work.
    expect((await s.getRun('run_1'))?.revision).toBe(1);
    await s.close();
    const again = sqliteStorage({ path: join(dir, 'ended.db'), writerThread: true });
    await again.open();
    await again.commit({ runs: [run('run_2', 0)] });
    expect((await again.getRun('run_2'))?.revision).toBe(1);
    await again.close();
  });

  it('reports an opening failure of the writer thread as the opening error', async () => {
    const path = join(dir, 'too-new.db');
    const raw = new BetterSqlite3(path);
    migrate(raw, path);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)')
      .run(SCHEMA_VERSION + 1, 'future', 'x');
    raw.close();
    const s = sqliteStorage({ path, writerThread: true });
    await expect(s.open()).rejects.toSatisfy((e) => isStorageError(e, 'SCHEMA_TOO_NEW'));
  });

  it('works on :memory: (journal mode memory)', async () => {
    const s = sqliteStorage({ path: ':memory:' });
    await s.open();
    expect(s.info().journalMode).toBe('memory');
    await s.close();
  });

  it('wraps an unopenable path in DATABASE_ERROR', async () => {
    const s = sqliteStorage({ path: join(dir, 'no', 'such', 'dir', 'x.db') });
    await expect(s.open()).rejects.toSatisfy((e) => isStorageError(e, 'DATABASE_ERROR'));
  });
});

describe('snapshot patches', () => {
  /** The snapshot of revision `r` of a run: one step entry per revision, the last one open. */
  const snapshotAt = (id: string, r: number): JsonObject => ({
    id,
    revision: r,
    steps: Array.from({ length: r }, (_, i) => ({ n: i, status: i < r - 1 ? 'DONE' : 'OPEN' })),
  });
  const rows = (path: string, id: string) => {
    const raw = new BetterSqlite3(path, { readonly: true });
    const base = raw
      .prepare(
        'SELECT base_revision AS revision FROM run_snapshots WHERE run_seq = (SELECT seq FROM runs WHERE id = ?)',
      )
      .get(id) as { revision: number } | undefined;
    const patched = raw
      .prepare(
        'SELECT revision FROM run_events WHERE run_id = ? AND patch IS NOT NULL ORDER BY revision',
      )
      .all(id) as { revision: number }[];
    raw.close();
    return { base: base?.revision, patched: patched.map((p) => p.revision) };
  };

  for (const writerThread of [false, true]) {
    it(`stores patches between whole snapshots and reads every revision back whole (writerThread ${writerThread})`, async () => {
      const path = tempPath();
      const s = sqliteStorage({ path, writerThread, durability: 'batched' });
      await s.open();
      const ev = [{ type: 'e', data: {} }];
      await s.commit({ runs: [run('run_p', 0, { snapshot: snapshotAt('run_p', 1), events: ev })] });
      for (let r = 2; r <= 12; r++) {
        const prev = snapshotAt('run_p', r - 1);
        const next = snapshotAt('run_p', r);
        await s.commit({
          runs: [
            run('run_p', r - 1, { snapshot: next, patch: snapshotPatch(prev, next), events: ev }),
          ],
        });
        expect((await s.getRun('run_p'))?.snapshot).toEqual(next);
        expect((await s.listRuns()).items[0]?.snapshot).toEqual(next);
      }
      // Whole at revisions 1 and 9; the others are patches after the snapshot they follow.
      expect(rows(path, 'run_p')).toEqual({ base: 9, patched: [2, 3, 4, 5, 6, 7, 8, 10, 11, 12] });
      // A run that comes to rest is stored whole, so that it reads as one row.
      const last = snapshotAt('run_p', 13);
      await s.commit({
        runs: [
          run('run_p', 12, {
            active: false,
            snapshot: last,
            patch: snapshotPatch(snapshotAt('run_p', 12), last),
            events: ev,
          }),
        ],
      });
      expect(rows(path, 'run_p').base).toBe(13);
      expect((await s.getRun('run_p'))?.snapshot).toEqual(last);
      await s.close();
      // Across a reopen (no writer memory), and deleted with its run.
      const again = sqliteStorage({ path, writerThread });
      await again.open();
      expect((await again.getRun('run_p'))?.snapshot).toEqual(last);
      await again.commit({ deleteRuns: ['run_p'] });
      expect(await again.getRun('run_p')).toBeUndefined();
      await again.close();
      const raw = new BetterSqlite3(path, { readonly: true });
      expect(raw.prepare('SELECT count(*) AS c FROM run_snapshots').get()).toEqual({ c: 0 });
      raw.close();
    });
  }

  for (const writerThread of [false, true]) {
    it(`leaves the run row behind on commits that store a patch only; readers and other writers find the revision (writerThread ${writerThread})`, async () => {
      const path = tempPath();
      const a = sqliteStorage({ path, writerThread });
      const b = sqliteStorage({ path, exclusive: false });
      await a.open();
      await b.open();
      const ev = [{ type: 'e', data: {} }];
      const step = (from: number, extra: Partial<RunWrite> = {}) => {
        const next = snapshotAt('run_p', from + 1);
        return run('run_p', from, {
          snapshot: next,
          patch: snapshotPatch(snapshotAt('run_p', from), next),
          events: ev,
          at: `2026-01-01T00:00:0${from}.000Z`,
          ...extra,
        });
      };
      const rowRevision = () => {
        const raw = new BetterSqlite3(path, { readonly: true });
        const row = raw.prepare("SELECT revision FROM runs WHERE id = 'run_p'").get();
        raw.close();
        return (row as { revision: number }).revision;
      };
      await a.commit({ runs: [run('run_p', 0, { snapshot: snapshotAt('run_p', 1), events: ev })] });
      for (let from = 1; from <= 4; from++) await a.commit({ runs: [step(from)] });
      // The first patch marks the row (revision 2 past its snapshot's 1); 3 to 5 are event rows.
      expect(rowRevision()).toBe(2);
      for (const reader of [a, b]) {
        const record = await reader.getRun('run_p');
        expect(record?.revision).toBe(5);
        expect(record?.updatedAt).toBe('2026-01-01T00:00:04.000Z');
        expect(record?.snapshot).toEqual(snapshotAt('run_p', 5));
        expect((await reader.listRuns()).items[0]?.revision).toBe(5);
      }
      // b does not remember the run: it reads the revision from the event rows, and writes 6
      // with two events (so that a's event row would not collide with it by number alone).
      await b.commit({ runs: [step(5, { events: [...ev, ...ev] })] });
      // a remembered revision 5; it learns that another connection wrote since its last commit.
      await expect(a.commit({ runs: [step(5)] })).rejects.toMatchObject({
        code: 'REVISION_CONFLICT',
        details: { actualRevision: 6 },
      });
      // A stale write is refused with the run's real revision.
      await expect(a.commit({ runs: [step(4)] })).rejects.toMatchObject({
        code: 'REVISION_CONFLICT',
        details: { actualRevision: 6 },
      });
      await a.commit({ runs: [step(6, { status: 'DONE' })] });
      expect(rowRevision()).toBe(7);
      const record = await b.getRun('run_p');
      expect(record?.revision).toBe(7);
      expect(record?.status).toBe('DONE');
      expect(record?.snapshot).toEqual(snapshotAt('run_p', 7));
      expect((await b.listRunEvents('run_p')).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      await a.close();
      await b.close();
    });
  }

  it('stores the whole snapshot of a commit without events (its patch would have no row)', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path });
    await s.open();
    await s.commit({ runs: [run('run_q', 0, { snapshot: snapshotAt('run_q', 1) })] });
    const next = snapshotAt('run_q', 2);
    await s.commit({
      runs: [
        run('run_q', 1, { snapshot: next, patch: snapshotPatch(snapshotAt('run_q', 1), next) }),
      ],
    });
    expect(rows(path, 'run_q')).toEqual({ base: 2, patched: [] });
    expect((await s.getRun('run_q'))?.snapshot).toEqual(next);
    await s.close();
  });

  it('refuses a patch on a create or of the wrong shape, naming it, and stores nothing', async () => {
    const s = sqliteStorage({ path: tempPath() });
    await s.open();
    await expect(s.commit({ runs: [run('run_v', 0, { patch: [] })] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('changes.runs[0].patch is only for a run that exists'),
    });
    await s.commit({ runs: [run('run_v', 0)] });
    await expect(
      s.commit({ runs: [run('run_v', 1, { patch: [[['a', -1], 1]] as never })] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining(
        'changes.runs[0].patch[0][0][1] must be a string or a non-negative integer',
      ),
    });
    expect((await s.getRun('run_v'))?.revision).toBe(1);
    await s.close();
  });

  it('reports a run whose stored patches are missing as DATABASE_ERROR naming it', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path });
    await s.open();
    const ev = [{ type: 'e', data: {} }];
    await s.commit({ runs: [run('run_m', 0, { snapshot: snapshotAt('run_m', 1), events: ev })] });
    const next = snapshotAt('run_m', 2);
    await s.commit({
      runs: [
        run('run_m', 1, {
          snapshot: next,
          patch: snapshotPatch(snapshotAt('run_m', 1), next),
          events: ev,
        }),
      ],
    });
    const raw = new BetterSqlite3(path);
    raw.prepare("DELETE FROM run_events WHERE run_id = 'run_m' AND revision = 2").run();
    raw.close();
    await expect(s.getRun('run_m')).rejects.toMatchObject({
      code: 'DATABASE_ERROR',
      message: expect.stringContaining(
        'run run_m (revision 2, snapshot at 1): 1 patches expected, 0 stored',
      ),
    });
    await s.close();
  });

  it('moves the snapshots of a version-3 database into run_snapshots (migration 4)', async () => {
    const path = join(dir, 'v3.db');
    const raw = new BetterSqlite3(path);
    migrate(raw, path, MIGRATIONS.slice(0, 3));
    raw
      .prepare(
        `INSERT INTO runs (id, kind, status, active, priority, snapshot, revision, event_seq,
          created_at, updated_at, seq) VALUES
          ('run_o', 'workflow_run', 'DONE', 0, 50, '{"old":true}', 3, 4, 'x', 'x', 7)`,
      )
      .run();
    raw.close();
    const s = sqliteStorage({ path });
    await s.open();
    expect(await s.getRun('run_o')).toMatchObject({ revision: 3, snapshot: { old: true } });
    await s.commit({ runs: [run('run_o', 3, { snapshot: { old: false } })] });
    expect((await s.getRun('run_o'))?.snapshot).toEqual({ old: false });
    await s.close();
  });
});

describe('documents read by id', () => {
  const doc = (data: JsonObject, expectedRevision?: number) => ({
    collection: 'files' as const,
    id: 'file_1',
    data,
    ...(expectedRevision === undefined ? {} : { expectedRevision }),
  });

  it('sees a write made through another adapter of the same file in this process', async () => {
    const path = tempPath();
    const a = sqliteStorage({ path });
    const b = sqliteStorage({ path, writerThread: true, exclusive: false });
    await a.open();
    await b.open();
    try {
      await a.commit({ documents: [doc({ v: 1 })] });
      expect((await a.getDocument('files', 'file_1'))?.data).toEqual({ v: 1 });
      expect((await b.getDocument('files', 'file_1'))?.data).toEqual({ v: 1 });
      await b.commit({ documents: [doc({ v: 2 }, 1)] });
      expect((await a.getDocument('files', 'file_1'))?.data).toEqual({ v: 2 });
      await b.commit({ deleteDocuments: [{ collection: 'files', id: 'file_1' }] });
      expect(await a.getDocument('files', 'file_1')).toBeUndefined();
      expect(await b.getDocument('files', 'file_1')).toBeUndefined();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it.each(['batched', 'normal'] as const)(
    'does not keep what a read found between a %s commit call and its write',
    async (durability) => {
      const s = sqliteStorage({ path: tempPath(), durability });
      await s.open();
      try {
        await s.commit({ documents: [doc({ v: 1 })] });
        await s.getDocument('files', 'file_1');
        const written = s.commit({ documents: [doc({ v: 2 }, 1)] });
        // Not written yet: the read finds the stored revision (and may cache it).
        expect((await s.getDocument('files', 'file_1'))?.revision).toBe(1);
        await written;
        const after = await s.getDocument('files', 'file_1');
        expect(after?.data).toEqual({ v: 2 });
        expect(after?.revision).toBe(2);
      } finally {
        await s.close();
      }
    },
  );

  it('hands out a fresh copy on every read', async () => {
    const s = sqliteStorage({ path: tempPath() });
    await s.open();
    try {
      await s.commit({ documents: [doc({ list: [1] })] });
      const first = await s.getDocument('files', 'file_1');
      if (first === undefined) throw new Error('missing');
      (first.data.list as number[]).push(2);
      expect((await s.getDocument('files', 'file_1'))?.data).toEqual({ list: [1] });
    } finally {
      await s.close();
    }
  });
});

describe('batched group commit', () => {
  it('commits one tick in one transaction; a conflict in the middle rejects only its own call', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path, durability: 'batched' });
    await s.open();
    await s.commit({ runs: [run('run_0', 0)] });
    const reader = new BetterSqlite3(path, { readonly: true });
    const count = () => (reader.prepare('SELECT count(*) AS c FROM runs').get() as { c: number }).c;

    const calls = [
      s.commit({ runs: [run('run_1', 0, { events: [{ type: 'a', data: {} }] })] }),
      s.commit({ runs: [run('run_2', 0)] }),
      s.commit({
        runs: [run('run_0', 0, { events: [{ type: 'conflict', data: {} }] })],
        enqueue: [{ id: 'w', runId: 'run_0', kind: 'step', priority: 1, payload: {} }],
      }),
      s.commit({ runs: [run('run_3', 0)] }),
      s.commit({
        runs: [run('run_1', 1, { status: 'PROCESSING', events: [{ type: 'b', data: {} }] })],
      }),
    ];
    // Nothing is written before the tick ends.
    expect(count()).toBe(1);
    const settled = await Promise.allSettled(calls);
    expect(settled.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    const rejected = settled[2];
    expect(
      rejected?.status === 'rejected' && isStorageError(rejected.reason, 'REVISION_CONFLICT'),
    ).toBe(true);
    // Resolved means committed: another connection sees every acknowledged write.
    expect(count()).toBe(4);
    expect(reader.prepare('SELECT revision, status FROM runs WHERE id = ?').get('run_1')).toEqual({
      revision: 2,
      status: 'PROCESSING',
    });
    expect(reader.prepare('SELECT count(*) AS c FROM work').get()).toEqual({ c: 0 });
    expect((await s.listRunEvents('run_1')).map((e) => [e.seq, e.type])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(await s.listRunEvents('run_0')).toEqual([]);
    reader.close();
    await s.close();
  });

  for (const durability of ['normal', 'full'] as const) {
    it(`${durability}: commits made in one turn share a transaction, with no delay for a lone one`, async () => {
      /** WAL frames written by four run creations, made in one turn or one after the other. */
      const frames = async (together: boolean) => {
        const path = tempPath();
        const s = sqliteStorage({
          path,
          durability,
          backgroundCheckpoints: false,
          walCheckpointPages: 0,
        });
        await s.open();
        const reader = new BetterSqlite3(path, { readonly: true });
        const count = () =>
          (reader.prepare('SELECT count(*) AS c FROM runs').get() as { c: number }).c;
        const walFrames = () => statSync(`${path}-wal`).size;
        const before = walFrames();
        const ids = ['run_1', 'run_2', 'run_3', 'run_4'];
        if (together) {
          const calls = ids.map((id) => s.commit({ runs: [run(id, 0)] }));
          // Written once the caller's turn is over, not while it makes its commits.
          expect(count()).toBe(0);
          await Promise.all(calls);
        } else {
          for (const id of ids) {
            // A lone commit is written before the event loop turns: no timer holds it.
            const written = new Promise<number>((resolve) => setImmediate(() => resolve(count())));
            await s.commit({ runs: [run(id, 0)] });
            expect(await written).toBe(ids.indexOf(id) + 1);
          }
        }
        expect(count()).toBe(4);
        const grown = walFrames() - before;
        reader.close();
        await s.close();
        return grown;
      };
      // One transaction writes each page it touches once; four write the shared pages four times.
      expect(await frames(true)).toBeLessThan((await frames(false)) / 2);
    });
  }

  it('stores what was passed to commit(), whatever the caller changes before the tick ends', async () => {
    const s = sqliteStorage({ path: tempPath(), durability: 'batched' });
    await s.open();
    const snapshot: Record<string, unknown> = { step: 1 };
    const write = run('run_1', 0, {
      snapshot: snapshot as never,
      events: [{ type: 'a', data: { n: 1 } }],
    });
    const payload: Record<string, unknown> = { n: 1 };
    const item = { id: 'w', runId: 'run_1', kind: 'step', priority: 1, payload: payload as never };
    const pending = s.commit({ runs: [write], enqueue: [item] });
    snapshot.step = 2;
    (write as { status: string }).status = 'CHANGED';
    (write.events?.[0]?.data as Record<string, unknown>).n = 2;
    payload.n = 2;
    (item as { priority: number }).priority = 99;
    await pending;
    expect(await s.getRun('run_1')).toMatchObject({ status: 'PENDING', snapshot: { step: 1 } });
    expect((await s.listRunEvents('run_1'))[0]?.data).toEqual({ n: 1 });
    expect((await s.listWork())[0]).toMatchObject({ priority: 1, payload: { n: 1 } });
    await s.close();
  });

  it('flushes pending commits on close()', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path, durability: 'batched' });
    await s.open();
    const pending = s.commit({ runs: [run('run_1', 0)] });
    await s.close();
    await expect(pending).resolves.toEqual({ runRevisions: { run_1: 1 }, documentRevisions: {} });
    const again = sqliteStorage({ path });
    await again.open();
    expect(await again.getRun('run_1')).toBeDefined();
    await again.close();
  });
});

describe('persistence', () => {
  it('keeps every kind of row across close and reopen, and keeps seq order going', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path });
    await s.open();
    await s.blobs.put('blob_1', new Uint8Array([7, 8, 9]));
    await s.commit({
      documents: [
        {
          collection: 'files',
          id: 'file_1',
          key: 'k',
          name: 'a.txt',
          blobKey: 'blob_1',
          data: { size: 3 },
        },
      ],
      runs: [run('run_1', 0, { events: [{ type: 'created', data: {} }] })],
      enqueue: [{ id: 'w1', runId: 'run_1', kind: 'step', priority: 5, payload: { x: 1 } }],
      deliveries: [
        {
          id: 'd1',
          endpointId: 'e',
          eventId: 'ev',
          eventType: 't',
          event: {},
          status: 'pending',
          attempts: [],
          nextAttemptAt: '2030-01-01T00:00:00.000Z',
        },
      ],
    });
    const before = {
      doc: await s.getDocumentByKey('files', 'k'),
      run: await s.getRun('run_1'),
      events: await s.listRunEvents('run_1'),
      work: await s.listWork(),
      delivery: await s.getDelivery('d1'),
    };
    await s.close();

    const again = sqliteStorage({ path });
    await again.open();
    expect({
      doc: await again.getDocumentByKey('files', 'k'),
      run: await again.getRun('run_1'),
      events: await again.listRunEvents('run_1'),
      work: await again.listWork(),
      delivery: await again.getDelivery('d1'),
    }).toEqual(before);
    expect(await again.blobs.get('blob_1')).toEqual(new Uint8Array([7, 8, 9]));
    await again.commit({
      runs: [run('run_2', 0)],
      enqueue: [{ id: 'w2', runId: 'run_2', kind: 'step', priority: 5, payload: {} }],
    });
    expect((await again.listRuns({ order: 'asc' })).items.map((r) => r.id)).toEqual([
      'run_1',
      'run_2',
    ]);
    expect((await again.listWork()).map((w) => w.id)).toEqual(['w1', 'w2']);
    await again.close();
  });

  it('never hands out a seq twice, even after the newest rows were deleted and the file reopened', async () => {
    const path = tempPath();
    const s = sqliteStorage({ path });
    await s.open();
    await s.commit({ runs: [run('run_1', 0), run('run_2', 0)] });
    const page = await s.listRuns({ order: 'asc', pageSize: 1 });
    await s.commit({ deleteRuns: ['run_2'] });
    await s.close();
    const again = sqliteStorage({ path });
    await again.open();
    await again.commit({ runs: [run('run_3', 0)] });
    // The cursor stopped after run_1; run_3 is newer than the deleted run_2 and must follow.
    const next = await again.listRuns({ order: 'asc', pageSize: 1, pageToken: page.nextPageToken });
    expect(next.items.map((r) => r.id)).toEqual(['run_3']);
    await again.close();
  });
});

describe('indexes', () => {
  // Each list shape the adapter issues, as its condition list (see sqlite-storage.ts).
  const shapes: ['documents' | 'runs' | 'deliveries', string[]][] = [
    ['documents', ['collection = ?']],
    ['documents', ['collection = ?', 'parent_id = ?']],
    ['documents', ['collection = ?', 'secondary_id = ?']],
    ['documents', ['collection = ?', 'instr(name_folded, ?) > 0']],
    [
      'documents',
      ['collection = ?', 'parent_id = ?', 'secondary_id = ?', 'instr(name_folded, ?) > 0'],
    ],
    ['runs', []],
    ['runs', ['kind = ?']],
    ['runs', ['workflow_id = ?']],
    ['runs', ['batch_id = ?']],
    ['runs', ['status = ?']],
    ['runs', ['active = ?']],
    ['runs', ['kind = ?', 'workflow_id = ?', 'batch_id = ?', 'status = ?', 'active = ?']],
    ['deliveries', []],
    ['deliveries', ['endpoint_id = ?']],
    ['deliveries', ['event_id = ?']],
    ['deliveries', ['status = ?']],
    ['deliveries', ['endpoint_id = ?', 'event_id = ?', 'status = ?']],
  ];

  function plan(db: BetterSqlite3.Database, sql: string): string[] {
    // Parameters become literals so that the plan can be asked for without binding values.
    const literal = sql
      .replace(/\?/g, '1')
      .replace(/@kinds/g, "'[]'")
      .replace(/@\w+/g, '1');
    return (db.prepare(`EXPLAIN QUERY PLAN ${literal}`).all() as { detail: string }[]).map(
      (r) => r.detail,
    );
  }

  function expectIndexed(details: string[], sql: string): void {
    for (const d of details) {
      expect(
        d.startsWith('SCAN') &&
          !d.includes('USING') &&
          !d.includes('VIRTUAL TABLE') &&
          d !== 'SCAN CONSTANT ROW',
        `full scan in ${sql}: ${d}`,
      ).toBe(false);
      expect(d, `sort in ${sql}`).not.toContain('TEMP B-TREE');
    }
  }

  it('serves every list query from an index, without sorting', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, ':memory:');
    for (const [table, conditions] of shapes) {
      for (const order of ['asc', 'desc'] as const) {
        for (const cursor of [false, true]) {
          const sql = keysetSelect(table, conditions, order, cursor);
          expectIndexed(plan(db, sql), sql);
        }
      }
    }
    db.close();
  });

  it('serves every fixed statement (claims, lookups, deletes) from an index', () => {
    const db = new BetterSqlite3(':memory:');
    migrate(db, ':memory:');
    const statements = prepareStatements(db);
    const all = [
      ...Object.values(statements).filter((v) => 'source' in v),
      ...Object.values(statements.maxSeq),
    ] as BetterSqlite3.Statement[];
    // `work_leased` holds only what engines are executing (bounded by their concurrency), so its
    // lookups by expiry or run scan it on purpose: an index would cost every step commit a page.
    const scansLeased = [
      statements.workLeasedDeleteByRun,
      statements.workLeasedExpired,
      statements.workLeasedRequeue,
      statements.workLeasedRequeueDelete,
      statements.workList,
      statements.workListByRun,
    ];
    // `nextClaimableAt` is asked when a process has nothing to do (to sleep until then): it
    // scans the queue and the pending deliveries rather than costing every enqueue an index.
    const scans: BetterSqlite3.Statement[] = [statements.nextClaimable];
    for (const statement of all) {
      if (/^\s*INSERT/i.test(statement.source) && !/SELECT/i.test(statement.source)) continue;
      if (scans.includes(statement)) continue;
      if (scansLeased.includes(statement)) {
        for (const d of plan(db, statement.source)) {
          if (d.startsWith('SCAN') && !d.includes('USING')) expect(d).toMatch(/work_leased/);
        }
        continue;
      }
      expectIndexed(plan(db, statement.source), statement.source);
    }
    db.close();
  });
});
