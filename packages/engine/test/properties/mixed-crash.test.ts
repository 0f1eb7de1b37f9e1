import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createEngine, type WorkflowRun } from '@docflow/engine';
import { createTestEngine } from '@docflow/engine/testing';
import type { RunRecord, StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { describe, expect, it } from 'vitest';
import {
  deployMixedWorkflows,
  MIXED_WORKFLOWS,
  type MixedKind,
  mixedKindOf,
  mixedRunInput,
  REVIEWER,
} from '../fixtures/mixed-workload.ts';
import { tempDir } from '../helpers.ts';
import { seededRandom } from './canonical.ts';
import { deterministicSteps, type Execution } from './deterministic-steps.ts';
import { replayProblems } from './lifecycle-replay.ts';
import { pathProblems } from './path-invariants.ts';
import { projectRun, type RunProjection } from './projection.ts';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');
const child = join(import.meta.dirname, '../fixtures/mixed-child.ts');

/**
 * Each seed is one SQLite file killed `KILLS` times at points drawn from the seed. Child start-up
 * (tsx) dominates the cost, so the defaults are small; DOCFLOW_CRASH_SEEDS="1,2,3" and
 * DOCFLOW_CRASH_KILLS=4 explore more.
 */
const SEEDS = (process.env.DOCFLOW_CRASH_SEEDS ?? '7,1234').split(',').map(Number);
const KILLS = Number(process.env.DOCFLOW_CRASH_KILLS ?? 2);
const RUNS_PER_LIFE = 8;

/** Runs one child life; SIGKILLs it after `killAfter` executions (or once it is idle). */
function childLife(
  path: string,
  first: number,
  killAfter: number,
): Promise<{ accepted: string[]; executed: string[] }> {
  const proc = spawn(
    process.execPath,
    ['--import', tsxLoader, child, path, String(first), String(RUNS_PER_LIFE)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const accepted: string[] = [];
  const executed: string[] = [];
  let buffer = '';
  return new Promise((resolve) => {
    proc.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      let kill = false;
      for (const line of lines) {
        if (line.startsWith('accepted ')) accepted.push(line.slice(9));
        if (line.startsWith('executed ')) executed.push(line.split(' ')[1] as string);
        if (line === 'idle') kill = true;
      }
      if ((kill || executed.length >= killAfter) && proc.exitCode === null && !proc.killed) {
        proc.kill('SIGKILL');
      }
    });
    proc.on('exit', () => resolve({ accepted, executed }));
  });
}

async function allRuns(storage: StorageAdapter): Promise<RunRecord[]> {
  const out: RunRecord[] = [];
  let pageToken: string | undefined;
  do {
    const page = await storage.listRuns({
      kind: 'workflow_run',
      pageSize: 100,
      ...(pageToken ? { pageToken } : {}),
    });
    out.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return out;
}

/** Step runs PROCESSED in the file now, read straight from the snapshots. */
async function processedInFile(path: string): Promise<Set<string>> {
  const inspect = sqliteStorage({ path });
  await inspect.open();
  try {
    const ids = new Set<string>();
    for (const record of await allRuns(inspect)) {
      const snapshot = record.snapshot as unknown as { stepRuns: { id: string; status: string }[] };
      for (const sr of snapshot.stepRuns) if (sr.status === 'PROCESSED') ids.add(sr.id);
    }
    return ids;
  } finally {
    await inspect.close();
  }
}

/** Waits for a run's end, approving it whenever it waits for review. */
async function finish(
  engine: { workflowRuns: ReturnType<typeof createEngine>['workflowRuns'] },
  id: string,
): Promise<WorkflowRun> {
  for (;;) {
    const run = await engine.workflowRuns.waitFor(id, { timeoutMs: 20_000 });
    if (run.status !== 'NEEDS_REVIEW') return run;
    await engine.workflowRuns.review(id, { decision: 'approve', reviewer: REVIEWER });
  }
}

/** What run number `i` ends as when nothing interrupts it (memory storage, one process). */
async function references(numbers: readonly number[]): Promise<Map<number, RunProjection>> {
  const engine = await createTestEngine({ steps: deterministicSteps() });
  try {
    const ids = await deployMixedWorkflows(engine);
    const out = new Map<number, RunProjection>();
    for (const i of numbers) {
      const run = await engine.workflowRuns.create(mixedRunInput(ids, i));
      out.set(i, projectRun(await finish(engine, run.id)));
    }
    return out;
  } finally {
    await engine.stop();
  }
}

describe('SIGKILL across a mixed workload (splits, collects, reviews, linear runs)', () => {
  it.concurrent.each(SEEDS)(
    'seed %i: every run ends as it would uninterrupted; no PROCESSED step runs again',
    async (seed) => {
      const random = seededRandom(seed);
      const path = join(tempDir('docflow-mixed-'), 'mixed.db');
      const accepted: string[] = [];
      let processedAtKill = new Set<string>();
      for (let life = 0; life < KILLS; life++) {
        const killAfter = 8 + Math.floor(random() * 40);
        const { accepted: acks, executed } = await childLife(path, life * 100, killAfter);
        accepted.push(...acks);
        const again = executed.filter((key) => processedAtKill.has(key));
        expect(again, `life ${life}: PROCESSED before the last kill, executed again`).toEqual([]);
        processedAtKill = await processedInFile(path);
      }
      expect(accepted.length).toBeGreaterThan(0);

      // Restart on the same file in this process, approving reviews, and finish everything.
      const executions: Execution[] = [];
      const engine = createEngine({
        storage: sqliteStorage({ path }),
        webhooks: { enabled: false },
        steps: deterministicSteps({ before: (e) => void executions.push(e) }),
      });
      await engine.start();
      const finished = new Map<string, WorkflowRun>();
      const problems: string[] = [];
      try {
        const stored = await allRuns(engine.storage);
        const storedIds = new Set(stored.map((r) => r.id));
        for (const id of accepted) expect(storedIds.has(id), `accepted run ${id}`).toBe(true);
        for (const record of stored) {
          finished.set(record.id, await finish(engine, record.id));
          const run = finished.get(record.id) as WorkflowRun;
          const kind = mixedKindOf((run.metadata as { i: number }).i);
          for (const p of [
            ...(await replayProblems(engine.storage, record.id)),
            ...pathProblems(MIXED_WORKFLOWS[kind], run, []),
          ]) {
            problems.push(`${record.id}: ${p}`);
          }
        }
      } finally {
        await engine.stop();
      }
      const again = executions.filter((e) => processedAtKill.has(e.idempotencyKey));
      expect(again, 'PROCESSED before the last kill, executed again').toEqual([]);
      expect(problems).toEqual([]);

      const numberOf = (run: WorkflowRun) => (run.metadata as { i: number }).i;
      const expected = await references([...finished.values()].map(numberOf));
      const kinds = new Set<MixedKind>();
      for (const run of finished.values()) {
        const i = numberOf(run);
        kinds.add(mixedKindOf(i));
        expect(projectRun(run), `run ${i} (${mixedKindOf(i)})`).toEqual(expected.get(i));
      }
      // Every kind of the workload took part.
      expect(kinds.size).toBe(4);
    },
    120_000,
  );
});
