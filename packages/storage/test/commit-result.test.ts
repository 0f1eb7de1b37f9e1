import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { postgresForTests } from '@docflow/storage/testing';
import { describe, expect, it, onTestFinished } from 'vitest';
import { docWrite, runWrite } from '../src/testing/contract-helpers.ts';

const pgTest = postgresForTests();

/**
 * A commit's revisions are records without a prototype on every adapter (see `revisionsByKey`):
 * read as records, and a key named like a method of `Object.prototype` is only a key.
 */
async function checkRevisions(s: StorageAdapter): Promise<void> {
  await s.open();
  onTestFinished(() => s.close());
  const result = await s.commit({
    runs: [runWrite('run_1', 0), runWrite('toString', 0)],
    documents: [docWrite('w1')],
  });
  expect(result).toEqual({
    runRevisions: { run_1: 1, toString: 1 },
    documentRevisions: { 'workflows/w1': 1 },
  });
  expect(Object.getPrototypeOf(result.runRevisions)).toBeNull();
  expect(Object.getPrototypeOf(result.documentRevisions)).toBeNull();
  expect(Object.keys(result.runRevisions)).toEqual(['run_1', 'toString']);
  expect('hasOwnProperty' in result.runRevisions).toBe(false);
  expect(JSON.parse(JSON.stringify(result.runRevisions))).toEqual({ run_1: 1, toString: 1 });
}

describe('a commit result', () => {
  it('on memory', async () => {
    await checkRevisions(memoryStorage());
  });

  it('on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docflow-commit-result-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    await checkRevisions(sqliteStorage({ path: join(dir, 'db.sqlite') }));
  });

  it.skipIf(pgTest.skip)('on PostgreSQL, batched or not', async () => {
    const s = await pgTest.storage();
    await checkRevisions(s);
    // Step commits (runs and queue items only) go in one batch statement.
    const [a, b] = await Promise.all([
      s.commit({ runs: [runWrite('run_1', 1)] }),
      s.commit({ runs: [runWrite('run_2', 0)] }),
    ]);
    expect([a?.runRevisions, b?.runRevisions]).toEqual([{ run_1: 2 }, { run_2: 1 }]);
    expect(Object.getPrototypeOf(a?.runRevisions)).toBeNull();
  });
});
