import { join } from 'node:path';
import { createEngine, type StepExecutor } from '@docflow/engine';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describe, expect, it } from 'vitest';
import { lineageOf } from '../../src/run/run-lineage.ts';
import type { RunState } from '../../src/run/run-state.ts';
import { fakeStep, minimalConfig, recordInputs, steps, tempDir } from '../helpers.ts';

const flow = steps([
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'review' }] },
  { name: 'review', type: 'HUMAN_REVIEW', next: [{ step: 'fields' }] },
  { name: 'fields', type: 'EXTRACT', config: minimalConfig('EXTRACT') as Record<string, unknown> },
]);

function executors(seen: Record<string, string[]>): StepExecutor[] {
  return (['PARSE', 'EXTRACT'] as const).map((type) => fakeStep(type, recordInputs(seen)));
}

describe('snapshots written before step runs kept only their parents', () => {
  it('continue: an old step run keeps its lineage, the new ones build on it', async () => {
    const path = join(tempDir(), 'legacy.db');
    const seen: Record<string, string[]> = {};
    const a = createEngine({ storage: sqliteStorage({ path }), steps: executors(seen) });
    await a.start();
    const wf = await a.workflows.create({ name: 'w', steps: flow });
    const created = await a.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
    expect((await a.workflowRuns.waitFor(created.id)).status).toBe('NEEDS_REVIEW');
    await a.stop();

    // Rewrite the stored snapshot as the engine wrote it before: each step run with its whole
    // lineage and no parents.
    const storage = sqliteStorage({ path });
    await storage.open();
    const record = await storage.getRun(created.id);
    if (!record) throw new Error('run not stored');
    const state = record.snapshot as unknown as RunState;
    const legacy = {
      ...state,
      stepRuns: state.stepRuns.map((sr) => {
        const { parents: _, ...rest } = sr;
        return { ...rest, lineage: lineageOf(state, sr) };
      }),
    };
    expect(legacy.stepRuns.find((s) => s.stepName === 'review')?.lineage).toEqual({
      trigger: state.stepRuns[0]?.id,
      parse: state.stepRuns[1]?.id,
    });
    await storage.commit({
      runs: [
        {
          id: record.id,
          kind: record.kind,
          workflowId: record.workflowId,
          status: record.status,
          active: record.active,
          priority: record.priority,
          snapshot: legacy as never,
          expectedRevision: record.revision,
        },
      ],
    });
    await storage.close();

    const b = createEngine({ storage: sqliteStorage({ path }), steps: executors(seen) });
    await b.start();
    await b.workflowRuns.review(created.id, { decision: 'approve', reviewer: 'r@example.com' });
    const done = await b.workflowRuns.waitFor(created.id);
    expect(done.status).toBe('PROCESSED');
    expect(seen.fields).toEqual(['parse', 'review', 'trigger']);
    const stored = (await b.storage.getRun(created.id))?.snapshot as unknown as RunState;
    const fields = stored.stepRuns.find((s) => s.stepName === 'fields');
    expect(fields?.lineage).toBeUndefined();
    expect(fields?.parents).toEqual([stored.stepRuns.find((s) => s.stepName === 'review')?.id]);
    expect(stored.stepRuns.find((s) => s.stepName === 'parse')?.lineage).toEqual({
      trigger: stored.stepRuns[0]?.id,
    });
    await b.stop();
  });
});

describe('a snapshot', () => {
  it('grows with the length of a path, not with its square', async () => {
    const seen: Record<string, string[]> = {};
    const length = 30;
    const path = join(tempDir(), 'long.db');
    const engine = createEngine({ storage: sqliteStorage({ path }), steps: executors(seen) });
    await engine.start();
    const list = [
      { name: 'trigger', type: 'TRIGGER' as const, next: [{ step: 's0' }] },
      ...Array.from({ length }, (_, i) => ({
        name: `s${i}`,
        type: 'PARSE' as const,
        ...(i + 1 < length ? { next: [{ step: `s${i + 1}` }] } : {}),
      })),
    ];
    const wf = await engine.workflows.create({ name: 'long', steps: steps(list) });
    const run = await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { text: 'x' } });
    expect((await engine.workflowRuns.waitFor(run.id)).status).toBe('PROCESSED');
    // The last step still sees every step before it.
    expect(seen[`s${length - 1}`]).toHaveLength(length);
    const bytes = JSON.stringify((await engine.storage.getRun(run.id))?.snapshot).length;
    // About 330 bytes per step run; the whole lineage in each would add 55 × 30 × 31 / 2.
    expect(bytes).toBeLessThan(1500 + (length + 1) * 400);
    await engine.stop();
  });
});
