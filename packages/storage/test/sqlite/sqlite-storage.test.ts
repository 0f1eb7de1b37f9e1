import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describeStorageContract } from '@docflow/storage/testing';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'docflow-storage-'));
let n = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeStorageContract('sqlite (file, normal)', () =>
  sqliteStorage({ path: join(dir, `normal-${n++}.db`) }),
);
describeStorageContract('sqlite (:memory:)', () => sqliteStorage({ path: ':memory:' }));
describeStorageContract(
  'sqlite (file, batched)',
  () => sqliteStorage({ path: join(dir, `batched-${n++}.db`), durability: 'batched' }),
  { propertyRuns: 10 },
);
describeStorageContract(
  'sqlite (file, normal, writer thread)',
  () => sqliteStorage({ path: join(dir, `thread-${n++}.db`), writerThread: true }),
  { propertyRuns: 10 },
);
describeStorageContract(
  'sqlite (file, batched, writer thread)',
  () =>
    sqliteStorage({
      path: join(dir, `thread-batched-${n++}.db`),
      durability: 'batched',
      writerThread: true,
    }),
  { propertyRuns: 10 },
);
