import { join } from 'node:path';
import { createEngine } from '@docflow/engine';
import { sqliteStorage } from '@docflow/storage/sqlite';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fakeStep, recordInputs, steps, tempDir } from '../helpers.ts';

const flow = steps([
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'more' }] },
  { name: 'more', type: 'PARSE', next: [{ step: 'review' }] },
  { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'fields' }] },
  { name: 'fields', type: 'PARSE' },
]);

/** The outputs each step was given, by step name. */
const seen: Record<string, string[]> = {};
const executors = [fakeStep('PARSE', recordInputs(seen))];

describe('step commits store snapshot patches (SQLite)', () => {
  it('a run paused between patches is read back whole by a new engine and continues', async () => {
    const path = join(tempDir(), 'patches.db');
    const a = createEngine({ storage: sqliteStorage({ path }), steps: executors });
    await a.start();
    const wf = await a.workflows.create({ name: 'w', steps: flow });
    const created = await a.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
    const paused = await a.workflowRuns.waitFor(created.id);
    expect(paused.status).toBe('NEEDS_REVIEW');
    await a.stop();

    // The step commits before the pause stored patches, not whole snapshots.
    const raw = new BetterSqlite3(path, { readonly: true });
    const patched = raw
      .prepare('SELECT count(*) AS c FROM run_events WHERE run_id = ? AND patch IS NOT NULL')
      .get(created.id) as { c: number };
    raw.close();
    expect(patched.c).toBeGreaterThan(0);

    const b = createEngine({ storage: sqliteStorage({ path }), steps: executors });
    await b.start();
    expect(await b.workflowRuns.get(created.id)).toEqual(paused);
    await b.workflowRuns.review(created.id, { decision: 'approve', reviewer: 'r@example.com' });
    const done = await b.workflowRuns.waitFor(created.id);
    expect(done.status).toBe('PROCESSED');
    expect(seen.fields).toEqual(['more', 'parse', 'review', 'trigger']);
    await b.stop();
  });
});
