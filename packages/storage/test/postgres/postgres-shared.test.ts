import type { PostgresStorageAdapter } from '@docflow/storage/postgres';
import { POSTGRES_SCHEMA_VERSION, postgresStorage } from '@docflow/storage/postgres';
import { postgresForTests } from '@docflow/storage/testing';
import { describe, expect, it, onTestFinished } from 'vitest';

/**
 * Several adapter instances on one schema, as several engine processes would be: each has its
 * own pool and connections, so these are the database's guarantees, not one adapter's.
 */
const pg = postgresForTests();

const T0 = Date.UTC(2030, 0, 1);
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

/** `count` adapters on one new schema, opened (concurrently: the migration lock decides). */
async function instances(count: number): Promise<PostgresStorageAdapter[]> {
  const schema = pg.schema();
  const all = Array.from({ length: count }, () =>
    postgresStorage({ connectionString: pg.url }, { schema, maxConnections: 4 }),
  );
  onTestFinished(async () => {
    await Promise.all(all.map((s) => s.close()));
  });
  await Promise.all(all.map((s) => s.open()));
  return all;
}

function item(id: string, priority: number, extra: object = {}) {
  return { id, runId: 'run_1', kind: 'step', priority, availableAt: at(0), payload: {}, ...extra };
}

describe.skipIf(pg.skip)('PostgreSQL shared by several adapters', () => {
  it('opens one new schema from several adapters at once, migrating it once', async () => {
    const [a] = await instances(4);
    const info = await (a as PostgresStorageAdapter).info();
    expect(info).toMatchObject({
      schemaVersion: POSTGRES_SCHEMA_VERSION,
      synchronousCommit: 'on',
    });
  });

  it('claims across adapters in global priority order, then FIFO', async () => {
    const [a, b, c] = (await instances(3)) as [
      PostgresStorageAdapter,
      PostgresStorageAdapter,
      PostgresStorageAdapter,
    ];
    // Enqueued by different adapters, in this order.
    await a.commit({ enqueue: [item('a50', 50), item('a10', 10)] });
    await b.commit({ enqueue: [item('b50', 50), item('b10', 10)] });
    await c.commit({ enqueue: [item('c90', 90), item('c1', 1)] });
    const claim = (s: PostgresStorageAdapter, owner: string, limit: number) =>
      s.claimWork({ owner, limit, leaseMs: 60_000, now: at(1) });
    expect((await claim(b, 'b', 2)).map((w) => w.id)).toEqual(['c1', 'a10']);
    expect((await claim(c, 'c', 2)).map((w) => w.id)).toEqual(['b10', 'a50']);
    expect((await claim(a, 'a', 5)).map((w) => w.id)).toEqual(['b50', 'c90']);
  });

  it('gives every item to exactly one of many concurrent claimers, most urgent first', async () => {
    const adapters = await instances(4);
    const [first] = adapters as [PostgresStorageAdapter];
    const items = Array.from({ length: 200 }, (_, i) => item(`w${i}`, 1 + ((i * 37) % 100)));
    await first.commit({ enqueue: items });
    const claimed = new Map<string, string>();
    const rounds: { owner: string; priorities: number[] }[] = [];
    await Promise.all(
      adapters.flatMap((s, n) =>
        [0, 1].map(async (k) => {
          const owner = `claimer_${n}_${k}`;
          for (;;) {
            const got = await s.claimWork({ owner, limit: 3, leaseMs: 60_000, now: at(1) });
            if (got.length === 0) return;
            rounds.push({ owner, priorities: got.map((w) => w.priority) });
            for (const w of got) {
              expect(claimed.get(w.id), `${w.id} claimed twice`).toBeUndefined();
              claimed.set(w.id, owner);
            }
          }
        }),
      ),
    );
    expect(claimed.size).toBe(200);
    // Each claim takes the most urgent items it can see: within a claim, in order.
    for (const r of rounds) expect(r.priorities).toEqual([...r.priorities].sort((x, y) => x - y));
    expect(new Set(claimed.values()).size).toBeGreaterThan(1);
  });

  it('leases expire and renew across adapters; the taken-over holder cannot commit (LEASE_LOST)', async () => {
    const [a, b] = (await instances(2)) as [PostgresStorageAdapter, PostgresStorageAdapter];
    await a.commit({
      runs: [
        {
          id: 'run_1',
          kind: 'workflow_run',
          status: 'PROCESSING',
          active: true,
          priority: 50,
          snapshot: { step: 'one' },
          expectedRevision: 0,
        },
      ],
      enqueue: [item('w1', 50)],
    });
    const [mine] = await a.claimWork({ owner: 'A', limit: 1, leaseMs: 10_000, now: at(1) });
    expect(mine).toMatchObject({ id: 'w1', attempts: 1, leaseExpiresAt: at(11) });
    // A renews before expiry: B finds nothing at a time the first lease would have expired.
    expect(await a.renewWork(['w1'], { owner: 'A', leaseMs: 10_000, now: at(8) })).toEqual(['w1']);
    expect(await b.claimWork({ owner: 'B', limit: 1, leaseMs: 10_000, now: at(12) })).toEqual([]);
    // A stops renewing; B takes the item over once the lease expired.
    const [taken] = await b.claimWork({ owner: 'B', limit: 1, leaseMs: 10_000, now: at(18) });
    expect(taken).toMatchObject({ id: 'w1', attempts: 2, leaseOwner: 'B' });
    expect(await a.renewWork(['w1'], { owner: 'A', leaseMs: 10_000, now: at(19) })).toEqual([]);
    const stale = await a
      .commit({
        fences: [{ workId: 'w1', owner: 'A', attempts: 1 }],
        runs: [
          {
            id: 'run_1',
            kind: 'workflow_run',
            status: 'PROCESSED',
            active: false,
            priority: 50,
            snapshot: { step: 'done by A' },
            expectedRevision: 1,
          },
        ],
        dequeue: ['w1'],
      })
      .catch((e: unknown) => e);
    expect(stale).toMatchObject({ code: 'LEASE_LOST' });
    expect(String((stale as Error).message)).toContain('B (attempt 2)');
    // B's outcome lands; A's never did.
    await b.commit({
      fences: [{ workId: 'w1', owner: 'B', attempts: 2 }],
      runs: [
        {
          id: 'run_1',
          kind: 'workflow_run',
          status: 'PROCESSED',
          active: false,
          priority: 50,
          snapshot: { step: 'done by B' },
          expectedRevision: 1,
        },
      ],
      dequeue: ['w1'],
    });
    expect(await a.getRun('run_1')).toMatchObject({ revision: 2, snapshot: { step: 'done by B' } });
    expect(await a.listWork()).toEqual([]);
  });

  it('lets either a fenced commit or a takeover win a race, never both', async () => {
    const [a, b] = (await instances(2)) as [PostgresStorageAdapter, PostgresStorageAdapter];
    let commits = 0;
    let takeovers = 0;
    for (let i = 0; i < 30; i++) {
      const id = `w${i}`;
      await a.commit({ enqueue: [item(id, 50)] });
      await a.claimWork({ owner: 'A', limit: 1, leaseMs: 1000, now: at(1) });
      // The lease has expired: A commits its outcome while B claims the item.
      const [committed, claimed] = await Promise.all([
        a
          .commit({
            fences: [{ workId: id, owner: 'A', attempts: 1 }],
            dequeue: [id],
            documents: [
              { collection: 'workflows', id: `done_${id}`, data: {}, expectedRevision: 0 },
            ],
          })
          .then(
            () => true,
            (e: { code?: string }) => {
              expect(e.code).toBe('LEASE_LOST');
              return false;
            },
          ),
        b.claimWork({ owner: 'B', limit: 1, leaseMs: 1000, now: at(5) }),
      ]);
      expect(committed && claimed.length > 0, `${id}: both won`).toBe(false);
      expect(committed || claimed.length > 0, `${id}: neither won`).toBe(true);
      if (committed) commits++;
      else {
        takeovers++;
        await b.commit({ dequeue: [id] });
      }
    }
    expect(commits + takeovers).toBe(30);
  });

  it('delivers each outbox row to one claimer at a time, again after its lease expires', async () => {
    const [a, b] = (await instances(2)) as [PostgresStorageAdapter, PostgresStorageAdapter];
    const deliveries = Array.from({ length: 20 }, (_, i) => ({
      id: `d${i}`,
      endpointId: 'endpoint_1',
      eventId: `event_${i}`,
      eventType: 'workflow_run.processed',
      event: { i },
      status: 'pending' as const,
      attempts: [],
      nextAttemptAt: at(i % 5),
    }));
    await a.commit({ deliveries });
    const [fromA, fromB] = await Promise.all([
      a.claimDeliveries({ owner: 'A', limit: 12, leaseMs: 30_000, now: at(10) }),
      b.claimDeliveries({ owner: 'B', limit: 12, leaseMs: 30_000, now: at(10) }),
    ]);
    const ids = [...fromA, ...fromB].map((d) => d.id);
    expect(new Set(ids).size).toBe(20);
    expect(ids).toHaveLength(20);
    // Nothing is claimable while leased; everything A held comes back to B after expiry.
    expect(
      await b.claimDeliveries({ owner: 'B', limit: 20, leaseMs: 30_000, now: at(39) }),
    ).toEqual([]);
    const again = await b.claimDeliveries({ owner: 'B2', limit: 20, leaseMs: 30_000, now: at(41) });
    expect(again.map((d) => d.id).sort()).toEqual(ids.sort());
    // The first claimers' results are fenced off.
    const first = fromA[0] ?? fromB[0];
    const owner = fromA[0] === undefined ? 'B' : 'A';
    const write = deliveries.find((d) => d.id === first?.id);
    await expect(
      a.commit({
        fences: [{ deliveryId: first?.id as string, owner }],
        deliveries: [{ ...(write as (typeof deliveries)[number]), status: 'succeeded' }],
      }),
    ).rejects.toMatchObject({ code: 'LEASE_LOST' });
  });

  it('shows blobs and delayed work written by one adapter to the others', async () => {
    const [a, b] = (await instances(2)) as [PostgresStorageAdapter, PostgresStorageAdapter];
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    await a.blobs.put('file_1', bytes);
    const read = await b.blobs.get('file_1');
    // Compared as buffers: vitest's deep equality walks 300,000 elements for seconds.
    expect(read instanceof Uint8Array && Buffer.from(read).equals(bytes)).toBe(true);
    await b.blobs.delete('file_1');
    expect(await a.blobs.get('file_1')).toBeUndefined();
    await a.commit({ enqueue: [item('retry', 5, { availableAt: at(60) })] });
    expect(await b.nextClaimableAt()).toEqual({ work: at(60) });
    expect(await b.claimWork({ owner: 'B', limit: 1, leaseMs: 1000, now: at(59) })).toEqual([]);
    expect(
      (await b.claimWork({ owner: 'B', limit: 1, leaseMs: 1000, now: at(60) })).map((w) => w.id),
    ).toEqual(['retry']);
  });
});
