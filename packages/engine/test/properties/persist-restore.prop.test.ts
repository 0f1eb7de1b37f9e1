import { join } from 'node:path';
import { createTestEngine } from '@docflow/engine/testing';
import { sqliteStorage } from '@docflow/storage/sqlite';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers.ts';
import { deterministicSteps, type Execution } from './deterministic-steps.ts';
import { finishRun } from './finish-run.ts';
import { replayProblems } from './lifecycle-replay.ts';
import { pathProblems } from './path-invariants.ts';
import { projectRun, type RunProjection } from './projection.ts';
import { type RandomWorkflow, randomWorkflow } from './random-dag.ts';

/** Fixed so that a failure reproduces; set DOCFLOW_PROP_SEED / DOCFLOW_PROP_RUNS to explore. */
const SEED = Number(process.env.DOCFLOW_PROP_SEED ?? 4_242);
const NUM_RUNS = Number(process.env.DOCFLOW_PROP_RUNS ?? 20);

const dir = tempDir('docflow-persist-');
let files = 0;

async function uninterrupted(wf: RandomWorkflow, n: number): Promise<RunProjection> {
  const engine = await createTestEngine({ steps: deterministicSteps() });
  try {
    const waiting = await engine.run(wf.steps, { text: `document ${n}`, metadata: { n } });
    return projectRun(await finishRun(engine, waiting.id));
  } finally {
    await engine.stop();
  }
}

/** Resolves never; rejects with the signal's reason once it aborts (engine.stop()). */
function blockUntilAborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

async function processedStepRuns(path: string, runId: string): Promise<Set<string>> {
  const inspect = sqliteStorage({ path });
  await inspect.open();
  try {
    const record = await inspect.getRun(runId);
    const snapshot = record?.snapshot as unknown as { stepRuns: { id: string; status: string }[] };
    return new Set(snapshot.stepRuns.filter((s) => s.status === 'PROCESSED').map((s) => s.id));
  } finally {
    await inspect.close();
  }
}

describe('persist → restore → continue', () => {
  it('equals an uninterrupted run, and no PROCESSED step runs again', async () => {
    await fc.assert(
      fc.asyncProperty(
        randomWorkflow(7),
        fc.integer({ min: 0, max: 100 }),
        fc.nat({ max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (wf, n, completions, concurrency) => {
          const path = join(dir, `run-${files++}.db`);
          // Engine A: executions after the first `completions` block until stop() aborts them.
          const executed: Execution[] = [];
          let calls = 0;
          let blocked!: () => void;
          const reachedBlock = new Promise<'blocked'>((resolve) => {
            blocked = () => resolve('blocked');
          });
          const a = await createTestEngine({
            storage: sqliteStorage({ path }),
            scheduling: { concurrency },
            steps: deterministicSteps({
              before: async (execution, signal) => {
                executed.push(execution);
                calls++;
                if (calls <= completions) return;
                blocked();
                await blockUntilAborted(signal);
              },
            }),
          });
          const created = await a.workflows.create({ name: 'persist', steps: wf.steps });
          await a.workflows.deploy(created.id);
          const run = await a.workflowRuns.create({
            workflow: { id: created.id },
            file: { text: `document ${n}` },
            metadata: { n },
          });
          await Promise.race([reachedBlock, a.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 })]);
          await a.stop();
          const processedAtStop = await processedStepRuns(path, run.id);

          // Engine B: same file, same executors, records what it executes.
          const executedAfter: Execution[] = [];
          const b = await createTestEngine({
            storage: sqliteStorage({ path }),
            steps: deterministicSteps({ before: (e) => void executedAfter.push(e) }),
          });
          let finished: Awaited<ReturnType<typeof b.workflowRuns.waitFor>>;
          let problems: string[];
          try {
            finished = await finishRun(b, run.id);
            problems = [
              ...(await replayProblems(b.storage, run.id)),
              ...pathProblems(wf.steps, finished, [...executed, ...executedAfter]),
            ];
          } finally {
            await b.stop();
          }
          const again = executedAfter.filter((e) => processedAtStop.has(e.idempotencyKey));
          expect(again, `${wf.shape}: PROCESSED before the stop, executed again`).toEqual([]);
          expect(problems, wf.shape).toEqual([]);
          expect(projectRun(finished), `${wf.shape} (stopped after ${completions})`).toEqual(
            await uninterrupted(wf, n),
          );
        },
      ),
      { seed: SEED, numRuns: NUM_RUNS },
    );
  }, 60_000);
});
