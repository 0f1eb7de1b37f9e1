import { describe, expect, it } from 'vitest';
import { snapshotPatch } from '../snapshot-patch.ts';
import type { RunWrite } from '../storage-adapter.ts';
import type { ContractContext } from './contract-helpers.ts';
import {
  at,
  delivery,
  docWrite,
  expectStorageError,
  runWrite,
  workItem,
} from './contract-helpers.ts';

/** Runs: snapshots with revisions, the event log, deletes, atomicity. */
export function describeRuns(ctx: ContractContext): void {
  describe('runs and events', () => {
    it('creates a run at revision 1 with its events', async () => {
      const s = ctx.storage();
      const result = await s.commit({
        runs: [
          runWrite('run_1', 0, {
            workflowId: 'wf_1',
            batchId: 'batch_1',
            priority: 10,
            snapshot: { paths: [] },
            at: at(1),
            events: [
              { type: 'workflow_run.created', data: { n: 1 } },
              { type: 'workflow_run.started', data: { n: 2 } },
            ],
          }),
        ],
      });
      expect(result).toEqual({ runRevisions: { run_1: 1 }, documentRevisions: {} });
      expect(await s.getRun('run_1')).toEqual({
        id: 'run_1',
        kind: 'workflow_run',
        workflowId: 'wf_1',
        batchId: 'batch_1',
        status: 'PENDING',
        active: true,
        priority: 10,
        snapshot: { paths: [] },
        revision: 1,
        createdAt: at(1),
        updatedAt: at(1),
      });
      expect(await s.listRunEvents('run_1')).toEqual([
        {
          runId: 'run_1',
          seq: 1,
          type: 'workflow_run.created',
          data: { n: 1 },
          revision: 1,
          at: at(1),
        },
        {
          runId: 'run_1',
          seq: 2,
          type: 'workflow_run.started',
          data: { n: 2 },
          revision: 1,
          at: at(1),
        },
      ]);
      expect(await s.getRun('run_2')).toBeUndefined();
      expect(await s.listRunEvents('run_2')).toEqual([]);
    });

    it('updates with the current revision; events continue their seq with the new revision', async () => {
      const s = ctx.storage();
      await s.commit({
        runs: [runWrite('run_1', 0, { at: at(1), events: [{ type: 'a', data: {} }] })],
      });
      await s.commit({ runs: [runWrite('run_1', 1, { status: 'PROCESSING', at: at(2) })] });
      const r = await s.commit({
        runs: [
          runWrite('run_1', 2, {
            status: 'PROCESSED',
            active: false,
            at: at(3),
            events: [
              { type: 'b', data: {} },
              { type: 'c', data: {} },
            ],
          }),
        ],
      });
      expect(r.runRevisions).toEqual({ run_1: 3 });
      expect(await s.getRun('run_1')).toMatchObject({
        status: 'PROCESSED',
        active: false,
        revision: 3,
        createdAt: at(1),
        updatedAt: at(3),
      });
      const events = await s.listRunEvents('run_1');
      expect(events.map((e) => [e.seq, e.type, e.revision, e.at])).toEqual([
        [1, 'a', 1, at(1)],
        [2, 'b', 3, at(3)],
        [3, 'c', 3, at(3)],
      ]);
      expect((await s.listRunEvents('run_1', { afterSeq: 1 })).map((e) => e.seq)).toEqual([2, 3]);
      expect((await s.listRunEvents('run_1', { afterSeq: 1, limit: 1 })).map((e) => e.seq)).toEqual(
        [2],
      );
      expect(await s.listRunEvents('run_1', { afterSeq: 3 })).toEqual([]);
      await expectStorageError(s.listRunEvents('run_1', { limit: 0 }), 'INVALID_ARGUMENT');
      await expectStorageError(s.listRunEvents('run_1', { afterSeq: -1 }), 'INVALID_ARGUMENT');
    });

    it('replaces every indexed column on update, and list filters follow', async () => {
      const s = ctx.storage();
      await s.commit({ runs: [runWrite('run_1', 0, { workflowId: 'wf_a', batchId: 'b_a' })] });
      expect((await s.listRuns({ workflowId: 'wf_a' })).items).toHaveLength(1);
      // A write replaces the indexed columns: omitted ones are cleared.
      await s.commit({ runs: [runWrite('run_1', 1, { priority: 7 })] });
      const cleared = await s.getRun('run_1');
      expect(cleared).toMatchObject({ priority: 7, revision: 2 });
      expect(cleared !== undefined && ('workflowId' in cleared || 'batchId' in cleared)).toBe(
        false,
      );
      expect((await s.listRuns({ workflowId: 'wf_a' })).items).toEqual([]);
      await s.commit({
        runs: [
          runWrite('run_1', 2, {
            kind: 'extract_run',
            workflowId: 'wf_b',
            batchId: 'b_b',
            status: 'PROCESSED',
            active: false,
            priority: 3,
          }),
        ],
      });
      const ids = async (q: Parameters<typeof s.listRuns>[0]) =>
        (await s.listRuns(q)).items.map((r) => r.id);
      expect(await ids({ workflowId: 'wf_b', batchId: 'b_b', kind: 'extract_run' })).toEqual([
        'run_1',
      ]);
      expect(await ids({ status: 'PROCESSED', active: false })).toEqual(['run_1']);
      expect(await ids({ workflowId: 'wf_a' })).toEqual([]);
      expect(await ids({ batchId: 'b_a' })).toEqual([]);
      expect(await ids({ kind: 'workflow_run' })).toEqual([]);
      expect(await ids({ active: true })).toEqual([]);
      expect(await ids({ status: 'PENDING' })).toEqual([]);
      expect((await s.getRun('run_1'))?.priority).toBe(3);
    });

    it('applies two writes of one run in one commit in order', async () => {
      const s = ctx.storage();
      const r = await s.commit({
        runs: [
          runWrite('run_1', 0, { events: [{ type: 'a', data: {} }] }),
          runWrite('run_1', 1, { status: 'PROCESSING', events: [{ type: 'b', data: {} }] }),
        ],
      });
      expect(r.runRevisions).toEqual({ run_1: 2 });
      expect((await s.listRunEvents('run_1')).map((e) => [e.seq, e.revision])).toEqual([
        [1, 1],
        [2, 2],
      ]);
    });

    it('reads back the whole snapshot of every write that carried a patch, in any commit shape', async () => {
      const s = ctx.storage();
      const snapshotAt = (r: number) => ({
        revision: r,
        steps: Array.from({ length: r }, (_, i) => ({ n: i, open: i === r - 1 })),
      });
      const write = (r: number, extra: Partial<RunWrite> = {}) =>
        runWrite('run_1', r - 1, {
          snapshot: snapshotAt(r),
          patch: snapshotPatch(snapshotAt(r - 1), snapshotAt(r)),
          events: [{ type: `e${r}`, data: {} }],
          ...extra,
        });
      await s.commit({ runs: [runWrite('run_1', 0, { snapshot: snapshotAt(1) })] });
      for (let r = 2; r <= 19; r++) {
        // Two revisions in one commit at times, and one without events.
        if (r % 5 === 0) {
          await s.commit({ runs: [write(r), write(r + 1)] });
          r++;
        } else await s.commit({ runs: [write(r, r === 7 ? { events: undefined } : {})] });
        expect((await s.getRun('run_1'))?.snapshot).toEqual(snapshotAt(r));
        expect((await s.listRuns({ active: true })).items[0]?.snapshot).toEqual(snapshotAt(r));
      }
      await s.commit({ runs: [write(20, { active: false, status: 'PROCESSED' })] });
      expect(await s.getRun('run_1')).toMatchObject({ revision: 20, snapshot: snapshotAt(20) });
    });

    it('rejects a stale revision and changes nothing of the whole commit', async () => {
      const s = ctx.storage();
      await s.commit({
        runs: [runWrite('run_1', 0, { events: [{ type: 'a', data: {} }] }), runWrite('run_2', 0)],
      });
      await s.commit({ runs: [runWrite('run_1', 1, { status: 'PROCESSING' })] });
      const error = await expectStorageError(
        s.commit({
          runs: [
            runWrite('run_2', 1, { status: 'PROCESSING', events: [{ type: 'x', data: {} }] }),
            runWrite('run_1', 1, { status: 'STALE', events: [{ type: 'stale', data: {} }] }),
          ],
          documents: [docWrite('wf_1')],
          deleteDocuments: [],
          enqueue: [workItem('w1')],
          dequeue: [],
          deliveries: [delivery('d1')],
        }),
        'REVISION_CONFLICT',
      );
      expect(error.message).toContain('run_1');
      expect(error.retryable).toBe(false);
      expect(await s.getRun('run_1')).toMatchObject({ revision: 2, status: 'PROCESSING' });
      expect(await s.getRun('run_2')).toMatchObject({ revision: 1, status: 'PENDING' });
      expect((await s.listRunEvents('run_1')).map((e) => e.type)).toEqual(['a']);
      expect(await s.listRunEvents('run_2')).toEqual([]);
      expect(await s.getDocument('workflows', 'wf_1')).toBeUndefined();
      expect(await s.listWork()).toEqual([]);
      expect(await s.getDelivery('d1')).toBeUndefined();
      // The events of a later successful write continue without a gap.
      await s.commit({ runs: [runWrite('run_1', 2, { events: [{ type: 'b', data: {} }] })] });
      expect((await s.listRunEvents('run_1')).map((e) => [e.seq, e.revision])).toEqual([
        [1, 1],
        [2, 3],
      ]);
    });

    it('rejects creating an existing run and updating a missing one', async () => {
      const s = ctx.storage();
      await s.commit({ runs: [runWrite('run_1', 0)] });
      await expectStorageError(s.commit({ runs: [runWrite('run_1', 0)] }), 'REVISION_CONFLICT');
      await expectStorageError(s.commit({ runs: [runWrite('run_9', 3)] }), 'REVISION_CONFLICT');
      expect(await s.getRun('run_9')).toBeUndefined();
      expect((await s.getRun('run_1'))?.revision).toBe(1);
    });

    it('deletes a run with its events and queue items only', async () => {
      const s = ctx.storage();
      await s.commit({
        runs: [
          runWrite('run_1', 0, { events: [{ type: 'a', data: {} }] }),
          runWrite('run_2', 0, { events: [{ type: 'a', data: {} }] }),
        ],
        enqueue: [workItem('w1', { runId: 'run_1' }), workItem('w2', { runId: 'run_2' })],
      });
      await s.commit({ deleteRuns: ['run_1', 'run_missing'] });
      expect(await s.getRun('run_1')).toBeUndefined();
      expect(await s.listRunEvents('run_1')).toEqual([]);
      expect((await s.listWork()).map((w) => w.id)).toEqual(['w2']);
      expect(await s.getRun('run_2')).toBeDefined();
      expect(await s.listRunEvents('run_2')).toHaveLength(1);
      // A deleted run can be created again from scratch.
      await s.commit({ runs: [runWrite('run_1', 0, { events: [{ type: 'z', data: {} }] })] });
      expect((await s.listRunEvents('run_1')).map((e) => [e.seq, e.type])).toEqual([[1, 'z']]);
    });

    it('rejects invalid run writes with INVALID_ARGUMENT naming the path', async () => {
      const s = ctx.storage();
      const cases: [unknown, string][] = [
        [
          { runs: [{ ...runWrite('r', 0), expectedRevision: undefined }] },
          'changes.runs[0].expectedRevision',
        ],
        [{ runs: [{ ...runWrite('r', 0), active: 'yes' }] }, 'changes.runs[0].active'],
        [{ runs: [{ ...runWrite('r', 0), snapshot: null }] }, 'changes.runs[0].snapshot'],
        [
          { runs: [runWrite('r', 0, { events: [{ type: '', data: {} }] })] },
          'changes.runs[0].events[0].type',
        ],
        [{ deleteRuns: [42] }, 'changes.deleteRuns[0]'],
        [{ enqueue: [workItem('w', { priority: 0 })] }, 'changes.enqueue[0].priority'],
        [{ enqueue: [workItem('w', { availableAt: 'soon' })] }, 'changes.enqueue[0].availableAt'],
        [
          { deliveries: [delivery('d', { status: 'lost' as never })] },
          'changes.deliveries[0].status',
        ],
        [
          { deliveries: [delivery('d', { nextAttemptAt: '' })] },
          'changes.deliveries[0].nextAttemptAt',
        ],
        [null, 'changes'],
      ];
      for (const [changes, path] of cases) {
        const error = await expectStorageError(s.commit(changes as never), 'INVALID_ARGUMENT');
        expect(error.message).toContain(path);
      }
      expect((await s.listRuns()).items).toEqual([]);
      expect(await s.listWork()).toEqual([]);
    });
  });
}
