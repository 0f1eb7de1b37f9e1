import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describe, expect, it, onTestFinished } from 'vitest';

/** A temp directory removed when the current test finishes. */
function scratchDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const adapters: [string, () => StorageAdapter][] = [
  ['memory', () => memoryStorage()],
  ['sqlite', () => sqliteStorage({ path: join(scratchDir('lease-'), 's.db') })],
];

describe.each(adapters)('enqueue with a lease (%s)', (_name, make) => {
  it('is held by its owner until the lease expires, then claimable by others', async () => {
    const s = make();
    await s.open();
    await s.commit({
      enqueue: [
        {
          id: 'w1',
          runId: 'r',
          kind: 'k',
          priority: 10,
          payload: {},
          lease: { owner: 'me', leaseMs: 1000 },
        },
        { id: 'w2', runId: 'r', kind: 'k', priority: 50, payload: {} },
      ],
    });
    const [held] = (await s.listWork()).filter((w) => w.id === 'w1');
    expect(held).toMatchObject({ leaseOwner: 'me', attempts: 1 });
    // Someone else claims only the unleased item while the lease holds…
    const now = new Date(Date.parse(held?.leaseExpiresAt as string) - 1).toISOString();
    const first = await s.claimWork({ owner: 'other', limit: 5, leaseMs: 10, now });
    expect(first.map((w) => w.id)).toEqual(['w2']);
    // …and the leased one once it expired.
    const later = new Date(Date.parse(held?.leaseExpiresAt as string) + 1).toISOString();
    const second = await s.claimWork({ owner: 'other', limit: 5, leaseMs: 10, now: later });
    expect(second.map((w) => [w.id, w.attempts])).toEqual([['w1', 2]]);
    expect(await s.renewWork(['w1'], { owner: 'me', leaseMs: 1000, now: later })).toEqual([]);
    await s.close();
  });

  it('rejects a bad lease by path and commits nothing', async () => {
    const s = make();
    await s.open();
    const bad = await s
      .commit({
        enqueue: [
          {
            id: 'w',
            runId: 'r',
            kind: 'k',
            priority: 1,
            payload: {},
            lease: { owner: '', leaseMs: 0 },
          },
        ],
      })
      .catch((e) => e);
    expect(bad.code).toBe('INVALID_ARGUMENT');
    expect(String(bad.message)).toContain('changes.enqueue[0].lease');
    expect(await s.listWork()).toEqual([]);
    await s.close();
  });
});
