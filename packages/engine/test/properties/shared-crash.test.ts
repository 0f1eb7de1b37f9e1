import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createEngine, type Engine, type WorkflowRun } from '@docflow/engine';
import { createTestEngine } from '@docflow/engine/testing';
import type { DeliveryRecord, Page, RunRecord, StorageAdapter } from '@docflow/storage';
import { postgresStorage } from '@docflow/storage/postgres';
import { postgresForTests } from '@docflow/storage/testing';
import { describe, expect, it } from 'vitest';
import {
  deployMixedWorkflows,
  type MixedKind,
  mixedKindOf,
  mixedRunInput,
  REVIEWER,
} from '../fixtures/mixed-workload.ts';
import { tempDir } from '../helpers.ts';
import { startReceiver } from '../webhooks/helpers.ts';
import { seededRandom } from './canonical.ts';
import { deterministicSteps } from './deterministic-steps.ts';
import { projectRun, type RunProjection } from './projection.ts';

const tsxLoader = createRequire(import.meta.url).resolve('tsx');
const child = join(import.meta.dirname, '../fixtures/shared-child.ts');
const pg = postgresForTests();

/**
 * Three engine processes on one PostgreSQL schema, killed with SIGKILL at random and started
 * again for `DOCFLOW_SHARED_CRASH_MS` (default 20 s; DOCFLOW_SHARED_CRASH_MS=300000 runs it five minutes).
 */
const DURATION_MS = Number(process.env.DOCFLOW_SHARED_CRASH_MS ?? 20_000);
const SEED = Number(process.env.DOCFLOW_SHARED_CRASH_SEED ?? 20);
const PROCESSES = 3;
// A life creates runs until it is killed (numbers of different lives never meet).
const RUNS_PER_LIFE = 10_000;
const LEASE_MS = 1500;

interface Life {
  readonly proc: ChildProcess;
  readonly accepted: string[];
  readonly exited: Promise<void>;
}

function startLife(
  url: string,
  schema: string,
  logPath: string,
  endpointId: string,
  first: number,
): Life {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      tsxLoader,
      child,
      url,
      schema,
      logPath,
      String(first),
      String(RUNS_PER_LIFE),
      String(LEASE_MS),
      endpointId,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const accepted: string[] = [];
  let buffer = '';
  proc.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('accepted ')) accepted.push(line.slice(9));
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  return { proc, accepted, exited };
}

async function allPages<T>(
  list: (pageToken: string | undefined) => Promise<Page<T>>,
): Promise<T[]> {
  const out: T[] = [];
  let pageToken: string | undefined;
  do {
    const page = await list(pageToken);
    out.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined);
  return out;
}

const allRuns = (storage: StorageAdapter) =>
  allPages<RunRecord>((pageToken) =>
    storage.listRuns({ kind: 'workflow_run', pageSize: 200, ...(pageToken ? { pageToken } : {}) }),
  );

const allDeliveries = (storage: StorageAdapter) =>
  allPages<DeliveryRecord>((pageToken) =>
    storage.listDeliveries({ pageSize: 200, ...(pageToken ? { pageToken } : {}) }),
  );

/** Step runs PROCESSED in the database now. */
async function processedNow(storage: StorageAdapter): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const record of await allRuns(storage)) {
    const snapshot = record.snapshot as unknown as { stepRuns: { id: string; status: string }[] };
    for (const sr of snapshot.stepRuns) if (sr.status === 'PROCESSED') ids.add(sr.id);
  }
  return ids;
}

/** The side-effect log's lines (`<key> <attempt> <pid>`). */
function logLines(path: string): string[] {
  return readFileSync(path, 'utf8').split('\n').filter(Boolean);
}

async function finish(engine: Engine, id: string): Promise<WorkflowRun> {
  for (;;) {
    const run = await engine.workflowRuns.waitFor(id, { timeoutMs: 30_000 });
    if (run.status !== 'NEEDS_REVIEW') return run;
    await engine.workflowRuns
      .review(id, { decision: 'approve', reviewer: REVIEWER })
      .catch(() => undefined);
  }
}

/** What run number `i` ends as when nothing interrupts it (memory storage, one process). */
async function references(numbers: readonly number[]): Promise<Map<number, RunProjection>> {
  const engine = await createTestEngine({ steps: deterministicSteps() });
  try {
    const ids = await deployMixedWorkflows(engine);
    const out = new Map<number, RunProjection>();
    for (const i of new Set(numbers)) {
      const run = await engine.workflowRuns.create(mixedRunInput(ids, i));
      out.set(i, projectRun(await finish(engine, run.id)));
    }
    return out;
  } finally {
    await engine.stop();
  }
}

