/**
 * A child of processes.ts: one engine process on a PostgreSQL schema shared with others.
 * argv: URL, schema, mode, and the mode's arguments; talks to its parent in lines on stdout.
 *
 * - `throughput <clients> <seconds>`: deploys the 5-step no-op workflow, prints `ready`, waits for
 *   SIGUSR2, runs `clients` closed-loop clients (create a run, wait for it) for a warm-up
 *   second and then `seconds`, and prints `done <runs finished in the measured span>`.
 * - `recovery <leaseMs> <stepMs> <runs>`: every executed step prints `start <key>` and lasts
 *   `stepMs`; with `runs` > 0 it creates that many 5-step runs first (the process to be killed);
 *   with 0 it only works (the survivor).
 */
import { createEngine, defineStep, type StepType } from '@docflow/engine';
import { postgresStorage } from '@docflow/storage/postgres';
import { noop, steps } from '../engine/linear-noop.ts';

const [url, schema, mode, ...args] = process.argv.slice(2) as string[];
const storage = postgresStorage({ connectionString: url as string }, { schema: schema as string });
const TYPES: StepType[] = ['PARSE', 'EXTRACT', 'MERGE_EXTRACT'];

if (mode === 'throughput') {
  const [clients, seconds] = args.map(Number) as [number, number];
  const engine = createEngine({
    storage,
    webhooks: { enabled: false },
    steps: TYPES.map(noop),
  });
  await engine.start();
  const wf = await engine.workflows.create({ name: 'linear', steps });
  await engine.workflows.deploy(wf.id);
  const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
  const go = new Promise<void>((resolve) => process.once('SIGUSR2', () => resolve()));
  console.log('ready');
  await go;
  const start = performance.now();
  const measureFrom = start + 1000;
  const until = measureFrom + seconds * 1000;
  let finished = 0;
  const client = async () => {
    while (performance.now() < until) {
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { id: file.id },
      });
      await engine.workflowRuns.waitFor(run.id);
      if (performance.now() > measureFrom && performance.now() <= until) finished++;
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  console.log(`done ${finished}`);
  await engine.stop();
  process.exit(0);
} else if (mode === 'recovery') {
  const [leaseMs, stepMs, runs] = args.map(Number) as [number, number, number];
  const engine = createEngine({
    storage,
    webhooks: { enabled: false },
    scheduling: { leaseMs, concurrency: 64 },
    steps: TYPES.map((type) =>
      defineStep({
        type,
        async execute(_input, context) {
          console.log(`start ${context.idempotencyKey}`);
          await new Promise((r) => setTimeout(r, stepMs));
          return { output: null };
        },
      }),
    ),
  });
  await engine.start();
  if (runs > 0) {
    const wf = await engine.workflows.create({ name: 'linear', steps });
    await engine.workflows.deploy(wf.id);
    const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
    for (let i = 0; i < runs; i++) {
      const run = await engine.workflowRuns.create({
        workflow: { id: wf.id },
        file: { id: file.id },
      });
      console.log(`run ${run.id}`);
    }
  }
  console.log('ready');
  setInterval(() => undefined, 60_000);
}
