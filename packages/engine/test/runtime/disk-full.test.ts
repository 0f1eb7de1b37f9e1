/**
 * A full disk (issue 21): a real 3 MiB tmpfs under an SQLite engine. Writes are refused while it
 * is full; once it has room again the engine recovers by itself: no error loop, idle() settles,
 * and what the engine holds in memory is what the file holds. Needs root (mount); skipped, and
 * said so, elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, defineStep, type Engine } from '@docflow/engine';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'docflow-disk-full-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m', 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    console.warn(`disk-full test skipped: cannot mount a tmpfs on ${dir} (needs root)`);
    return false;
  }
})();
afterAll(() => {
  if (mounted) execFileSync('umount', [dir]);
  rmSync(dir, { recursive: true, force: true });
});

const parse = defineStep({
  type: 'PARSE',
  execute: async () => ({ output: { text: 'y'.repeat(20_000) } }),
});

function engineOn(path: string, errors: unknown[]): Engine {
  return createEngine({
    storage: sqliteStorage({ path }),
    steps: [parse],
    webhooks: { enabled: false },
    onError: (error) => errors.push(error),
  });
}

describe.skipIf(!mounted)('a full disk', () => {
  it('refuses writes, then recovers once there is room: no error loop, idle() settles, memory matches disk', async () => {
    const path = join(dir, 'docflow.db');
    const errors: unknown[] = [];
    const engine = engineOn(path, errors);
    await engine.start();
    const wf = await engine.workflows.create({
      name: 'full',
      steps: [
        { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
        { name: 'parse', type: 'PARSE' },
      ],
    });
    await engine.workflows.deploy(wf.id);
    const ids: string[] = [];
    let refusal: unknown;
    while (refusal === undefined && ids.length < 1_000) {
      await engine.workflowRuns
        .create({ workflow: { id: wf.id }, file: { text: 'x'.repeat(5_000) } })
        .then(
          (run) => ids.push(run.id),
          (error: unknown) => {
            refusal = error;
          },
        );
    }
    expect(refusal).toMatchObject({ code: 'DATABASE_ERROR' });
    expect(String((refusal as Error).message)).toMatch(/full/);
    // Full for a while: steps that finished cannot record their outcomes; each says so once.
    await new Promise((r) => setTimeout(r, 1_500));
    const duringOutage = errors.length;
    await new Promise((r) => setTimeout(r, 1_500));
    expect(errors.length).toBe(duringOutage);
    expect(errors.length).toBeLessThanOrEqual(ids.length);

    execFileSync('mount', ['-o', 'remount,size=64m', dir]);
    await engine.idle({ timeoutMs: 15_000 });
    const inMemory = await Promise.all(ids.map((id) => engine.workflowRuns.get(id)));
    expect(inMemory.map((r) => r.status)).toEqual(ids.map(() => 'PROCESSED'));
    await engine.stop();

    const reopened = engineOn(path, []);
    await reopened.start();
    const onDisk = await Promise.all(ids.map((id) => reopened.workflowRuns.get(id)));
    await reopened.stop();
    expect(onDisk).toEqual(inMemory);
  }, 60_000);
});
