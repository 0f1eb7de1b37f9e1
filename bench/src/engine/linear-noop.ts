/**
 * Issue 4's throughput figure: a 5-step linear workflow of no-op executors on SQLite, counted in
 * durable step transitions per second (each step commits PENDING → PROCESSING → PROCESSED).
 *
 *   cd bench && npx tsx src/engine/linear-noop.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, defineStep, type StepDefinition, type StepType } from '@docflow/engine';
import type { Durability } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';

const RUNS = Number(process.env.RUNS ?? 400);
const noop = (type: StepType) => defineStep({ type, execute: async () => ({ output: null }) });
const steps = [
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

/** Runs RUNS five-step runs and returns step transitions per second. */
export async function linearThroughput(
  durability: Durability,
): Promise<{ transitionsPerSecond: number; stepsPerSecond: number; bytesPerStep: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'docflow-linear-'));
  const engine = createEngine({
    storage: sqliteStorage({ path: join(dir, 'l.db'), durability }),
    steps: [noop('PARSE'), noop('EXTRACT'), noop('MERGE_EXTRACT')],
    webhooks: { enabled: false },
  });
  await engine.start();
  const wf = await engine.workflows.create({ name: 'linear', steps });
  await engine.workflows.deploy(wf.id);
  const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    ids.push(
      (await engine.workflowRuns.create({ workflow: { id: wf.id }, file: { id: file.id } })).id,
    );
  }
  for (const id of ids) await engine.workflowRuns.waitFor(id);
  const seconds = (performance.now() - t0) / 1000;
  const run = await engine.storage.getRun(ids[0] as string);
  const events = await engine.storage.listRunEvents(ids[0] as string);
  const bytes = JSON.stringify(run?.snapshot).length + JSON.stringify(events).length;
  await engine.stop();
  const steps5 = RUNS * 5;
  return {
    transitionsPerSecond: (steps5 * 2) / seconds,
    stepsPerSecond: steps5 / seconds,
    bytesPerStep: bytes / 6,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const d of ['normal', 'batched'] as const) console.log(d, await linearThroughput(d));
}
