import {
  createEngine,
  defineStep,
  type Engine,
  type EngineOptions,
  StepError,
  type StepExecutor,
  type WorkflowRun,
} from '@docflow/engine';
import { type DeliveryRecord, isStorageError, type StorageAdapter } from '@docflow/storage';
import type { PostgresStorageAdapter } from '@docflow/storage/postgres';
import { postgresForTests } from '@docflow/storage/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { linear } from '../helpers.ts';
import { startReceiver } from '../webhooks/helpers.ts';

/**
 * Several engines on one PostgreSQL schema, each with an adapter (pool, LISTEN connection, lease
 * owner) of its own: to the database they are separate processes. The crash test with real
 * processes killed by SIGKILL is test/properties/shared-crash.test.ts.
 */
const pg = postgresForTests();

const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0).reverse()) await engine.stop();
});

/** What executors did, across the engines of a test. */
interface Execution {
  readonly engine: string;
  readonly key: string;
  readonly attempt: number;
}

/** An executor that records each execution and then does what `body` does. */
function recording(
  engine: string,
  log: Execution[],
  body: (key: string) => Promise<unknown> | unknown = () => ({ chunks: [] }),
): StepExecutor {
  return defineStep({
    type: 'PARSE',
    async execute(_input, context) {
      log.push({ engine, key: context.idempotencyKey, attempt: context.attempt });
      return { output: (await body(context.idempotencyKey)) as never };
    },
  });
}

async function startEngine(
  schemaStorage: () => Promise<StorageAdapter>,
  options: Omit<EngineOptions, 'storage'>,
): Promise<Engine> {
  const engine = createEngine({
    webhooks: { enabled: false },
    ...options,
    storage: await schemaStorage(),
  });
  engines.push(engine);
  await engine.start();
  return engine;
}

async function deployed(engine: Engine, steps = linear('PARSE')): Promise<string> {
  const wf = await engine.workflows.create({ name: 'shared', steps });
  await engine.workflows.deploy(wf.id);
  return wf.id;
}

