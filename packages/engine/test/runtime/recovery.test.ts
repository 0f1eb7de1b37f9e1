import { memoryStorage, type RunWrite } from '@docflow/storage';
import { describe, expect, it } from 'vitest';
import { requeueExecutingSteps } from '../../src/runtime/recovery.ts';

const NOW = '2026-11-24T10:00:00.000Z';

function runWrite(id: string, status: string, steps: [string, string, string][]): RunWrite {
  return {
    id,
    kind: 'workflow_run',
    status,
    active: status !== 'PROCESSED',
    priority: 40,
    expectedRevision: 0,
    snapshot: {
      id,
      status,
      priority: 40,
      stepRuns: steps.map(([srId, stepType, srStatus]) => ({
        id: srId,
        stepName: srId,
        stepType,
        status: srStatus,
        attempt: 2,
      })),
    },
  };
}

describe('requeueExecutingSteps', () => {
  it('queues every executor step PROCESSING in an unfinished run, across pages, and nothing else', async () => {
    const storage = memoryStorage();
    await storage.open();
    await storage.commit({
      runs: [
        runWrite('r1', 'PROCESSING', [
          ['t1', 'TRIGGER', 'PROCESSED'],
          ['p1', 'PARSE', 'PROCESSING'],
          ['e1', 'EXTRACT', 'PENDING'],
        ]),
        runWrite('r2', 'PROCESSING', [['p2', 'PARSE', 'PROCESSING']]),
        runWrite('r3', 'PROCESSING', [
          ['p3', 'PARSE', 'PROCESSING'],
          ['x3', 'EXTRACT', 'PROCESSING'],
        ]),
        runWrite('r4', 'CANCELLING', [['p4', 'PARSE', 'PROCESSING']]),
        runWrite('r5', 'NEEDS_REVIEW', [['h5', 'HUMAN_REVIEW', 'WAITING']]),
        runWrite('r6', 'PROCESSED', [['p6', 'PARSE', 'PROCESSED']]),
      ],
      // Claimed before the crash: its stale lease was released, its row stays as it is.
      enqueue: [
        {
          id: 'p2#2',
          runId: 'r2',
          kind: 'step:PARSE',
          priority: 40,
          payload: { stepRunId: 'p2' },
          availableAt: '2026-11-24T09:00:00.000Z',
        },
      ],
    });
    const seen: string[] = [];
    const queued = await requeueExecutingSteps(storage, NOW, {
      pageSize: 2,
      seen: (run) => seen.push(run.id),
    });
    expect(queued).toBe(5);
    // Runs waiting for review or at rest are not read.
    expect(seen.sort()).toEqual(['r1', 'r2', 'r3', 'r4']);
    const work = await storage.listWork();
    expect(work.map((w) => [w.id, w.runId, w.kind, w.priority, w.payload]).sort()).toEqual(
      [
        ['p1#2', 'r1', 'step:PARSE', 40, { stepRunId: 'p1' }],
        ['p2#2', 'r2', 'step:PARSE', 40, { stepRunId: 'p2' }],
        ['p3#2', 'r3', 'step:PARSE', 40, { stepRunId: 'p3' }],
        ['p4#2', 'r4', 'step:PARSE', 40, { stepRunId: 'p4' }],
        ['x3#2', 'r3', 'step:EXTRACT', 40, { stepRunId: 'x3' }],
      ].sort(),
    );
    expect(work.find((w) => w.id === 'p2#2')?.availableAt).toBe('2026-11-24T09:00:00.000Z');
    expect(work.every((w) => w.leaseOwner === undefined)).toBe(true);
  });
});
