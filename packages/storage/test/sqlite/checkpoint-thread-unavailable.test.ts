import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { BACKGROUND_CHECKPOINTS_AFTER } from '../../src/sqlite/sqlite-storage.ts';

// Worker threads that cannot start here (as for an entry that is neither compiled nor under tsx).
vi.mock('../../src/sqlite/thread-entry.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/sqlite/thread-entry.ts')>();
  return {
    startThread: (...args: Parameters<typeof real.startThread>) => {
      if (args[0] === 'checkpoint-thread') throw new Error('no worker threads here');
      return real.startThread(...args);
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'docflow-no-thread-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('background checkpoints where the thread cannot start', () => {
  it('open the database anyway, with the writer checkpointing as before', async () => {
    const s = sqliteStorage({ path: join(dir, 'a.db') });
    await s.open();
    // Asked for after BACKGROUND_CHECKPOINTS_AFTER writes.
    for (let i = 0; i < BACKGROUND_CHECKPOINTS_AFTER + 10; i++) {
      await s.commit({
        runs: [
          {
            id: `run_${i}`,
            kind: 'workflow_run',
            status: 'PENDING',
            active: true,
            priority: 50,
            snapshot: {},
            expectedRevision: 0,
          },
        ],
      });
    }
    await new Promise((r) => setTimeout(r, 10));
    expect(s.info().backgroundCheckpoints).toBe(false);
    expect((await s.getRun(`run_${BACKGROUND_CHECKPOINTS_AFTER + 9}`))?.revision).toBe(1);
    await s.close();
  });
});
