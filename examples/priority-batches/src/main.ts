/**
 * Priorities: a nightly batch of invoices goes in at priority 90 (the batch default); an urgent
 * run at priority 5 arrives after it and overtakes the queued batch runs, waiting only for the
 * step already running. The engine runs one step at a time here, as under a tight provider quota.
 * Run it with `pnpm --filter @docflow/example-priority-batches start`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, type StepDefinition } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { sqliteStorage } from '@docflow/storage/sqlite';

/** TRIGGER → PARSE → EXTRACT. */
const invoiceWorkflow: StepDefinition[] = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE', next: [{ step: 'extract' }] },
  {
    name: 'extract',
    type: 'EXTRACT',
    config: {
      extractorConfig: {
        schema: {
          type: 'object',
          properties: {
            invoice_number: { type: ['string', 'null'] },
            total: { type: ['number', 'null'] },
          },
        },
      },
    },
  },
];

const invoiceText = (n: string, total: number) =>
  `Invoice number: ${n}\nDate: 2026-01-15\nTotal: ${total.toFixed(2)} EUR`;

/** One finished run, in completion order. */
export interface Completed {
  readonly id: string;
  readonly label: string;
  readonly priority: number;
}

/** What the demo observed. */
export interface PriorityDemoResult {
  /** Every run, in completion order. */
  readonly order: Completed[];
  /** Batch runs already completed when the urgent run was accepted. */
  readonly completedBeforeUrgent: number;
}

/** Runs the demo on SQLite at `dbPath` and returns the runs in the order they completed. */
export async function runPriorityDemo(
  dbPath: string,
  options: { batchSize?: number; log?: (line: string) => void } = {},
): Promise<PriorityDemoResult> {
  const log = options.log ?? console.log;
  const batchSize = options.batchSize ?? 20;
  const engine = createEngine({
    storage: sqliteStorage({ path: dbPath }),
    steps: builtinSteps(),
    scheduling: { concurrency: 1 },
  });
  await engine.start();
  try {
    const workflow = await engine.workflows.create({ name: 'Invoices', steps: invoiceWorkflow });
    await engine.workflows.deploy(workflow.id);

    const labels = new Map<string, { label: string; priority: number }>();
    const order: Completed[] = [];
    let remaining = batchSize + 1;
    const allDone = new Promise<void>((resolve) => {
      engine.on('workflow_run.completed', (event) => {
        const id = String(event.payload.id);
        const known = labels.get(id) ?? { label: id, priority: 0 };
        order.push({ id, ...known });
        if (--remaining === 0) resolve();
      });
    });

    const batch = await engine.workflowRuns.createBatch({
      workflow: { id: workflow.id },
      inputs: Array.from({ length: batchSize }, (_, i) => ({
        file: { text: invoiceText(`NIGHT-${i + 1}`, 100 + i), name: `night-${i + 1}.txt` },
        metadata: { source: 'nightly' },
      })),
    });
    for (const [i, run] of batch.runs.entries())
      labels.set(run.id, { label: `batch #${i + 1}`, priority: run.priority });
    log(
      `queued batch ${batch.batchId}: ${batch.runs.length} runs at priority ${batch.runs[0]?.priority}`,
    );

    const urgent = await engine.workflowRuns.create({
      workflow: { id: workflow.id },
      file: { text: invoiceText('URGENT-1', 9_999), name: 'urgent.txt' },
      priority: 5,
    });
    const completedBeforeUrgent = order.length;
    labels.set(urgent.id, { label: 'URGENT', priority: 5 });
    log(`then one urgent run at priority 5 (${completedBeforeUrgent} batch runs done by then)`);

    await allDone;
    log('completion order:');
    for (const [i, done] of order.entries()) {
      log(`  ${String(i + 1).padStart(2)}. ${done.label.padEnd(10)} (priority ${done.priority})`);
    }
    return { order, completedBeforeUrgent };
  } finally {
    await engine.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const db = process.argv[2] ?? join(process.cwd(), 'docflow-priority-batches.db');
  runPriorityDemo(db).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
