import { join } from 'node:path';
import type { StepDefinition } from '@docflow/engine';
import { createTestEngine } from '@docflow/engine/testing';
import { sqliteStorage } from '@docflow/storage/sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { seededRandom } from './canonical.ts';
import { deterministicSteps, type Execution, randomDelays } from './deterministic-steps.ts';
import { finishRun } from './finish-run.ts';
import { replayProblems } from './lifecycle-replay.ts';
import { pathProblems } from './path-invariants.ts';
import { projectRun, type RunProjection } from './projection.ts';
import { type RandomWorkflow, randomWorkflow } from './random-dag.ts';

/** Fixed so that a failure reproduces; set DOCFLOW_PROP_SEED / DOCFLOW_PROP_RUNS to explore. */
const SEED = Number(process.env.DOCFLOW_PROP_SEED ?? 20_261_122);
const NUM_RUNS = Number(process.env.DOCFLOW_PROP_RUNS ?? 20);

const dir = tempDir('docflow-dag-');
let files = 0;

interface Order {
  /** Seeds the executors' random delays. */
  readonly seed: number;
  /** The engine's global concurrency. */
  readonly concurrency: number;
  /** SQLite storage (snapshots go through JSON) instead of memory. */
  readonly sqlite?: boolean;
  /** Some executions fail once with a retryable error (retried at once). */
  readonly flaky?: boolean;
}

async function runWith(
  wf: RandomWorkflow,
  n: number,
  order: Order,
): Promise<{ projection: RunProjection; problems: string[] }> {
  const delay = randomDelays(seededRandom(order.seed));
  const executions: Execution[] = [];
  const engine = await createTestEngine({
    retry: { initialIntervalMs: 0, maxAttempts: 2 },
    steps: deterministicSteps({
      flaky: order.flaky === true,
      before: (execution, signal) => {
        executions.push(execution);
        return delay(execution, signal);
      },
    }),
    scheduling: { concurrency: order.concurrency },
    ...(order.sqlite ? { storage: sqliteStorage({ path: join(dir, `dag-${files++}.db`) }) } : {}),
  });
  try {
    const waiting = await engine.run(wf.steps, { text: `document ${n}`, metadata: { n } });
    const run = await finishRun(engine, waiting.id);
    return {
      projection: projectRun(run),
      problems: [
        ...(await replayProblems(engine.storage, run.id)),
        ...pathProblems(wf.steps, run, executions),
      ],
    };
  } finally {
    await engine.stop();
  }
}

const extract = {
  extractorConfig: { schema: { type: 'object', properties: { score: { type: 'number' } } } },
};

/**
 * A shrunk counterexample kept as a fixed case: forks used to share one lineage object, so the
 * join at s3 leaked s1's output into s2's input whenever s1 finished first.
 */
const LEAKED_LINEAGE: [RandomWorkflow, number, Order[]] = [
  {
    steps: [
      { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
      {
        name: 'parse',
        type: 'PARSE',
        next: [{ step: 's1' }, { step: 's2' }, { step: 's3' }, { step: 's4' }, { step: 's5' }],
      },
      { name: 's1', type: 'EXTRACT', config: extract, next: [{ step: 's3' }] },
      {
        name: 's2',
        type: 'SPLIT',
        config: {
          splitterConfig: {
            splitClassifications: [
              { id: 'cls_a', type: 'alpha', description: 'alpha documents' },
              { id: 'cls_b', type: 'beta', description: 'beta documents' },
              { id: 'cls_other', type: 'other', description: 'anything else' },
            ],
          },
        },
      },
      { name: 's3', type: 'COLLECT' },
      { name: 's4', type: 'EXTRACT', config: extract },
      { name: 's5', type: 'EXTRACT', config: extract },
    ] as unknown as StepDefinition[],
    shape: 'leaked lineage (parse→s1,s2,s3,s4,s5 s1→s3)',
  },
  0,
  [
    { seed: 0, concurrency: 1 },
    { seed: 0, concurrency: 2 },
  ],
];

describe('random DAG workflows', () => {
  it('reach the same status and per-step outputs whatever the completion order', async () => {
    // Also checked on every run: legal lifecycle transitions and the path-model invariants.
    await fc.assert(
      fc.asyncProperty(
        randomWorkflow(9),
        fc.integer({ min: 0, max: 100 }),
        fc.array(
          fc.record({
            seed: fc.integer(),
            concurrency: fc.integer({ min: 1, max: 6 }),
            sqlite: fc.boolean(),
            flaky: fc.boolean(),
          }),
          {
            minLength: 2,
            maxLength: 3,
          },
        ),
        async (wf, n, orders) => {
          const [first, ...others] = orders as [Order, ...Order[]];
          const reference = await runWith(wf, n, first);
          // Nothing in these workflows can fail: a FAILED run would be an engine (or fake) bug.
          expect(reference.projection.status, wf.shape).toBe('PROCESSED');
          expect(reference.problems, wf.shape).toEqual([]);
          for (const order of others) {
            const other = await runWith(wf, n, order);
            expect(other.problems, wf.shape).toEqual([]);
            expect(other.projection, `${wf.shape} (order ${JSON.stringify(order)})`).toEqual(
              reference.projection,
            );
          }
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS, examples: [LEAKED_LINEAGE] },
    );
  }, 60_000);
});