/** A step run as stored, with its execution record. */
async function storedStep(
  storage: StorageAdapter,
  runId: string,
  stepName: string,
): Promise<{ output?: unknown; lost?: number; takenOver?: number } | undefined> {
  const snapshot = (await storage.getRun(runId))?.snapshot as unknown as
    | { stepRuns: { stepName: string; output?: unknown; lost?: number; takenOver?: number }[] }
    | undefined;
  return snapshot?.stepRuns.find((s) => s.stepName === stepName);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(pg.skip)('engines in several processes on one PostgreSQL database', () => {
  /** Adapters of different "processes" on one schema. */
  function oneDatabase(): () => Promise<PostgresStorageAdapter> {
    const schema = pg.schema();
    return async () => {
      const { postgresStorage } = await import('@docflow/storage/postgres');
      return postgresStorage({ connectionString: pg.url }, { schema });
    };
  }

  it('a starting engine takes no live lease; leases renew while a step outlives them', async () => {
    const db = oneDatabase();
    const log: Execution[] = [];
    let finish = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const leaseMs = 400;
    const a = await startEngine(db, {
      steps: [recording('a', log, () => finished.then(() => ({ chunks: [] })))],
      scheduling: { leaseMs },
    });
    const run = await a.workflowRuns.create({
      workflow: { id: await deployed(a) },
      file: { text: 'x' },
    });
    while (log.length === 0) await sleep(5);
    // Another process starts while the step runs, and stays up for several lease periods.
    const b = await startEngine(db, { steps: [recording('b', log)], scheduling: { leaseMs } });
    await sleep(4 * leaseMs);
    const [item] = await b.storage.listWork();
    expect(item?.leaseOwner).toMatch(/^engine-/);
    expect(item?.attempts).toBe(1);
    finish();
    expect((await a.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 })).status).toBe('PROCESSED');
    expect(log.map((e) => e.engine)).toEqual(['a']);
  });

  /**
   * Process a starts a run whose step it executes with `executeA`, its storage as `stall` leaves
   * it (renewals that do not reach the database), with one slot so that it cannot claim the step
   * back; process b takes the step over once a's lease expires, and runs it until `releaseB`.
   */
  async function takenOver(options: {
    readonly leaseMs: number;
    readonly stall: (storage: PostgresStorageAdapter) => void;
    readonly executeA: StepExecutor['execute'];
    readonly onError?: (error: unknown) => void;
    /** What a starts: a workflow run (default), or a parse run (a standalone run). */
    readonly start?: (a: Engine) => Promise<{ id: string }>;
  }) {
    const db = oneDatabase();
    const log: Execution[] = [];
    let releaseB = (): void => undefined;
    const releasedB = new Promise<void>((resolve) => {
      releaseB = resolve;
    });
    const storageA = await db();
    options.stall(storageA);
    const a = createEngine({
      storage: storageA,
      webhooks: { enabled: false },
      steps: [
        defineStep({
          type: 'PARSE',
          async execute(input, context) {
            log.push({ engine: 'a', key: context.idempotencyKey, attempt: context.attempt });
            return options.executeA(input, context);
          },
        }),
      ],
      scheduling: { leaseMs: options.leaseMs, concurrency: 1 },
      ...(options.onError ? { onError: options.onError } : {}),
    });
    engines.push(a);
    await a.start();
    const run = await (
      options.start ??
      (async (engine: Engine) =>
        engine.workflowRuns.create({
          workflow: { id: await deployed(engine) },
          file: { text: 'x' },
        }))
    )(a);
    while (log.length === 0) await sleep(5);
    const b = await startEngine(db, {
      steps: [
        recording('b', log, async () => {
          await releasedB;
          return { by: 'b' };
        }),
      ],
      scheduling: { leaseMs: options.leaseMs },
    });
    while (log.length < 2) await sleep(5);
    const parse1 = () => storedStep(b.storage, run.id, 'parse1');
    return { b, run, log, releaseB, parse1 };
  }

  /**
   * {@link takenOver} with a process a whose renewals never reach the database (it believes they
   * did) and whose execution finishes on `release()`; what a reports to `onError` is in `errors`.
   */
  async function takenOverFromStalled(start?: (a: Engine) => Promise<{ id: string }>) {
    const errors: unknown[] = [];
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const scene = await takenOver({
      // Long enough that b renews its own lease on a loaded machine.
      leaseMs: 1000,
      stall: (storage) => {
        storage.renewWork = async (ids) => ids;
      },
      executeA: async () => {
        await released;
        return { output: { by: 'a' } };
      },
      onError: (error) => errors.push(error),
      ...(start ? { start } : {}),
    });
    return { ...scene, errors, release };
  }

  it('a process whose lease was taken over cannot commit the outcome, and says it was alive; the new holder commits', async () => {
    const { b, run, log, releaseB, parse1, errors, release } = await takenOverFromStalled();
    // b could not tell a slow process from a dead one: it counted a's execution as lost.
    expect((await parse1())?.lost).toBe(1);
    // a finishes while b runs the step: its outcome is refused, and it records that it was alive.
    release();
    while (errors.length === 0) await sleep(5);
    expect(isStorageError(errors[0], 'LEASE_LOST'), String(errors[0])).toBe(true);
    expect(await parse1()).toMatchObject({ lost: 1, takenOver: 1 });
    releaseB();
    const done = await b.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 });
    expect(done.status).toBe('PROCESSED');
    expect((await parse1())?.output).toEqual({ by: 'b' });
    // Once per lease: a's (attempts 1), then b's (attempts 2).
    expect(log.map((e) => e.engine)).toEqual(['a', 'b']);
    expect(await b.storage.listWork()).toEqual([]);
  });

  it('a process that finds its lease taken at a renewal stops the step and says it was alive', async () => {
    let stalled = true;
    let aborted = false;
    const { b, run, log, releaseB, parse1 } = await takenOver({
      leaseMs: 600,
      // Process a stalls (its renewals do not reach the database) until b has taken the step over.
      stall: (storage) => {
        const renew = storage.renewWork.bind(storage);
        storage.renewWork = async (ids, options) => (stalled ? ids : renew(ids, options));
      },
      executeA: async (_input, context) => {
        await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
        aborted = true;
        return { output: { by: 'a' } };
      },
    });
    stalled = false;
    // a's next renewal finds the lease gone: its executor is aborted, and the record corrected.
    while ((await parse1())?.takenOver === undefined) await sleep(20);
    expect(aborted).toBe(true);
    expect(await parse1()).toMatchObject({ lost: 1, takenOver: 1 });
    releaseB();
    const done = await b.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 });
    expect(done.status).toBe('PROCESSED');
    expect(log.map((e) => e.engine)).toEqual(['a', 'b']);
  });

  it('a parse run taken over from a live process: the same accounting on a standalone run', async () => {
    const { b, run, releaseB, errors, release } = await takenOverFromStalled((a) =>
      a.parseRuns.create({ file: { text: 'x' } }),
    );
    const record = async () =>
      (await b.storage.getRun(run.id))?.snapshot as { lost?: number; takenOver?: number };
    expect((await record()).lost).toBe(1);
    release();
    while (errors.length === 0) await sleep(5);
    expect(isStorageError(errors[0], 'LEASE_LOST'), String(errors[0])).toBe(true);
    expect(await record()).toMatchObject({ lost: 1, takenOver: 1 });
    releaseB();
    expect((await b.parseRuns.waitFor(run.id, { timeoutMs: 10_000 })).status).toBe('PROCESSED');
  });

  it('two processes racing for the same queued work execute each step once', async () => {
    const db = oneDatabase();
    const log: Execution[] = [];
    const work = async () => {
      await sleep(1 + Math.floor(Math.random() * 4));
      return { chunks: [] };
    };
    // Few slots each: most steps wait in the queue, where both claim them.
    const a = await startEngine(db, {
      steps: [recording('a', log, work)],
      scheduling: { concurrency: 2 },
    });
    const b = await startEngine(db, {
      steps: [recording('b', log, work)],
      scheduling: { concurrency: 2 },
    });
    const wf = await deployed(a, linear('PARSE', 'PARSE', 'PARSE'));
    const created = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 === 0 ? a : b).workflowRuns.create({ workflow: { id: wf }, file: { text: `${i}` } }),
      ),
    );
    const runs: WorkflowRun[] = [];
    for (const r of created) runs.push(await a.workflowRuns.waitFor(r.id, { timeoutMs: 30_000 }));
    expect(runs.map((r) => r.status)).toEqual(runs.map(() => 'PROCESSED'));
    const keys = log.map((e) => e.key);
    expect(keys.length).toBe(24 * 3);
    expect(new Set(keys).size).toBe(keys.length);
    // Both took part: the runs each created and the queued steps each claimed.
    expect(new Set(log.map((e) => e.engine))).toEqual(new Set(['a', 'b']));
    expect(await a.storage.listWork()).toEqual([]);
    // No process died: no execution counts as lost (a step started on the fast path is
    // PROCESSING by its own engine's commit, not left by a dead one).
    for (const r of runs) {
      const stored = (await a.storage.getRun(r.id))?.snapshot as unknown as {
        stepRuns: { lost?: number }[];
      };
      expect(stored.stepRuns.map((s) => s.lost ?? 0)).toEqual(stored.stepRuns.map(() => 0));
    }
  }, 60_000);

  it('runs that callers wait for while their steps commit all finish (reads never stale the cache)', async () => {
    // waitFor reads the run from storage while this process commits it: a read that finished
    // after a commit used to put the older state in the cache, and the next step, started on
    // the fast path, found itself missing there and dropped its queue row: the run stalled.
    const db = oneDatabase();
    const a = await startEngine(db, { steps: [recording('a', [])] });
    const wf = await deployed(a, linear('PARSE', 'PARSE', 'PARSE', 'PARSE'));
    let next = 0;
    const client = async () => {
      while (next < 160) {
        next++;
        const run = await a.workflowRuns.create({ workflow: { id: wf }, file: { text: 'x' } });
        expect((await a.workflowRuns.waitFor(run.id, { timeoutMs: 20_000 })).status).toBe(
          'PROCESSED',
        );
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    expect(await a.storage.listWork()).toEqual([]);
  }, 120_000);

  it('queued work wakes an idle process at once, without polling', async () => {
    const db = oneDatabase();
    const log: Execution[] = [];
    let unblock = (): void => undefined;
    const blocked = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    // a has one slot, which its first run's step holds: its second run's step waits in the queue.
    const a = await startEngine(db, {
      steps: [recording('a', log, () => blocked.then(() => ({ chunks: [] })))],
      scheduling: { concurrency: 1 },
    });
    const storageB = await db();
    let claims = 0;
    const claimWork = storageB.claimWork.bind(storageB);
    storageB.claimWork = (options) => {
      claims++;
      return claimWork(options);
    };
    const b = createEngine({
      storage: storageB,
      webhooks: { enabled: false },
      steps: [recording('b', log)],
    });
    engines.push(b);
    await b.start();
    const wf = await deployed(a);
    await a.workflowRuns.create({ workflow: { id: wf }, file: { text: '1' } });
    while (log.length === 0) await sleep(5);
    // Idle for a second: a polling scheduler (100 ms) would claim about ten times.
    const before = claims;
    await sleep(1000);
    expect(claims - before).toBeLessThanOrEqual(1);
    const second = await a.workflowRuns.create({ workflow: { id: wf }, file: { text: '2' } });
    const done = await b.workflowRuns.waitFor(second.id, { timeoutMs: 5000 });
    expect(done.status).toBe('PROCESSED');
    expect(log.map((e) => e.engine)).toEqual(['a', 'b']);
    unblock();
  });

  it('a caller waiting in another process hears the run settle (NOTIFY), without polling', async () => {
    const db = oneDatabase();
    let unblock = (): void => undefined;
    const blocked = new Promise<void>((resolve) => {
      unblock = resolve;
    });
    const a = await startEngine(db, {
      steps: [recording('a', [], () => blocked.then(() => ({ chunks: [] })))],
    });
    // b only waits: its reads of runs are counted.
    const storageB = await db();
    let reads = 0;
    const getRun = storageB.getRun.bind(storageB);
    storageB.getRun = (id, options) => {
      reads++;
      return getRun(id, options);
    };
    const b = createEngine({ storage: storageB, webhooks: { enabled: false }, steps: [] });
    engines.push(b);
    await b.start();
    const wf = await deployed(a);
    const run = await a.workflowRuns.create({ workflow: { id: wf }, file: { text: 'x' } });
    const waiting = b.workflowRuns.waitFor(run.id, { timeoutMs: 20_000 });
    while (reads === 0) await sleep(5);
    // a second unsettled: polling every 250 ms would read about four times more.
    await sleep(1000);
    expect(reads).toBe(1);
    unblock();
    // Woken by a's commit: one more read (the safety-net poll is a minute away).
    expect((await waiting).status).toBe('PROCESSED');
    expect(reads).toBe(2);
  });

  it('a caller that starts waiting after another process settled the run is answered by that notification, not a timer', async () => {
    const db = oneDatabase();
    const a = await startEngine(db, { steps: [recording('a', [])] });
    // b creates the run (so it holds the run's state, PENDING) and executes nothing.
    const storageB = await db();
    const b = createEngine({
      storage: storageB,
      webhooks: { enabled: false },
      steps: [recording('b', [])],
      scheduling: { concurrency: 0 },
    });
    engines.push(b);
    await b.start();
    const wf = await deployed(b);
    let heard = (): void => undefined;
    const notified = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const run = await b.workflowRuns.create({ workflow: { id: wf }, file: { text: 'x' } });
    // Subscribed after b's engine: by the time this hears a's NOTIFY, b's engine has handled it.
    const unsubscribe = await storageB.subscribe?.((wakeUp) => {
      if (wakeUp.topic === 'runs' && wakeUp.runIds?.includes(run.id)) heard();
    });
    expect((await a.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 })).status).toBe('PROCESSED');
    await notified;
    await unsubscribe?.();
    // No timer fires while b waits: the state b held must not be taken for the run's.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      expect((await b.workflowRuns.waitFor(run.id)).status).toBe('PROCESSED');
    } finally {
      vi.useRealTimers();
    }
  });

  it('delayed work of a process that stopped (a step retry, a webhook retry) is done by another', async () => {
    const db = oneDatabase();
    const log: Execution[] = [];
    let replies = 0;
    const receiver = await startReceiver(() => ({ status: replies++ === 0 ? 500 : 200 }));
    const webhooks = {
      enabled: true,
      urlPolicy: { allowLoopback: true },
      schedule: [600],
      jitter: 0,
    } as const;
    const a = await startEngine(db, {
      steps: [
        recording('a', log, () => {
          throw new StepError('try later', { retryable: true });
        }),
      ],
      retry: { initialIntervalMs: 600, maxAttempts: 2 },
      webhooks,
      random: () => 0.5,
    });
    const endpoint = await a.webhookEndpoints.create({
      url: receiver.url,
      enabledEvents: ['workflow.created'],
    });
    const run = await a.workflowRuns.create({
      workflow: { id: await deployed(a) },
      file: { text: 'x' },
    });
    // The first attempt failed and the first delivery was refused: both retry later.
    while (log.length === 0 || replies === 0) await sleep(5);
    await a.idle({ timeoutMs: 100 }).catch(() => undefined);
    await a.stop();
    engines.splice(engines.indexOf(a), 1);
    const b = await startEngine(db, { steps: [recording('b', log)], webhooks });
    const done = await b.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 });
    expect(done.status).toBe('PROCESSED');
    expect(log.map((e) => `${e.engine}${e.attempt}`)).toEqual(['a1', 'b2']);
    // The delivery's outcome is committed after the receiver answered: wait for that commit.
    let delivery: DeliveryRecord | undefined;
    while (delivery?.status !== 'succeeded') {
      await sleep(10);
      [delivery] = (await b.storage.listDeliveries({ endpointId: endpoint.id })).items;
    }
    expect(delivery?.attempts.map((x) => x.status)).toEqual([500, 200]);
    await receiver.close();
  });
});
