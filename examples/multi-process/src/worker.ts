/**
 * A worker process: an engine on the shared database that executes steps (claimed from the
 * queue, whoever created their runs) and delivers webhooks. Start as many as you like; a worker
 * that dies leaves its steps to the others once their leases expire.
 */
import { setTimeout as wait } from 'node:timers/promises';
import { createEngine, type StepExecutor } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { postgresStorage } from '@docflow/storage/postgres';
import { settings } from './settings.ts';

const { url, schema, leaseMs, parseDelayMs } = settings();
const name = process.argv[2] ?? `worker-${process.pid}`;

/** The built-in parse, after `DOCFLOW_PARSE_DELAY_MS` (a step in flight to kill the worker in). */
function delayed(parse: StepExecutor): StepExecutor {
  return {
    ...parse,
    async execute(input, context) {
      console.log(`${name} parsing ${context.idempotencyKey}`);
      await wait(parseDelayMs, undefined, { signal: context.signal });
      return parse.execute(input, context);
    },
  };
}

const engine = createEngine({
  storage: postgresStorage({ connectionString: url }, { schema }),
  steps: builtinSteps().map((step) =>
    step.type === 'PARSE' && parseDelayMs > 0 ? delayed(step) : step,
  ),
  scheduling: { concurrency: 8, leaseMs },
  onError: (error) => console.error(`${name}: ${String(error)}`),
});
// Published by the process that committed the step's outcome: this one.
engine.on('workflow_run.step_run.processed', (event) => {
  const stepRun = event.payload as { id: string };
  console.log(`${name} processed ${stepRun.id}`);
});
await engine.start();
console.log(`${name} ready (pid ${process.pid})`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    // Unfinished steps go back to the queue for the other workers.
    void engine.stop().finally(() => process.exit(0));
  });
}
