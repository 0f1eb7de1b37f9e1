/**
 * Issue 20's scale check on PostgreSQL: creating a run (TRIGGER → a no-op PARSE, the engine
 * executing what it creates) and listing the first page of runs, all of them and one workflow's,
 * with 100 stored runs and with 100,000 (SCALE), on one throwaway server with the installed
 * defaults. The stored runs are copies of a finished run, written through the adapter 1,000 per
 * commit. The two sizes are measured in interleaved rounds (ROUNDS, default 3), each on a schema
 * of its own, in one process; the table gives each round's median latency and the ratio.
 *
 *   cd bench && npx tsx src/postgres/scale.ts          # SCALE=100000 ROUNDS=3
 */
import { createEngine, defineStep, type Engine, type StepDefinition } from '@docflow/engine';
import type { JsonObject } from '@docflow/storage';
import { postgresStorage } from '@docflow/storage/postgres';
import { startTemporaryPostgres } from '@docflow/storage/testing/postgres';
import { machineLine, measure } from '../harness.ts';

const SCALE = Number(process.env.SCALE ?? 100_000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const steps = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE' },
] as unknown as StepDefinition[];
const noop = defineStep({ type: 'PARSE', execute: async () => ({ output: null }) });

interface Setup {
  readonly engine: Engine;
  readonly workflowId: string;
  readonly fileId: string;
}

/** An engine on a new schema holding `stored` finished runs. */
async function setUp(url: string, schema: string, stored: number): Promise<Setup> {
  const engine = createEngine({
    storage: postgresStorage({ connectionString: url }, { schema }),
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
  const snapshot = (await engine.storage.getRun(first.id))?.snapshot as JsonObject;
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
  return { engine, workflowId: wf.id, fileId: file.id };
}

async function measureAt(s: Setup, stored: number) {
  const create = await measure(
    `create with ${stored}`,
    () => s.engine.workflowRuns.create({ workflow: { id: s.workflowId }, file: { id: s.fileId } }),
    { durationMs: 1500 },
  );
  await s.engine.idle();
  const list = await measure(
    `list with ${stored}`,
    () => s.engine.workflowRuns.list({ maxPageSize: 10 }),
    { durationMs: 1500 },
  );
  const listWf = await measure(
    `list by workflow with ${stored}`,
    () => s.engine.workflowRuns.list({ workflowId: s.workflowId, maxPageSize: 10 }),
    { durationMs: 1500 },
  );
  return { create: create.medianMs, list: list.medianMs, listWf: listWf.medianMs };
}

const server = await startTemporaryPostgres();
try {
  const t0 = performance.now();
  const small = await setUp(server.url, 'scale_small', 100);
  const large = await setUp(server.url, 'scale_large', SCALE);
  const fillSeconds = (performance.now() - t0) / 1000;
  const rows: Record<'create' | 'list' | 'listWf', [number[], number[]]> = {
    create: [[], []],
    list: [[], []],
    listWf: [[], []],
  };
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [small, large] : [large, small];
    for (const s of order) {
      const m = await measureAt(s, s === small ? 100 : SCALE);
      for (const key of ['create', 'list', 'listWf'] as const) {
        rows[key][s === small ? 0 : 1].push(m[key]);
      }
    }
  }
  await small.engine.stop();
  await large.engine.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
  const list = (xs: number[]) => xs.map((x) => x.toFixed(3)).join(' / ');
  console.log(
    `### Scale on PostgreSQL: 100 vs ${SCALE} stored runs (${ROUNDS} interleaved rounds)\n`,
  );
  console.log(`${machineLine()}; filling took ${fillSeconds.toFixed(0)} s\n`);
  console.log(
    '| operation | median ms, 100 runs (each round) | median ms, large (each round) | ratio of medians |',
  );
  console.log('|---|---|---|---|');
  const names = {
    create: 'create a run',
    list: 'list, first page',
    listWf: 'list by workflow, first page',
  };
  for (const key of ['create', 'list', 'listWf'] as const) {
    const [a, b] = rows[key];
    console.log(
      `| ${names[key]} | ${list(a)} | ${list(b)} | ${(median(b) / median(a)).toFixed(2)} |`,
    );
  }
} finally {
  await server.stop();
}