describe.skipIf(pg.skip)('SIGKILL across three engine processes on one PostgreSQL database', () => {
  it(
    'every accepted run ends as it would uninterrupted; no PROCESSED step runs again; every delivery arrives',
    async () => {
      const random = seededRandom(SEED);
      const schema = pg.schema();
      const logPath = join(tempDir('docflow-shared-crash-'), 'side-effects.log');
      writeFileSync(logPath, '');
      const received = new Set<string>();
      const receiver = await startReceiver((request) => {
        received.add((JSON.parse(request.body) as { eventId: string }).eventId);
        return { status: 200 };
      });
      const storage = postgresStorage({ connectionString: pg.url }, { schema });
      try {
        // The endpoint every process delivers to: one per database.
        const setup = createEngine({
          storage: postgresStorage({ connectionString: pg.url }, { schema }),
          webhooks: { enabled: false },
        });
        await setup.start();
        let endpointId: string;
        try {
          endpointId = (
            await setup.webhookEndpoints.create({
              url: receiver.url,
              enabledEvents: ['workflow.deployed'],
            })
          ).id;
        } finally {
          await setup.stop();
        }
        await storage.open();

        let next = 0;
        const accepted: string[] = [];
        const lives: Life[] = [];
        const begin = () => {
          const life = startLife(pg.url, schema, logPath, endpointId, next);
          next += RUNS_PER_LIFE;
          return life;
        };
        for (let p = 0; p < PROCESSES; p++) lives.push(begin());
        /** Checkpoints: what was PROCESSED, and how long the log was once that was read. */
        const checkpoints: { processed: Set<string>; logLength: number }[] = [];
        const deadline = Date.now() + DURATION_MS;
        let kills = 0;
        while (Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 2000 + Math.floor(random() * 2500)));
          const victim = Math.floor(random() * PROCESSES);
          const life = lives[victim] as Life;
          life.proc.kill('SIGKILL');
          await life.exited;
          kills++;
          accepted.push(...life.accepted);
          // Read what is PROCESSED first, then the log's length: an execution logged after that
          // length began after the step was PROCESSED.
          const processed = await processedNow(storage);
          checkpoints.push({ processed, logLength: logLines(logPath).length });
          lives[victim] = begin();
        }
        for (const life of lives) {
          life.proc.kill('SIGKILL');
          await life.exited;
          accepted.push(...life.accepted);
        }
        expect(kills).toBeGreaterThan(2);
        expect(accepted.length).toBeGreaterThan(PROCESSES);
        checkpoints.push({
          processed: await processedNow(storage),
          logLength: logLines(logPath).length,
        });

        // A last process finishes everything (approving reviews) and drains the outbox.
        const lines: string[] = [];
        const last = createEngine({
          storage: postgresStorage({ connectionString: pg.url }, { schema }),
          webhooks: {
            urlPolicy: { allowLoopback: true },
            schedule: [200, 400],
            jitter: 0,
            timeoutMs: 2000,
            leaseMs: 3000,
          },
          scheduling: { leaseMs: LEASE_MS },
          steps: deterministicSteps({
            before: (e) => void lines.push(`${e.idempotencyKey} ${e.attempt} final`),
          }),
        });
        await last.start();
        const finished: WorkflowRun[] = [];
        try {
          const stored = new Set((await allRuns(storage)).map((r) => r.id));
          for (const id of accepted) expect(stored.has(id), `accepted run ${id}`).toBe(true);
          for (const id of stored) finished.push(await finish(last, id));
          await last.idle({ timeoutMs: 30_000 });
        } finally {
          await last.stop();
        }

        const log = [...logLines(logPath), ...lines];
        const again: string[] = [];
        for (const { processed, logLength } of checkpoints) {
          for (const line of log.slice(logLength)) {
            if (processed.has(line.split(' ')[0] as string)) again.push(line);
          }
        }
        expect(again, 'PROCESSED steps executed again').toEqual([]);
        const keys = log.map((line) => line.split(' ')[0]);
        console.info(
          `shared crash: ${kills} kills, ${accepted.length} runs accepted, ${finished.length} stored, ` +
            `${log.length} executions of ${new Set(keys).size} step attempts (the rest ran again after a kill)`,
        );

        // Every run ended as it would have without kills.
        const numberOf = (run: WorkflowRun) => (run.metadata as { i: number }).i;
        const expected = await references(finished.map(numberOf));
        const kinds = new Set<MixedKind>();
        for (const run of finished) {
          kinds.add(mixedKindOf(numberOf(run)));
          expect(projectRun(run), `run ${numberOf(run)}`).toEqual(expected.get(numberOf(run)));
        }
        expect(kinds.size).toBe(4);

        // Every delivery the database accepted arrived at least once.
        const deliveries = await allDeliveries(storage);
        expect(deliveries.length).toBeGreaterThan(0);
        const missing = deliveries.filter((d) => !received.has(d.eventId)).map((d) => d.id);
        expect(missing).toEqual([]);
        expect(deliveries.filter((d) => d.status !== 'succeeded')).toEqual([]);
      } finally {
        await storage.close();
        await receiver.close();
      }
    },
    DURATION_MS + 120_000,
  );
});
