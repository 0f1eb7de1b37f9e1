import { describe, expect, it } from 'vitest';
import type { ContractContext } from './contract-helpers.ts';
import { at, delivery, expectStorageError, runWrite, workItem } from './contract-helpers.ts';

/** The work queue and the delivery outbox: ordering, leases, expiry. */
export function describeQueue(ctx: ContractContext): void {
  describe('work queue', () => {
    it('enqueues items unclaimed; enqueuing an existing id leaves it as it is', async () => {
      const s = ctx.storage();
      await s.commit({ enqueue: [workItem('w1', { payload: { v: 1 } })] });
      await s.commit({ enqueue: [workItem('w1', { payload: { v: 2 }, priority: 1 })] });
      const [item, ...rest] = await s.listWork();
      expect(rest).toEqual([]);
      expect(item).toMatchObject({
        id: 'w1',
        runId: 'run_1',
        kind: 'step',
        priority: 50,
        availableAt: at(0),
        payload: { v: 1 },
        attempts: 0,
      });
      expect(item?.leaseOwner).toBeUndefined();
      expect(item?.leaseExpiresAt).toBeUndefined();
    });

    it('claims by priority, then FIFO, up to the limit', async () => {
      const s = ctx.storage();
      await s.commit({
        enqueue: [workItem('a', { priority: 50 }), workItem('b', { priority: 10 })],
      });
      await s.commit({
        enqueue: [workItem('c', { priority: 50 }), workItem('d', { priority: 10 })],
      });
      await s.commit({
        enqueue: [workItem('e', { priority: 100 }), workItem('f', { priority: 1 })],
      });
      expect((await s.listWork()).map((w) => w.id)).toEqual(['f', 'b', 'd', 'a', 'c', 'e']);
      const first = await s.claimWork({ owner: 'w1', limit: 3, leaseMs: 60_000, now: at(1) });
      expect(first.map((w) => w.id)).toEqual(['f', 'b', 'd']);
      const second = await s.claimWork({ owner: 'w2', limit: 10, leaseMs: 60_000, now: at(1) });
      expect(second.map((w) => w.id)).toEqual(['a', 'c', 'e']);
      expect(await s.claimWork({ owner: 'w3', limit: 10, leaseMs: 60_000, now: at(1) })).toEqual(
        [],
      );
      const seqs = (await s.listWork()).filter((w) => w.priority === 50).map((w) => w.seq);
      expect(seqs[0]).toBeLessThan(seqs[1] ?? 0);
    });

    it('leases a claimed item until it expires, then gives it to the next claimer', async () => {
      const s = ctx.storage();
      await s.commit({ enqueue: [workItem('w1')] });
      const [claimed] = await s.claimWork({
        owner: 'alice',
        limit: 1,
        leaseMs: 30_000,
        now: at(10),
      });
      expect(claimed).toMatchObject({
        id: 'w1',
        attempts: 1,
        leaseOwner: 'alice',
        leaseExpiresAt: at(40),
      });
      expect((await s.listWork())[0]).toMatchObject({ leaseOwner: 'alice', attempts: 1 });
      expect(await s.claimWork({ owner: 'bob', limit: 1, leaseMs: 30_000, now: at(39) })).toEqual(
        [],
      );
      const [again] = await s.claimWork({ owner: 'bob', limit: 1, leaseMs: 30_000, now: at(40) });
      expect(again).toMatchObject({
        id: 'w1',
        attempts: 2,
        leaseOwner: 'bob',
        leaseExpiresAt: at(70),
      });
      // Alice lost the lease: she can neither renew nor release it.
      expect(await s.renewWork(['w1'], { owner: 'alice', leaseMs: 1000, now: at(41) })).toEqual([]);
      await s.releaseWork(['w1'], { owner: 'alice' });
      expect((await s.listWork())[0]?.leaseOwner).toBe('bob');
    });

    it('does not claim items before availableAt', async () => {
      const s = ctx.storage();
      await s.commit({
        enqueue: [
          workItem('later', { availableAt: at(100), priority: 1 }),
          workItem('now', { availableAt: at(0) }),
        ],
      });
      expect(
        (await s.claimWork({ owner: 'w', limit: 5, leaseMs: 600_000, now: at(50) })).map(
          (w) => w.id,
        ),
      ).toEqual(['now']);
      expect(
        (await s.claimWork({ owner: 'w', limit: 5, leaseMs: 600_000, now: at(100) })).map(
          (w) => w.id,
        ),
      ).toEqual(['later']);
    });

    it('defaults availableAt to the commit time and now to the clock', async () => {
      const s = ctx.storage();
      await s.commit({
        enqueue: [{ id: 'w1', runId: 'run_1', kind: 'step', priority: 5, payload: {} }],
      });
      const [item] = await s.listWork();
      expect(Number.isNaN(Date.parse(item?.availableAt ?? ''))).toBe(false);
      expect(
        (await s.claimWork({ owner: 'w', limit: 1, leaseMs: 60_000 })).map((w) => w.id),
      ).toEqual(['w1']);
    });

    it('filters claims by kind', async () => {
      const s = ctx.storage();
      await s.commit({
        enqueue: [
          workItem('a', { kind: 'step' }),
          workItem('b', { kind: 'resume' }),
          workItem('c', { kind: 'timer' }),
        ],
      });
      const claimed = await s.claimWork({
        owner: 'w',
        limit: 5,
        leaseMs: 1000,
        now: at(1),
        kinds: ['resume', 'timer'],
      });
      expect(claimed.map((w) => w.id)).toEqual(['b', 'c']);
      expect(
        await s.claimWork({ owner: 'w', limit: 5, leaseMs: 1000, now: at(1), kinds: [] }),
      ).toEqual([]);
    });

    it('renews leases held by the owner only', async () => {
      const s = ctx.storage();
      await s.commit({ enqueue: [workItem('a'), workItem('b'), workItem('c')] });
      await s.claimWork({ owner: 'alice', limit: 2, leaseMs: 10_000, now: at(0) });
      await s.claimWork({ owner: 'bob', limit: 1, leaseMs: 10_000, now: at(0) });
      const held = await s.renewWork(['a', 'b', 'c', 'missing'], {
        owner: 'alice',
        leaseMs: 60_000,
        now: at(5),
      });
      expect([...held].sort()).toEqual(['a', 'b']);
      const work = await s.listWork();
      expect(work.find((w) => w.id === 'a')?.leaseExpiresAt).toBe(at(65));
      expect(work.find((w) => w.id === 'c')?.leaseExpiresAt).toBe(at(10));
      // Renewed: still leased after the original expiry.
      expect(
        await s.claimWork({ owner: 'bob', limit: 5, leaseMs: 1000, now: at(20) }),
      ).toMatchObject([{ id: 'c' }]);
    });

    it('releases claimed items back to the queue, optionally delayed', async () => {
      const s = ctx.storage();
      await s.commit({ enqueue: [workItem('a'), workItem('b')] });
      await s.claimWork({ owner: 'alice', limit: 2, leaseMs: 60_000, now: at(0) });
      await s.releaseWork(['a'], { owner: 'alice' });
      await s.releaseWork(['b'], { owner: 'alice', availableAt: at(30) });
      const work = await s.listWork();
      expect(work.find((w) => w.id === 'a')?.leaseOwner).toBeUndefined();
      expect(work.find((w) => w.id === 'b')).toMatchObject({ availableAt: at(30), attempts: 1 });
      expect(
        (await s.claimWork({ owner: 'bob', limit: 5, leaseMs: 600_000, now: at(1) })).map(
          (w) => w.id,
        ),
      ).toEqual(['a']);
      expect(
        (await s.claimWork({ owner: 'bob', limit: 5, leaseMs: 600_000, now: at(30) })).map(
          (w) => w.id,
        ),
      ).toEqual(['b']);
    });

    it('dequeues items whoever holds them, and lists by run', async () => {
      const s = ctx.storage();
      await s.commit({
        enqueue: [
          workItem('a', { runId: 'r1' }),
          workItem('b', { runId: 'r2' }),
          workItem('c', { runId: 'r1' }),
        ],
      });
      await s.claimWork({ owner: 'alice', limit: 1, leaseMs: 60_000, now: at(0) });
      expect((await s.listWork({ runId: 'r1' })).map((w) => w.id)).toEqual(['a', 'c']);
      await s.commit({ dequeue: ['a', 'missing'] });
      expect((await s.listWork()).map((w) => w.id)).toEqual(['b', 'c']);
      // Dequeue then enqueue of the same id in one commit queues it afresh.
      await s.commit({
        dequeue: ['b'],
        enqueue: [workItem('b', { runId: 'r2', payload: { again: true } })],
      });
      expect((await s.listWork({ runId: 'r2' }))[0]?.payload).toEqual({ again: true });
    });

    it('enqueues an item already leased to its enqueuer (attempt 1) until the lease expires', async () => {
      const s = ctx.storage();
      // The lease starts at the commit's clock, so both items must be available by then.
      const PAST = '2020-01-01T00:00:00.000Z';
      await s.commit({
        enqueue: [
          workItem('mine', {
            availableAt: PAST,
            priority: 1,
            lease: { owner: 'me', leaseMs: 60_000 },
          }),
          workItem('free', { availableAt: PAST }),
        ],
      });
      const [mine] = await s.listWork();
      expect(mine).toMatchObject({ id: 'mine', attempts: 1, leaseOwner: 'me' });
      const expires = Date.parse(mine?.leaseExpiresAt ?? '');
      const before = new Date(expires - 1).toISOString();
      const after = new Date(expires).toISOString();
      expect(
        (await s.claimWork({ owner: 'other', limit: 5, leaseMs: 1000, now: before })).map(
          (w) => w.id,
        ),
      ).toEqual(['free']);
      expect(
        await s.claimWork({ owner: 'other', limit: 5, leaseMs: 1000, now: after }),
      ).toMatchObject([{ id: 'mine', attempts: 2 }]);
      await expectStorageError(
        s.commit({ enqueue: [workItem('bad', { lease: { owner: '', leaseMs: 1 } })] }),
        'INVALID_ARGUMENT',
      );
    });

    it('renews, releases, lists, dequeues and never duplicates items leased at enqueue', async () => {
      const s = ctx.storage();
      const PAST = '2020-01-01T00:00:00.000Z';
      const lease = { owner: 'me', leaseMs: 60_000 };
      await s.commit({
        enqueue: [
          workItem('l1', { runId: 'r1', availableAt: PAST, lease }),
          workItem('l2', { runId: 'r1', availableAt: PAST, lease }),
          workItem('q1', { runId: 'r1', availableAt: PAST }),
        ],
      });
      // The same ids again, leased or not, change nothing.
      await s.commit({
        enqueue: [
          workItem('l1', { runId: 'r1', availableAt: PAST, payload: { v: 2 } }),
          workItem('q1', { runId: 'r1', availableAt: PAST, lease, payload: { v: 2 } }),
        ],
      });
      const listed = await s.listWork({ runId: 'r1' });
      expect(listed.map((w) => [w.id, w.leaseOwner, w.payload])).toEqual([
        ['l1', 'me', { id: 'l1' }],
        ['l2', 'me', { id: 'l2' }],
        ['q1', undefined, { id: 'q1' }],
      ]);
      const later = new Date(Date.parse(listed[0]?.leaseExpiresAt ?? '') + 1).toISOString();
      expect(
        await s.renewWork(['l1', 'l2'], { owner: 'other', leaseMs: 1000, now: later }),
      ).toEqual([]);
      expect(await s.renewWork(['l1'], { owner: 'me', leaseMs: 120_000, now: later })).toEqual([
        'l1',
      ]);
      // l2's lease ran out; l1's was renewed; a release hands l1 back at once.
      await s.releaseWork(['l1'], { owner: 'me' });
      const claimed = await s.claimWork({ owner: 'other', limit: 5, leaseMs: 1000, now: later });
      expect(claimed.map((w) => [w.id, w.attempts])).toEqual([
        ['l1', 2],
        ['l2', 2],
        ['q1', 1],
      ]);
      await s.commit({ dequeue: ['l1'] });
      expect((await s.listWork()).map((w) => w.id)).toEqual(['l2', 'q1']);
      await s.commit({
        enqueue: [workItem('l3', { runId: 'r1', availableAt: PAST, lease })],
      });
      await s.commit({
        runs: [runWrite('r1', 0)],
      });
      await s.commit({ deleteRuns: ['r1'] });
      expect(await s.listWork()).toEqual([]);
    });

    it('rejects bad claim options with INVALID_ARGUMENT', async () => {
      const s = ctx.storage();
      await expectStorageError(
        s.claimWork({ owner: '', limit: 1, leaseMs: 1 }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(
        s.claimWork({ owner: 'w', limit: 0, leaseMs: 1 }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(
        s.claimWork({ owner: 'w', limit: 1, leaseMs: 0 }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(
        s.claimWork({ owner: 'w', limit: 1, leaseMs: 1, now: 'x' }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(
        s.claimDeliveries({ owner: 'w', limit: 1.5, leaseMs: 1 }),
        'INVALID_ARGUMENT',
      );
    });
  });

  describe('delivery outbox', () => {
    it('writes, reads and rewrites a delivery, keeping createdAt', async () => {
      const s = ctx.storage();
      await s.commit({ deliveries: [delivery('d1', { at: at(1) })] });
      expect(await s.getDelivery('d1')).toEqual({
        id: 'd1',
        endpointId: 'endpoint_1',
        eventId: 'event_d1',
        eventType: 'workflow_run.processed',
        event: { eventId: 'event_d1', eventType: 'workflow_run.processed', payload: {} },
        status: 'pending',
        attempts: [],
        nextAttemptAt: at(0),
        createdAt: at(1),
        updatedAt: at(1),
      });
      const attempt = { at: at(2), status: 500, durationMs: 12, error: 'HTTP 500' };
      await s.commit({
        deliveries: [delivery('d1', { attempts: [attempt], nextAttemptAt: at(60), at: at(2) })],
      });
      expect(await s.getDelivery('d1')).toMatchObject({
        attempts: [attempt],
        nextAttemptAt: at(60),
        createdAt: at(1),
        updatedAt: at(2),
      });
      expect(await s.getDelivery('missing')).toBeUndefined();
    });

    it('claims due pending deliveries oldest first, with a lease', async () => {
      const s = ctx.storage();
      await s.commit({
        deliveries: [
          delivery('late', { nextAttemptAt: at(20) }),
          delivery('b', { nextAttemptAt: at(5) }),
          delivery('a', { nextAttemptAt: at(5) }),
          delivery('first', { nextAttemptAt: at(1) }),
          delivery('done', { nextAttemptAt: at(0), status: 'succeeded' }),
          delivery('dead', { nextAttemptAt: at(0), status: 'failed' }),
        ],
      });
      const claimed = await s.claimDeliveries({
        owner: 'x',
        limit: 10,
        leaseMs: 30_000,
        now: at(10),
      });
      expect(claimed.map((d) => d.id)).toEqual(['first', 'b', 'a']);
      expect(claimed[0]).toMatchObject({ leaseOwner: 'x', leaseExpiresAt: at(40) });
      expect(
        await s.claimDeliveries({ owner: 'y', limit: 10, leaseMs: 30_000, now: at(20) }),
      ).toMatchObject([{ id: 'late' }]);
      // Expired leases return deliveries to the outbox.
      const again = await s.claimDeliveries({ owner: 'y', limit: 1, leaseMs: 30_000, now: at(40) });
      expect(again.map((d) => [d.id, d.leaseOwner])).toEqual([['first', 'y']]);
    });

    it('clears the lease when a delivery is written', async () => {
      const s = ctx.storage();
      await s.commit({ deliveries: [delivery('d1')] });
      await s.claimDeliveries({ owner: 'x', limit: 1, leaseMs: 60_000, now: at(1) });
      expect((await s.getDelivery('d1'))?.leaseOwner).toBe('x');
      await s.commit({ deliveries: [delivery('d1', { nextAttemptAt: at(2) })] });
      const d = await s.getDelivery('d1');
      expect(d?.leaseOwner).toBeUndefined();
      expect(d?.leaseExpiresAt).toBeUndefined();
      expect(
        await s.claimDeliveries({ owner: 'y', limit: 1, leaseMs: 1000, now: at(2) }),
      ).toMatchObject([{ id: 'd1' }]);
    });
  });
}
