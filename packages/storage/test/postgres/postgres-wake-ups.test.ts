import type { StorageWakeUp } from '@docflow/storage';
import type { PostgresStorageAdapter } from '@docflow/storage/postgres';
import { postgresStorage } from '@docflow/storage/postgres';
import { postgresForTests } from '@docflow/storage/testing';
import pg from 'pg';
import { describe, expect, it, onTestFinished, vi } from 'vitest';

const pgTest = postgresForTests();

const T0 = Date.UTC(2030, 0, 1);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

async function pair(): Promise<[PostgresStorageAdapter, PostgresStorageAdapter]> {
  const schema = pgTest.schema();
  const make = (name: string) =>
    postgresStorage(
      { connectionString: pgTest.url },
      { schema, maxConnections: 3, applicationName: `wake-${name}-${schema}` },
    );
  const a = make('a');
  const b = make('b');
  onTestFinished(async () => {
    await a.close();
    await b.close();
  });
  await a.open();
  await b.open();
  return [a, b];
}

/** Subscribes and collects wake-ups. */
async function collect(s: PostgresStorageAdapter) {
  const heard: StorageWakeUp[] = [];
  const unsubscribe = await s.subscribe((w) => heard.push(w));
  return { heard, unsubscribe };
}

const item = (id: string, extra: object = {}) => ({
  id,
  runId: 'run_1',
  kind: 'step',
  priority: 40,
  availableAt: at(0),
  payload: {},
  ...extra,
});

describe.skipIf(pgTest.skip)('PostgreSQL wake-ups (LISTEN/NOTIFY)', () => {
  it('wakes every subscriber when work or deliveries become claimable or runs settle, saying whose commit it was', async () => {
    const [a, b] = await pair();
    const fromA = await collect(a);
    const fromB = await collect(b);
    await a.commit({
      enqueue: [item('w1'), item('w2', { priority: 7, availableAt: at(30) })],
    });
    const expected = { topic: 'work', availableAt: at(0), priority: 7 };
    await vi.waitFor(() => expect(fromB.heard).toEqual([{ ...expected, local: false }]));
    await vi.waitFor(() => expect(fromA.heard).toEqual([{ ...expected, local: true }]));

    // Work leased at enqueue is its enqueuer's: nobody is woken for it. A pending delivery is.
    fromB.heard.length = 0;
    await a.commit({ enqueue: [item('mine', { lease: { owner: 'A', leaseMs: 60_000 } })] });
    await a.commit({
      deliveries: [
        {
          id: 'd1',
          endpointId: 'e',
          eventId: 'ev',
          eventType: 'workflow_run.processed',
          event: {},
          status: 'pending',
          attempts: [],
          nextAttemptAt: at(90),
        },
      ],
    });
    await vi.waitFor(() =>
      expect(fromB.heard).toEqual([{ topic: 'deliveries', availableAt: at(90), local: false }]),
    );

    // Released work is claimable again.
    fromB.heard.length = 0;
    await a.claimWork({ owner: 'A', limit: 1, leaseMs: 60_000, now: at(1) });
    await a.releaseWork(['w1'], { owner: 'A', availableAt: at(5) });
    await vi.waitFor(() =>
      expect(fromB.heard).toMatchObject([{ topic: 'work', availableAt: at(5), local: false }]),
    );

    // Runs written with `settles` are named to everyone (the engine's waiters read them again);
    // other run writes wake nobody. Too many ids for one notification: "look at all".
    fromB.heard.length = 0;
    const runWrite = (id: string, settles?: boolean) => ({
      id,
      kind: 'workflow_run',
      status: settles ? 'PROCESSED' : 'PROCESSING',
      active: !settles,
      priority: 50,
      snapshot: {},
      expectedRevision: 0,
      ...(settles === undefined ? {} : { settles }),
    });
    await a.commit({ runs: [runWrite('r1'), runWrite('r2', true), runWrite('r3', false)] });
    await vi.waitFor(() =>
      expect(fromB.heard).toEqual([{ topic: 'runs', runIds: ['r2'], local: false }]),
    );
    fromB.heard.length = 0;
    const many = Array.from({ length: 65 }, (_, i) => runWrite(`many_${i}`, true));
    await a.commit({ runs: many });
    await vi.waitFor(() => expect(fromB.heard).toEqual([{ topic: 'runs', local: false }]));
    await expect(
      a.commit({ runs: [{ ...runWrite('r4'), settles: 'yes' as never }] }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      details: { path: 'changes.runs[0].settles' },
    });

    // After unsubscribing, B hears nothing more; A still does.
    await fromB.unsubscribe();
    fromB.heard.length = 0;
    fromA.heard.length = 0;
    await b.commit({ enqueue: [item('w3')] });
    await vi.waitFor(() => expect(fromA.heard).toMatchObject([{ topic: 'work', local: false }]));
    expect(fromB.heard).toEqual([]);
  });

  it('reconnects when its connection is lost and tells subscribers to look', async () => {
    const [a, b] = await pair();
    const fromB = await collect(b);
    const admin = new pg.Client({ connectionString: pgTest.url });
    await admin.connect();
    onTestFinished(() => admin.end());
    const info = await b.info();
    const killed = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = $1 AND query LIKE 'LISTEN%'`,
      [`wake-b-${info.schema}`],
    );
    expect(killed.rowCount).toBe(1);
    // Wake-ups sent meanwhile are lost: once listening again, B says "look".
    await vi.waitFor(
      () =>
        expect(fromB.heard).toEqual([
          { topic: 'work', local: false },
          { topic: 'deliveries', local: false },
          { topic: 'runs', local: false },
        ]),
      { timeout: 10_000 },
    );
    fromB.heard.length = 0;
    await a.commit({ enqueue: [item('after')] });
    await vi.waitFor(() =>
      expect(fromB.heard).toEqual([
        { topic: 'work', availableAt: at(0), priority: 40, local: false },
      ]),
    );
  });
});
