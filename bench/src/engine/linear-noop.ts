/**
 * Issue 4's throughput figure: a 5-step linear workflow of no-op executors on SQLite, counted in
 * durable step transitions per second (each step commits PENDING → PROCESSING → PROCESSED).
 *
 *   cd bench && npx tsx src/engine/linear-noop.ts
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import {
  createEngine,
  defineStep,
  type Engine,
  type StepDefinition,
  type StepType,
} from '@docflow/engine';
import { type Durability, memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { scratchDir } from '../harness.ts';

/**
 * Measured runs (default 6,000), on both sides. A run of the engine writes about six WAL frames;
 * with fewer runs the measurement would mostly see the process's first 10,000 WAL pages, which
 * grow the WAL file (each such frame costs about twice one written over the WAL's existing pages,
 * as a long-running process writes them), and last under a second on the docflow side, short
 * enough for one of this machine's slowdowns to decide it.
 */
export const RUNS = Number(process.env.RUNS ?? 6000);
/** Runs before the measured ones, on both sides. */
export const WARMUP = Math.ceil(RUNS / 4);
/** Clients creating runs at once (the LangGraph side invokes as many graphs at once). */
export const CONCURRENCY = 16;
/** An executor of `type` that does nothing. */
export const noop = (type: StepType) =>
  defineStep({ type, execute: async () => ({ output: null }) });
/** TRIGGER and five executor steps in a line. */
export const steps = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 's1' }] },
  { name: 's1', type: 'PARSE', next: [{ step: 's2' }] },
  {
    name: 's2',
    type: 'EXTRACT',
    config: { extractorConfig: { schema: { type: 'object' } } },
    next: [{ step: 's3' }],
  },
  { name: 's3', type: 'MERGE_EXTRACT', next: [{ step: 's4' }] },
  { name: 's4', type: 'MERGE_EXTRACT', next: [{ step: 's5' }] },
  { name: 's5', type: 'MERGE_EXTRACT' },
] as unknown as StepDefinition[];

/** An engine on `storage` with the no-op executors, the five-step workflow and a file to run it on. */
export interface LinearEngine {
  readonly engine: Engine;
  readonly workflowId: string;
  readonly fileId: string;
}

/**
 * Starts an engine on `storage` with the no-op executors (webhooks off, `concurrency` clients'
 * steps at once, the engine's default when not given), deploys the five-step workflow and uploads
 * the file its runs read.
 */
export async function startLinearEngine(
  storage: StorageAdapter,
  concurrency?: number,
): Promise<LinearEngine> {
  const engine = createEngine({
    storage,
    steps: [noop('PARSE'), noop('EXTRACT'), noop('MERGE_EXTRACT')],
    webhooks: { enabled: false },
    ...(concurrency === undefined ? {} : { scheduling: { concurrency } }),
  });
  await engine.start();
  const wf = await engine.workflows.create({ name: 'linear', steps });
  await engine.workflows.deploy(wf.id);
  const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
  return { engine, workflowId: wf.id, fileId: file.id };
}

/** One engine configuration to measure. */
export interface LinearConfig {
  readonly durability: Durability;
  /** `sqliteStorage({ writerThread })`: SQLite writes on a worker thread of their own. */
  readonly writerThread?: boolean;
  /** `scheduling.concurrency` (the engine's default is 16). */
  readonly engineConcurrency?: number;
  /**
   * The in-memory adapter instead of SQLite: nothing durable, no disk. A ceiling, not a target:
   * what the engine's own work allows when nothing goes to disk.
   */
  readonly inMemory?: boolean;
}

/**
 * A closed loop of CONCURRENCY clients, as the LangGraph side runs: each creates a run of the
 * workflow on the file, waits for it to finish and starts the next, so at most CONCURRENCY runs
 * are in flight; `count` runs in all. Throws if a run ends other than PROCESSED.
 */
export async function runClients(
  engine: Engine,
  workflowId: string,
  fileId: string,
  count: number,
): Promise<void> {
  let next = 0;
  const client = async () => {
    while (next < count) {
      next++;
      const run = await engine.workflowRuns.create({
        workflow: { id: workflowId },
        file: { id: fileId },
      });
      const done = await engine.workflowRuns.waitFor(run.id);
      if (done.status !== 'PROCESSED') throw new Error(`run ${run.id} ended ${done.status}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, client));
}

/** Runs RUNS five-step runs and returns step transitions per second. */
export async function linearThroughput(config: LinearConfig): Promise<{
  transitionsPerSecond: number;
  stepsPerSecond: number;
  /** Undefined in memory. */
  bytesPerStep: number | undefined;
  cpuMicrosPerStep: number;
}> {
  const dir = scratchDir('docflow-linear-');
  const memory = config.inMemory ? memoryStorage() : undefined;
  const open = () =>
    createEngine({
      storage:
        memory ??
        sqliteStorage({
          path: join(dir, 'l.db'),
          durability: config.durability,
          writerThread: config.writerThread ?? false,
        }),
      steps: [noop('PARSE'), noop('EXTRACT'), noop('MERGE_EXTRACT')],
      webhooks: { enabled: false },
      scheduling: { concurrency: config.engineConcurrency ?? 16 },
    });
  const setup = open();
  await setup.start();
  const wf = await setup.workflows.create({ name: 'linear', steps });
  await setup.workflows.deploy(wf.id);
  const file = await setup.files.upload({ name: 'a.txt', data: 'x' });
  await setup.stop();
  const size = () => (memory ? 0 : statSync(join(dir, 'l.db')).size);
  const sizeBefore = size();
  const engine = open();
  await engine.start();
  const loop = (count: number) => runClients(engine, wf.id, file.id, count);
  // Unmeasured warm-up: the JIT compiles the hot path before the clock starts.
  await loop(WARMUP);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  await loop(RUNS);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  await engine.stop();
  // What the runs cost on disk: the database file's growth (rows, indexes, free space in pages;
  // the WAL is checkpointed into it on close) over every step run stored (TRIGGER included).
  const bytes = size() - sizeBefore;
  const steps5 = RUNS * 5;
  return {
    transitionsPerSecond: (steps5 * 2) / seconds,
    stepsPerSecond: steps5 / seconds,
    bytesPerStep: memory ? undefined : bytes / ((WARMUP + RUNS) * 6),
    cpuMicrosPerStep: (cpu.user + cpu.system) / steps5,
  };
}

/**
 * The configurations the figures are read from. The engine's own cap is raised to 64 so
 * that it is not what limits 16 clients (LangGraph has no such cap); the defaults are measured too.
 */
export const CONFIGS: readonly (LinearConfig & { readonly name: string })[] = [
  { name: 'normal, defaults (concurrency 16)', durability: 'normal' },
  { name: 'normal', durability: 'normal', engineConcurrency: 64 },
  {
    name: 'normal, writer thread',
    durability: 'normal',
    engineConcurrency: 64,
    writerThread: true,
  },
  { name: 'batched', durability: 'batched', engineConcurrency: 64 },
  {
    name: 'batched, writer thread',
    durability: 'batched',
    engineConcurrency: 64,
    writerThread: true,
  },
  {
    name: 'in memory (not durable; the engine alone, a ceiling)',
    durability: 'normal',
    engineConcurrency: 64,
    inMemory: true,
  },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const c of CONFIGS) console.log(c.name, await linearThroughput(c));
}
