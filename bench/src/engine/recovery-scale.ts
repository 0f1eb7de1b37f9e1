/**
 * Issue 4's recovery and scale figures on SQLite (`normal`):
 * - recovery: N unfinished runs (their PARSE step claimed by an engine that then stopped, as after
 *   a crash) are resumed by a new engine: time from `start()` until every run is PROCESSED;
 * - scale: creating a run and listing the first page with 100 stored runs and with 100,000.
 *
 *   cd bench && npx tsx src/engine/recovery-scale.ts          # RECOVER=10000 SCALE=100000
 */
import { join } from 'node:path';
import { createEngine, defineStep, type StepDefinition } from '@docflow/engine';
import type { JsonObject } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { machineLine, measure, scratchDir } from '../harness.ts';

const RECOVER = Number(process.env.RECOVER ?? 10_000);
const SCALE = Number(process.env.SCALE ?? 100_000);
const steps = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE' },
] as unknown as StepDefinition[];
const noop = defineStep({ type: 'PARSE', execute: async () => ({ output: null }) });
const never = defineStep({
  type: 'PARSE',
  execute: (_i, ctx) =>
    new Promise<never>((_r, reject) =>
      ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)),
    ),
});

async function recovery(writerThread: boolean): Promise<{
  startMs: number;
  allStartedMs: number;
  allDoneMs: number;
}> {
  const path = join(scratchDir('docflow-recover-'), 'r.db');
  const a = createEngine({
    storage: sqliteStorage({ path, durability: 'batched' }),
    steps: [never],
    scheduling: { concurrency: 4 },
  });
  await a.start();
  const wf = await a.workflows.create({ name: 'r', steps });
  await a.workflows.deploy(wf.id);
  const file = await a.files.upload({ name: 'a.txt', data: 'x' });
  const ids: string[] = [];
  for (let i = 0; i < RECOVER; i++)
    ids.push((await a.workflowRuns.create({ workflow: { id: wf.id }, file: { id: file.id } })).id);
  await a.stop();
  // The recovered executor notes when the last run's step started running again.
  let started = 0;
  let allStartedAt = 0;
  const resumed = defineStep({
    type: 'PARSE',
    execute: async () => {
      if (++started === RECOVER) allStartedAt = performance.now();
      return { output: null };
    },
  });
  const b = createEngine({
    storage: sqliteStorage({ path, writerThread }),
    steps: [resumed],
    scheduling: { concurrency: 32 },
    webhooks: { enabled: false },
  });
  const t0 = performance.now();
  await b.start();
  const startMs = performance.now() - t0;
  for (const id of ids) await b.workflowRuns.waitFor(id);
  const allDoneMs = performance.now() - t0;
  await b.stop();
  return { startMs, allStartedMs: allStartedAt - t0, allDoneMs };
}

async function scaleAt(stored: number) {
  const path = join(scratchDir('docflow-scale-'), 's.db');
  const engine = createEngine({
    storage: sqliteStorage({ path }),
    steps: [noop],
    webhooks: { enabled: false },
  });
  await engine.start();
  const wf = await engine.workflows.create({ name: 's', steps });
  await engine.workflows.deploy(wf.id);
  const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
  const first = await engine.workflowRuns.create({
    workflow: { id: wf.id },
    file: { id: file.id },
  });
  await engine.workflowRuns.waitFor(first.id);
  const record = await engine.storage.getRun(first.id);
  const snapshot = record?.snapshot as JsonObject;
  // Fill with copies of a finished run, 1,000 per commit.
  for (let done = 1; done < stored; ) {
    const n = Math.min(1000, stored - done);
    await engine.storage.commit({
      runs: Array.from({ length: n }, (_, i) => ({
        id: `workflow_run_fill${done + i}`,
        kind: 'workflow_run',
        workflowId: wf.id,
        status: 'PROCESSED',
        active: false,
        priority: 50,
        snapshot: { ...snapshot, id: `workflow_run_fill${done + i}` },
        expectedRevision: 0,
      })),
    });
    done += n;
  }
  const create = await measure(
    `create with ${stored} runs`,
    () => engine.workflowRuns.create({ workflow: { id: wf.id }, file: { id: file.id } }),
    { durationMs: 1500 },
  );
  await engine.idle();
  const list = await measure(
    `list first page with ${stored} runs`,
    () => engine.workflowRuns.list({ maxPageSize: 10 }),
    { durationMs: 1500 },
  );
  const listWf = await measure(
    `list by workflow with ${stored} runs`,
    () => engine.workflowRuns.list({ workflowId: wf.id, maxPageSize: 10 }),
    { durationMs: 1500 },
  );
  await engine.stop();
  return { create, list, listWf };
}

console.log(`### Recovery of ${RECOVER} unfinished runs\n`);
console.log(`${machineLine()}\n`);
console.log('| writes | start() returned | every step running again | every run PROCESSED |');
console.log('|---|---|---|---|');
for (const writerThread of [false, true]) {
  const r = await recovery(writerThread);
  console.log(
    `| ${writerThread ? 'writer thread' : 'in-thread'} | ${r.startMs.toFixed(0)} ms | ${r.allStartedMs.toFixed(0)} ms | ${r.allDoneMs.toFixed(0)} ms |`,
  );
}
console.log('\nTarget: resumed within 2,000 ms of start().\n');
const small = await scaleAt(100);
const large = await scaleAt(SCALE);
console.log(`### Scale: 100 vs ${SCALE} stored runs\n`);
console.log('| operation | median ms (100 runs) | median ms (large) | ratio |');
console.log('|---|---|---|---|');
for (const key of ['create', 'list', 'listWf'] as const) {
  console.log(
    `| ${large[key].name.replace(/ with \d+ runs/, '')} | ${small[key].medianMs.toFixed(3)} | ${large[key].medianMs.toFixed(3)} | ${(large[key].medianMs / small[key].medianMs).toFixed(2)} |`,
  );
}
