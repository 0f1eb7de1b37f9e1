import { join } from 'node:path';
import type { WorkflowRun } from '@docflow/engine';
import {
  createTestClock,
  createTestEngine,
  fakeStep,
  type TestEngine,
} from '@docflow/engine/testing';
import { memoryStorage } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { linear, steps, tempDir } from '../helpers.ts';
import { describeEngineSemantics } from './semantics-suite.ts';

describeEngineSemantics();

const statuses = (run: WorkflowRun) =>
  Object.fromEntries(run.stepRuns.map((s) => [s.step.name, s.status]));

let engine: TestEngine;
afterEach(async () => {
  await engine?.stop();
});

describe('scheduling', () => {
  it.each(['memory', 'sqlite'] as const)(
    "lets Node's event loop turn while steps without I/O follow each other (%s)",
    async (kind) => {
      // Executors that settle at once chain their runs' steps through promises alone: without a
      // turn of the loop now and then, no timer, I/O callback or request of the host would run
      // until every run came to rest.
      engine = await createTestEngine({
        steps: [fakeStep('PARSE', { chunks: [] })],
        ...(kind === 'sqlite'
          ? { storage: sqliteStorage({ path: join(tempDir(), 'turns.db') }) }
          : { storage: memoryStorage() }),
      });
      const wf = await engine.workflows.create({
        name: 'chain',
        steps: linear('PARSE', 'PARSE', 'PARSE', 'PARSE'),
      });
      await engine.workflows.deploy(wf.id);
      const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
      const total = 400;
      let started = 0;
      let finished = 0;
      const client = async () => {
        while (started < total) {
          started++;
          const run = await engine.workflowRuns.create({
            workflow: { id: wf.id },
            file: { id: file.id },
          });
          const done = await engine.workflowRuns.waitFor(run.id);
          expect(done.status).toBe('PROCESSED');
          finished++;
        }
      };
      let finishedWhenTimerRan: number | undefined;
      const clients = Promise.all(Array.from({ length: 16 }, client));
      setTimeout(() => {
        finishedWhenTimerRan = finished;
      }, 0);
      await clients;
      expect(finished).toBe(total);
      // The timer ran while runs were still being worked on, not once they had all finished.
      expect(finishedWhenTimerRan).toBeLessThan(total);
    },
  );

  it.each([
    ['in-thread, :memory:', () => sqliteStorage({ path: ':memory:' })],
    [
      'writer thread, batched (two commit groups under way)',
      () =>
        sqliteStorage({
          path: join(tempDir(), 'saturated.db'),
          durability: 'batched',
          writerThread: true,
        }),
    ],
    [
      'writer thread, normal',
      () => sqliteStorage({ path: join(tempDir(), 'saturated.db'), writerThread: true }),
    ],
  ] as const)(
    'runs every queued step of a saturated engine (a claim never outruns the cache of its run; %s)',
    {
      timeout: 60_000,
    },
    async (_name, storage) => {
      // More clients than slots: new runs' first steps queue behind running ones, and claims race
      // with the commits that queued them.
      engine = await createTestEngine({
        storage: storage(),
        steps: [fakeStep('PARSE', { chunks: [] })],
        scheduling: { concurrency: 16 },
      });
      const wf = await engine.workflows.create({
        name: 'saturated',
        steps: linear('PARSE', 'PARSE'),
      });
      await engine.workflows.deploy(wf.id);
      let next = 0;
      const statuses: string[] = [];
      const client = async () => {
        while (next < 300) {
          next++;
          const run = await engine.workflowRuns.create({
            workflow: { id: wf.id },
            file: { text: 'x' },
          });
          statuses.push((await engine.workflowRuns.waitFor(run.id, { timeoutMs: 5000 })).status);
        }
      };
      await Promise.all(Array.from({ length: 24 }, client));
      expect(statuses).toEqual(Array.from({ length: 300 }, () => 'PROCESSED'));
    },
  );

  it('keeps every step on the fast path when runs in flight fill the slots exactly', {
    timeout: 60_000,
  }, async () => {
    // As many clients as slots, steps finishing at the same time: each finishing step hands
    // its slot to its run's next step (whatever else is finishing), and a run's last step frees
    // its slot before its client hears the run ended. Nothing is ever queued to be claimed, and
    // each step costs one commit (its outcome with the next step started). Group commit makes
    // the steps of a tick commit together, after all of them reserved their next step.
    const storage = sqliteStorage({ path: ':memory:', durability: 'batched' });
    let claims = 0;
    let commits = 0;
    const claimWork = storage.claimWork.bind(storage);
    storage.claimWork = async (options) => {
      const items = await claimWork(options);
      claims += items.length;
      return items;
    };
    const commit = storage.commit.bind(storage);
    storage.commit = (changes, options) => {
      commits++;
      return commit(changes, options);
    };
    const parse = fakeStep(
      'PARSE',
      () => new Promise((r) => setImmediate(() => r({ chunks: [] }))),
    );
    engine = await createTestEngine({ storage, steps: [parse], scheduling: { concurrency: 4 } });
    const wf = await engine.workflows.create({
      name: 'exact',
      steps: linear('PARSE', 'PARSE', 'PARSE'),
    });
    await engine.workflows.deploy(wf.id);
    const file = await engine.files.upload({ name: 'a.txt', data: 'x' });
    commits = 0;
    let next = 0;
    const client = async () => {
      while (next < 60) {
        next++;
        const run = await engine.workflowRuns.create({
          workflow: { id: wf.id },
          file: { id: file.id },
        });
        expect((await engine.workflowRuns.waitFor(run.id, { timeoutMs: 5000 })).status).toBe(
          'PROCESSED',
        );
      }
    };
    await Promise.all(Array.from({ length: 4 }, client));
    expect(claims).toBe(0);
    // Per run: its creation (the trigger done, p1 started) and one commit per executor step.
    expect(commits).toBe(60 * 4);
  });

  it('gives a handed-off slot back when the commit that took it fails', {
    timeout: 30_000,
  }, async () => {
    // One slot. parse1's outcome commit (which starts parse2 in parse1's slot) fails once: the
    // slot must return, or nothing would ever run again. parse1 ran on a reserved slot, with no
    // queue row: the engine queues it to run again a lease's time later, as a claimed item would
    // once its lease ended, and the run finishes.
    const clock = createTestClock();
    const storage = memoryStorage({ clock });
    let failed = false;
    const commit = storage.commit.bind(storage);
    storage.commit = (changes, options) => {
      const write = changes.runs?.[0];
      const events = write?.events ?? [];
      // Not the creation (which completes the trigger): the first step outcome after it.
      if (!failed && write?.expectedRevision && events.some((e) => e.type === 'step.complete')) {
        failed = true;
        return Promise.reject(new Error('disk hiccup'));
      }
      return commit(changes, options);
    };
    const errors: unknown[] = [];
    engine = await createTestEngine({
      storage,
      steps: [fakeStep('PARSE', { chunks: [] })],
      clock,
      scheduling: { concurrency: 1, leaseMs: 200 },
      onError: (error) => errors.push(error),
    });
    const wf = await engine.workflows.create({ name: 'hiccup', steps: linear('PARSE', 'PARSE') });
    await engine.workflows.deploy(wf.id);
    const created = await engine.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'x' },
    });
    while (errors.length === 0) await new Promise((r) => setImmediate(r));
    expect(failed).toBe(true);
    // parse1's lease ends; the one slot must be free to claim it again.
    await engine.advance(1000);
    const run = await engine.workflowRuns.waitFor(created.id, { timeoutMs: 5000 });
    expect(errors).toHaveLength(1);
    expect(statuses(run)).toEqual({
      trigger: 'PROCESSED',
      parse1: 'PROCESSED',
      parse2: 'PROCESSED',
    });
  });

  it('refills the slots of steps that finish together with one claim', async () => {
    const storage = memoryStorage();
    let claims = 0;
    const claimWork = storage.claimWork.bind(storage);
    storage.claimWork = (options) => {
      claims++;
      return claimWork(options);
    };
    // Every step of a wave resolves on the same timer, so a wave's slots free in one tick.
    const parse = fakeStep(
      'PARSE',
      () => new Promise((r) => setTimeout(() => r({ chunks: [] }), 5)),
    );
    engine = await createTestEngine({ storage, steps: [parse], scheduling: { concurrency: 8 } });
    const wf = await engine.workflows.create({
      name: 'waves',
      steps: steps([
        { name: 't', type: 'TRIGGER', next: [{ step: 'p' }] },
        { name: 'p', type: 'PARSE' },
      ]),
    });
    await engine.workflows.deploy(wf.id);
    const batch = await engine.workflowRuns.createBatch({
      workflow: { id: wf.id },
      inputs: Array.from({ length: 64 }, (_, i) => ({ file: { text: `d${i}` } })),
    });
    for (const run of batch.runs) await engine.workflowRuns.waitFor(run.id, { timeoutMs: 10_000 });
    expect(parse.calls).toHaveLength(64);
    // 8 waves of 8; one claim per slot would be 64 claims.
    expect(claims).toBeLessThan(32);
  });
});
