import { describe, expect, it } from 'vitest';
import type { CollectionName } from '../storage-adapter.ts';
import type { ContractContext } from './contract-helpers.ts';
import {
  at,
  delivery,
  docWrite,
  expectStorageError,
  runWrite,
  workItem,
} from './contract-helpers.ts';

/** Documents: revisions, keys, deletes, validation. */
export function describeDocuments(ctx: ContractContext): void {
  describe('documents', () => {
    it('creates a document with revision 1 and every optional column', async () => {
      const s = ctx.storage();
      const result = await s.commit({
        documents: [
          docWrite('wf_1', {
            parentId: 'p',
            secondaryId: 'sec',
            key: 'k1',
            name: 'Invoices',
            blobKey: 'blob_1',
            data: { a: [1, 'two', null, { b: true }] },
            expectedRevision: 0,
            at: at(5),
          }),
        ],
      });
      expect(result.documentRevisions).toEqual({ 'workflows/wf_1': 1 });
      expect(await s.getDocument('workflows', 'wf_1')).toEqual({
        collection: 'workflows',
        id: 'wf_1',
        parentId: 'p',
        secondaryId: 'sec',
        key: 'k1',
        name: 'Invoices',
        blobKey: 'blob_1',
        data: { a: [1, 'two', null, { b: true }] },
        revision: 1,
        createdAt: at(5),
        updatedAt: at(5),
      });
      expect(await s.getDocument('workflows', 'missing')).toBeUndefined();
      expect(await s.getDocument('files', 'wf_1')).toBeUndefined();
    });

    it('omits optional columns that were not written', async () => {
      const s = ctx.storage();
      await s.commit({ documents: [docWrite('wf_1')] });
      const doc = await s.getDocument('workflows', 'wf_1');
      expect(doc).toBeDefined();
      for (const k of ['parentId', 'secondaryId', 'key', 'name', 'blobKey']) {
        expect(doc !== undefined && k in doc, k).toBe(false);
      }
      expect(Number.isNaN(Date.parse(doc?.createdAt ?? ''))).toBe(false);
    });

    it('increments the revision, keeps createdAt and moves updatedAt', async () => {
      const s = ctx.storage();
      await s.commit({ documents: [docWrite('wf_1', { expectedRevision: 0, at: at(1) })] });
      const r = await s.commit({
        documents: [docWrite('wf_1', { expectedRevision: 1, data: { v: 2 }, at: at(2) })],
      });
      expect(r.documentRevisions['workflows/wf_1']).toBe(2);
      await s.commit({ documents: [docWrite('wf_1', { data: { v: 3 }, at: at(3) })] });
      const doc = await s.getDocument('workflows', 'wf_1');
      expect(doc).toMatchObject({
        revision: 3,
        data: { v: 3 },
        createdAt: at(1),
        updatedAt: at(3),
      });
    });

    it('rejects a stale, premature or must-not-exist revision with REVISION_CONFLICT', async () => {
      const s = ctx.storage();
      await s.commit({ documents: [docWrite('wf_1', { expectedRevision: 0, data: { v: 1 } })] });
      await s.commit({ documents: [docWrite('wf_1', { expectedRevision: 1, data: { v: 2 } })] });
      const stale = await expectStorageError(
        s.commit({ documents: [docWrite('wf_1', { expectedRevision: 1, data: { v: 9 } })] }),
        'REVISION_CONFLICT',
      );
      expect(stale.message).toContain('wf_1');
      await expectStorageError(
        s.commit({ documents: [docWrite('wf_1', { expectedRevision: 0 })] }),
        'REVISION_CONFLICT',
      );
      await expectStorageError(
        s.commit({ documents: [docWrite('wf_2', { expectedRevision: 1 })] }),
        'REVISION_CONFLICT',
      );
      expect(await s.getDocument('workflows', 'wf_1')).toMatchObject({
        revision: 2,
        data: { v: 2 },
      });
      expect(await s.getDocument('workflows', 'wf_2')).toBeUndefined();
    });

    it('keeps ids of different collections apart', async () => {
      const s = ctx.storage();
      await s.commit({
        documents: [
          docWrite('x', { data: { c: 'w' } }),
          docWrite('x', { collection: 'files', data: { c: 'f' } }),
        ],
      });
      expect((await s.getDocument('workflows', 'x'))?.data).toEqual({ c: 'w' });
      expect((await s.getDocument('files', 'x'))?.data).toEqual({ c: 'f' });
    });

    it('finds a document by key, and frees the key on change or delete', async () => {
      const s = ctx.storage();
      await s.commit({
        documents: [docWrite('a', { collection: 'webhookSubscriptions', key: 'ep|wf' })],
      });
      expect((await s.getDocumentByKey('webhookSubscriptions', 'ep|wf'))?.id).toBe('a');
      expect(await s.getDocumentByKey('webhookSubscriptions', 'nope')).toBeUndefined();
      expect(await s.getDocumentByKey('workflows', 'ep|wf')).toBeUndefined();
      await s.commit({
        documents: [docWrite('a', { collection: 'webhookSubscriptions', key: 'other' })],
      });
      expect(await s.getDocumentByKey('webhookSubscriptions', 'ep|wf')).toBeUndefined();
      await s.commit({
        documents: [docWrite('b', { collection: 'webhookSubscriptions', key: 'ep|wf' })],
      });
      expect((await s.getDocumentByKey('webhookSubscriptions', 'ep|wf'))?.id).toBe('b');
      await s.commit({ deleteDocuments: [{ collection: 'webhookSubscriptions', id: 'b' }] });
      expect(await s.getDocumentByKey('webhookSubscriptions', 'ep|wf')).toBeUndefined();
      await s.commit({
        documents: [docWrite('c', { collection: 'webhookSubscriptions', key: 'ep|wf' })],
      });
      expect((await s.getDocumentByKey('webhookSubscriptions', 'ep|wf'))?.id).toBe('c');
    });

    it('rejects a key of another document with DUPLICATE_KEY and changes nothing', async () => {
      const s = ctx.storage();
      await s.commit({ documents: [docWrite('a', { key: 'k' }), docWrite('b')] });
      const error = await expectStorageError(
        s.commit({
          runs: [runWrite('run_1', 0)],
          documents: [
            docWrite('c', { data: { v: 1 } }),
            docWrite('b', { key: 'k', data: { v: 2 } }),
          ],
          enqueue: [workItem('w1')],
          deliveries: [delivery('d1')],
        }),
        'DUPLICATE_KEY',
      );
      expect(error.message).toContain('k');
      expect(await s.getDocument('workflows', 'c')).toBeUndefined();
      expect(await s.getDocument('workflows', 'b')).toMatchObject({ revision: 1 });
      expect((await s.getDocument('workflows', 'b'))?.key).toBeUndefined();
      expect(await s.getRun('run_1')).toBeUndefined();
      expect(await s.listWork()).toEqual([]);
      expect(await s.getDelivery('d1')).toBeUndefined();
      // Same key, same document: not a duplicate. Same key in another collection: fine.
      await s.commit({
        documents: [docWrite('a', { key: 'k' }), docWrite('a', { collection: 'files', key: 'k' })],
      });
      // Two documents claiming one key in one commit.
      await expectStorageError(
        s.commit({ documents: [docWrite('x', { key: 'new' }), docWrite('y', { key: 'new' })] }),
        'DUPLICATE_KEY',
      );
      expect(await s.getDocument('workflows', 'x')).toBeUndefined();
    });

    it('deletes documents; deleting a missing one is a no-op', async () => {
      const s = ctx.storage();
      await s.commit({ documents: [docWrite('a'), docWrite('b')] });
      await s.commit({
        deleteDocuments: [
          { collection: 'workflows', id: 'a' },
          { collection: 'workflows', id: 'zzz' },
        ],
      });
      expect(await s.getDocument('workflows', 'a')).toBeUndefined();
      expect(await s.getDocument('workflows', 'b')).toBeDefined();
      // Re-creating after delete starts again at revision 1.
      await s.commit({ documents: [docWrite('a', { expectedRevision: 0 })] });
      expect((await s.getDocument('workflows', 'a'))?.revision).toBe(1);
    });

    it('rejects invalid input with INVALID_ARGUMENT naming the path, and changes nothing', async () => {
      const s = ctx.storage();
      const cases: [unknown, string][] = [
        [
          { documents: [docWrite('a'), { ...docWrite('b'), collection: 'nope' }] },
          'changes.documents[1].collection',
        ],
        [{ documents: [{ ...docWrite('a'), id: '' }] }, 'changes.documents[0].id'],
        [{ documents: [{ ...docWrite('a'), data: [1] }] }, 'changes.documents[0].data'],
        [
          { documents: [docWrite('a', { expectedRevision: -1 })] },
          'changes.documents[0].expectedRevision',
        ],
        [{ documents: [docWrite('a', { at: 'yesterday' })] }, 'changes.documents[0].at'],
        [{ deleteDocuments: [{ collection: 'workflows' }] }, 'changes.deleteDocuments[0].id'],
      ];
      for (const [changes, path] of cases) {
        const error = await expectStorageError(s.commit(changes as never), 'INVALID_ARGUMENT');
        expect(error.message).toContain(path);
        expect(error.details.path).toBe(path);
      }
      expect((await s.listDocuments('workflows')).items).toEqual([]);
      await expectStorageError(s.getDocument('nope' as CollectionName, 'a'), 'INVALID_ARGUMENT');
      await expectStorageError(s.listDocuments('nope' as CollectionName), 'INVALID_ARGUMENT');
    });
  });
}
