import { describe, expect, it } from 'vitest';
import type { ContractContext } from './contract-helpers.ts';
import { at, delivery, expectStorageError, runWrite, workItem } from './contract-helpers.ts';

/** Fencing (`Changes.fences`) and the optional `nextClaimableAt` capability. */
export function describeFences(ctx: ContractContext): void {
  describe('lease fences', () => {
    it('lets the holder of a claim commit its outcome', async () => {
      const s = ctx.storage();
      await s.commit({ runs: [runWrite('run_1', 0)], enqueue: [workItem('w1')] });
      const [claimed] = await s.claimWork({
        owner: 'alice',
        limit: 1,
        leaseMs: 30_000,
        now: at(1),
      });
      expect(claimed?.attempts).toBe(1);
      const result = await s.commit({
        fences: [{ workId: 'w1', owner: 'alice', attempts: 1 }],
        runs: [runWrite('run_1', 1, { status: 'PROCESSED', active: false })],
        dequeue: ['w1'],
      });
      expect(result.runRevisions).toEqual({ run_1: 2 });
      expect(await s.listWork()).toEqual([]);
    });

    it('rejects with LEASE_LOST, changing nothing, once another owner took the lease over', async () => {
      const s = ctx.storage();
      await s.commit({ runs: [runWrite('run_1', 0)], enqueue: [workItem('w1')] });
      await s.claimWork({ owner: 'alice', limit: 1, leaseMs: 10_000, now: at(1) });
      const [taken] = await s.claimWork({ owner: 'bob', limit: 1, leaseMs: 10_000, now: at(11) });
      expect(taken).toMatchObject({ id: 'w1', leaseOwner: 'bob', attempts: 2 });
      const error = await expectStorageError(
        s.commit({
          fences: [{ workId: 'w1', owner: 'alice', attempts: 1 }],
          runs: [runWrite('run_1', 1, { status: 'PROCESSED', events: [{ type: 'x', data: {} }] })],
          dequeue: ['w1'],
          enqueue: [workItem('w2')],
          deliveries: [delivery('d1')],
        }),
        'LEASE_LOST',
      );
      expect(error.message).toContain('w1');
      expect(error.retryable).toBe(false);
      expect(await s.getRun('run_1')).toMatchObject({ revision: 1, status: 'PENDING' });
      expect(await s.listRunEvents('run_1')).toEqual([]);
      expect((await s.listWork()).map((w) => [w.id, w.leaseOwner])).toEqual([['w1', 'bob']]);
      expect(await s.getDelivery('d1')).toBeUndefined();
      // The new holder commits.
      await s.commit({ fences: [{ workId: 'w1', owner: 'bob', attempts: 2 }], dequeue: ['w1'] });
      expect(await s.listWork()).toEqual([]);
    });

    it('tells claims of one owner apart by attempts, and holds an expired lease nobody took', async () => {
      const s = ctx.storage();
      await s.commit({ enqueue: [workItem('w1'), workItem('w2')] });
      await s.claimWork({ owner: 'alice', limit: 2, leaseMs: 10_000, now: at(1) });
      // w1's lease expired and alice claimed it again: her first claim's outcome is stale.
      const [again] = await s.claimWork({ owner: 'alice', limit: 1, leaseMs: 10_000, now: at(20) });
      expect(again).toMatchObject({ id: 'w1', attempts: 2 });
      await expectStorageError(
        s.commit({ fences: [{ workId: 'w1', owner: 'alice', attempts: 1 }], dequeue: ['w1'] }),
        'LEASE_LOST',
      );
      // w2's lease expired too, but nobody claimed it: alice still holds it.
      await s.commit({ fences: [{ workId: 'w2', owner: 'alice', attempts: 1 }], dequeue: ['w2'] });
      expect((await s.listWork()).map((w) => w.id)).toEqual(['w1']);
    });

    it('fences items leased at enqueue (attempt 1), and fails for a missing or released item', async () => {
      const s = ctx.storage();
      const PAST = '2020-01-01T00:00:00.000Z';
      await s.commit({
        enqueue: [
          workItem('mine', { availableAt: PAST, lease: { owner: 'me', leaseMs: 60_000 } }),
          workItem('free', { availableAt: PAST, lease: { owner: 'me', leaseMs: 60_000 } }),
        ],
      });
      await s.releaseWork(['free'], { owner: 'me' });
      await expectStorageError(
        s.commit({ fences: [{ workId: 'free', owner: 'me', attempts: 1 }] }),
        'LEASE_LOST',
      );
      await expectStorageError(
        s.commit({ fences: [{ workId: 'missing', owner: 'me', attempts: 1 }] }),
        'LEASE_LOST',
      );
      // Fences are checked before the commit's parts: dequeuing the fenced item is fine.
      await s.commit({
        fences: [{ workId: 'mine', owner: 'me', attempts: 1 }],
        dequeue: ['mine'],
        enqueue: [workItem('next', { runId: 'run_1' })],
      });
      expect((await s.listWork()).map((w) => w.id)).toEqual(['free', 'next']);
    });

    it('fences deliveries by their lease owner', async () => {
      const s = ctx.storage();
      await s.commit({ deliveries: [delivery('d1')] });
      await s.claimDeliveries({ owner: 'x', limit: 1, leaseMs: 10_000, now: at(1) });
      await s.claimDeliveries({ owner: 'y', limit: 1, leaseMs: 10_000, now: at(11) });
      const failed = delivery('d1', {
        status: 'failed',
        attempts: [{ at: at(12), durationMs: 1 }],
      });
      await expectStorageError(
        s.commit({ fences: [{ deliveryId: 'd1', owner: 'x' }], deliveries: [failed] }),
        'LEASE_LOST',
      );
      expect(await s.getDelivery('d1')).toMatchObject({ status: 'pending', leaseOwner: 'y' });
      const done = delivery('d1', {
        status: 'succeeded',
        attempts: [{ at: at(12), durationMs: 1 }],
      });
      await s.commit({ fences: [{ deliveryId: 'd1', owner: 'y' }], deliveries: [done] });
      expect(await s.getDelivery('d1')).toMatchObject({ status: 'succeeded' });
      // Writing the delivery cleared its lease: nobody holds it any more.
      await expectStorageError(
        s.commit({ fences: [{ deliveryId: 'd1', owner: 'y' }] }),
        'LEASE_LOST',
      );
    });

    it('rejects malformed fences with INVALID_ARGUMENT naming the path', async () => {
      const s = ctx.storage();
      const cases: [unknown, string][] = [
        [{ fences: {} }, 'changes.fences'],
        [{ fences: [{ workId: 'w', owner: '', attempts: 1 }] }, 'changes.fences[0].owner'],
        [{ fences: [{ workId: 'w', owner: 'o', attempts: 0 }] }, 'changes.fences[0].attempts'],
        [{ fences: [{ owner: 'o' }] }, 'changes.fences[0]'],
      ];
      for (const [changes, path] of cases) {
        const error = await expectStorageError(s.commit(changes as never), 'INVALID_ARGUMENT');
        expect(error.details.path).toBe(path);
      }
    });
  });

  describe('nextClaimableAt (optional capability)', () => {
    it('says when the queue and the outbox next have something to claim', async (test) => {
      const s = ctx.storage();
      if (s.nextClaimableAt === undefined) return test.skip('the adapter has no nextClaimableAt');
      expect(await s.nextClaimableAt()).toEqual({});
      await s.commit({
        enqueue: [
          workItem('a', { availableAt: at(20), kind: 'step' }),
          workItem('b', { availableAt: at(5), kind: 'step' }),
          workItem('c', { availableAt: at(8), kind: 'timer' }),
        ],
        deliveries: [
          delivery('d1', { nextAttemptAt: at(30) }),
          delivery('d2', { nextAttemptAt: at(1), status: 'succeeded' }),
        ],
      });
      expect(await s.nextClaimableAt()).toEqual({ work: at(5), deliveries: at(30) });
      expect(await s.nextClaimableAt({ kinds: ['timer'] })).toEqual({
        work: at(8),
        deliveries: at(30),
      });
      expect((await s.nextClaimableAt({ kinds: [] })).work).toBeUndefined();
      // A claimed item becomes claimable again when its lease expires.
      await s.claimWork({ owner: 'w', limit: 2, leaseMs: 60_000, now: at(10) });
      expect((await s.nextClaimableAt()).work).toBe(at(20));
      await s.claimWork({ owner: 'w', limit: 1, leaseMs: 60_000, now: at(20) });
      expect((await s.nextClaimableAt()).work).toBe(at(70));
      await s.claimDeliveries({ owner: 'w', limit: 1, leaseMs: 5000, now: at(30) });
      expect((await s.nextClaimableAt()).deliveries).toBe(at(35));
      await s.commit({ dequeue: ['a', 'b', 'c'] });
      expect((await s.nextClaimableAt()).work).toBeUndefined();
    });
  });
}
