import { join } from 'node:path';
import { createEngine } from '@docflow/engine';
import type { StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describe, expect, it } from 'vitest';
import { sweepOrphanFileBlobs } from '../../src/files/file-store.ts';
import { tempDir } from '../helpers.ts';

describe('file bytes a crash left without their file', () => {
  it('are deleted when the engine starts; the bytes of every file stay', async () => {
    const path = join(tempDir(), 'orphans.db');
    const first = createEngine({ storage: sqliteStorage({ path }), steps: [] });
    await first.start();
    const kept = await first.files.upload({ name: 'kept.txt', data: 'kept' });
    const dropped = await first.files.upload({ name: 'dropped.txt', data: 'dropped' });
    await first.stop();

    // What a process killed between the two steps of an upload, or of a delete, leaves.
    const crashed = sqliteStorage({ path });
    await crashed.open();
    await crashed.blobs.put('file/file_never_committed', new TextEncoder().encode('half'));
    await crashed.commit({ deleteDocuments: [{ collection: 'files', id: dropped.id }] });
    await crashed.close();

    const second = createEngine({ storage: sqliteStorage({ path }), steps: [] });
    await second.start();
    expect(new TextDecoder().decode(await second.files.download(kept.id))).toBe('kept');
    await second.stop();

    const inspect = sqliteStorage({ path, readOnly: true });
    await inspect.open();
    expect(await inspect.blobs.keys?.('file/')).toEqual([`file/${kept.id}`]);
    await inspect.close();
  });

  it('are left alone on storage several processes share (one may be mid-upload)', async () => {
    const storage = sqliteStorage({ path: join(tempDir(), 'shared.db') });
    await storage.open();
    await storage.blobs.put('file/file_in_flight', new Uint8Array([1]));
    const shared = {
      sharedByProcesses: true,
      blobs: storage.blobs,
      getDocument: storage.getDocument.bind(storage),
    } as unknown as StorageAdapter;
    expect(await sweepOrphanFileBlobs(shared)).toBe(0);
    expect(await storage.blobs.keys?.('file/')).toEqual(['file/file_in_flight']);
    expect(await sweepOrphanFileBlobs(storage)).toBe(1);
    await storage.close();
  });
});
