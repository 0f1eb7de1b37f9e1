import { describe, expect, it } from 'vitest';
import type { ContractContext } from './contract-helpers.ts';
import {
  at,
  delivery,
  docWrite,
  expectStorageError,
  runWrite,
  workItem,
} from './contract-helpers.ts';

/** Mutates `value.nested.value` in place, the way a careless caller would. */
function poke(value: unknown, n: number): void {
  const nested = (value as { nested?: { value: number } } | undefined)?.nested;
  if (nested !== undefined) nested.value = n;
}

/** Lifecycle, cancellation, blobs and copy semantics. */
export function describeLifecycle(ctx: ContractContext): void {
  describe('lifecycle', () => {
    it('rejects calls before open() with NOT_OPEN', async () => {
      const fresh = await ctx.factory();
      await expectStorageError(fresh.getRun('run_1'), 'NOT_OPEN');
      await expectStorageError(fresh.commit({ runs: [runWrite('run_1', 0)] }), 'NOT_OPEN');
      await expectStorageError(fresh.blobs.get('k'), 'NOT_OPEN');
    });

    it('rejects calls after close() with NOT_OPEN, and open/close are idempotent', async () => {
      const fresh = await ctx.factory();
      await fresh.open();
      await fresh.open();
      await fresh.commit({ runs: [runWrite('run_1', 0)] });
      await fresh.close();
      await fresh.close();
      await expectStorageError(fresh.listRuns(), 'NOT_OPEN');
      await expectStorageError(fresh.claimWork({ owner: 'w', limit: 1, leaseMs: 1 }), 'NOT_OPEN');
    });

    it('rejects an already aborted call and changes nothing', async () => {
      const s = ctx.storage();
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      await expect(
        s.commit({ runs: [runWrite('run_1', 0)] }, { signal: controller.signal }),
      ).rejects.toThrow('stop');
      expect(await s.getRun('run_1')).toBeUndefined();
      const signal = controller.signal;
      await expect(s.getRun('run_1', { signal })).rejects.toThrow('stop');
      await expect(s.listRuns({ signal })).rejects.toThrow('stop');
      await expect(s.claimWork({ owner: 'w', limit: 1, leaseMs: 1, signal })).rejects.toThrow(
        'stop',
      );
      await expect(s.blobs.put('k', new Uint8Array(1), { signal })).rejects.toThrow('stop');
      expect(await s.blobs.get('k')).toBeUndefined();
    });

    it('rejects filters of the wrong type with INVALID_ARGUMENT', async () => {
      const s = ctx.storage();
      await expectStorageError(
        s.listRuns({ active: 'yes' as unknown as boolean }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(s.listRuns({ status: '' }), 'INVALID_ARGUMENT');
      await expectStorageError(
        s.listDeliveries({ endpointId: 3 as unknown as string }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(
        s.listDocuments('files', { nameContains: 5 as unknown as string }),
        'INVALID_ARGUMENT',
      );
      await expectStorageError(s.getRun(''), 'INVALID_ARGUMENT');
      await expectStorageError(s.renewWork(['a'], { owner: 'w', leaseMs: -1 }), 'INVALID_ARGUMENT');
      await expectStorageError(
        s.releaseWork(['a'], { owner: 'w', availableAt: 'later' }),
        'INVALID_ARGUMENT',
      );
    });

    it('has a name', () => {
      expect(ctx.storage().name).toMatch(/\S/);
    });
  });

  describe('blobs', () => {
    it('puts, gets, overwrites and deletes bytes', async () => {
      const { blobs } = ctx.storage();
      expect(await blobs.get('file_1')).toBeUndefined();
      await blobs.put('file_1', new Uint8Array([1, 2, 3]));
      expect(await blobs.get('file_1')).toEqual(new Uint8Array([1, 2, 3]));
      await blobs.put('file_1', new Uint8Array([9]));
      expect(await blobs.get('file_1')).toEqual(new Uint8Array([9]));
      await blobs.put('empty', new Uint8Array(0));
      expect(await blobs.get('empty')).toEqual(new Uint8Array(0));
      await blobs.delete('file_1');
      await blobs.delete('never-there');
      expect(await blobs.get('file_1')).toBeUndefined();
    });

    it('lists the keys that start with a prefix', async () => {
      const { blobs } = ctx.storage();
      for (const key of ['file/a', 'file/b', 'files', 'output/a', 'fil']) {
        await blobs.put(key, new Uint8Array([1]));
      }
      expect([...((await blobs.keys?.('file/')) ?? [])].sort()).toEqual(['file/a', 'file/b']);
      expect(await blobs.keys?.('none/')).toEqual([]);
      await blobs.delete('file/a');
      expect(await blobs.keys?.('file/')).toEqual(['file/b']);
    });

    it('stores a view of a larger buffer by its own bytes only', async () => {
      const { blobs } = ctx.storage();
      const buffer = new Uint8Array([0, 1, 2, 3, 4, 5]);
      await blobs.put('view', buffer.subarray(2, 4));
      expect(await blobs.get('view')).toEqual(new Uint8Array([2, 3]));
    });

    it('copies bytes in and out', async () => {
      const { blobs } = ctx.storage();
      const input = new Uint8Array([1, 2, 3]);
      await blobs.put('b', input);
      input[0] = 99;
      const first = await blobs.get('b');
      expect(first).toEqual(new Uint8Array([1, 2, 3]));
      if (first !== undefined) first[1] = 99;
      expect(await blobs.get('b')).toEqual(new Uint8Array([1, 2, 3]));
    });

    it('rejects an empty key and non-bytes with INVALID_ARGUMENT', async () => {
      const { blobs } = ctx.storage();
      await expectStorageError(blobs.put('', new Uint8Array(1)), 'INVALID_ARGUMENT');
      await expectStorageError(blobs.put('k', 'text' as unknown as Uint8Array), 'INVALID_ARGUMENT');
    });
  });

  describe('copies, not references', () => {
    it('takes its input when commit() is called, not when it settles', async () => {
      const s = ctx.storage();
      const snapshot = { v: 1 };
      const changes = { runs: [runWrite('run_1', 0, { snapshot })] };
      const pending = s.commit(changes);
      snapshot.v = 2;
      changes.runs.push(runWrite('run_2', 0));
      await pending;
      expect((await s.getRun('run_1'))?.snapshot).toEqual({ v: 1 });
      expect(await s.getRun('run_2')).toBeUndefined();
    });

    it('mutating inputs after commit or results after reads never changes stored state', async () => {
      const s = ctx.storage();
      const snapshot = { nested: { value: 1 } };
      const data = { nested: { value: 1 } };
      const payload = { nested: { value: 1 } };
      const event = { nested: { value: 1 } };
      await s.commit({
        runs: [runWrite('run_1', 0, { snapshot, events: [{ type: 'e', data: event }] })],
        documents: [docWrite('wf_1', { data })],
        enqueue: [workItem('w1', { payload })],
        deliveries: [delivery('d1', { event: { nested: { value: 1 } } })],
      });
      snapshot.nested.value = 2;
      data.nested.value = 2;
      payload.nested.value = 2;
      event.nested.value = 2;

      const run = await s.getRun('run_1');
      const doc = await s.getDocument('workflows', 'wf_1');
      const [ev] = await s.listRunEvents('run_1');
      const [work] = await s.listWork();
      const del = await s.getDelivery('d1');
      expect(run?.snapshot).toEqual({ nested: { value: 1 } });
      expect(doc?.data).toEqual({ nested: { value: 1 } });
      expect(ev?.data).toEqual({ nested: { value: 1 } });
      expect(work?.payload).toEqual({ nested: { value: 1 } });
      expect(del?.event).toEqual({ nested: { value: 1 } });

      poke(run?.snapshot, 3);
      poke(doc?.data, 3);
      poke(ev?.data, 3);
      poke(work?.payload, 3);
      poke(del?.event, 3);
      const [claimed] = await s.claimWork({ owner: 'w', limit: 1, leaseMs: 1000, now: at(1) });
      poke(claimed?.payload, 4);
      const listed = (await s.listRuns()).items[0];
      poke(listed?.snapshot, 4);

      expect((await s.getRun('run_1'))?.snapshot).toEqual({ nested: { value: 1 } });
      expect((await s.getDocument('workflows', 'wf_1'))?.data).toEqual({ nested: { value: 1 } });
      expect((await s.listRunEvents('run_1'))[0]?.data).toEqual({ nested: { value: 1 } });
      expect((await s.listWork())[0]?.payload).toEqual({ nested: { value: 1 } });
      expect((await s.getDelivery('d1'))?.event).toEqual({ nested: { value: 1 } });
    });
  });
}
