import { createEngine, type Engine } from '@docflow/engine';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { fakeStep, linear } from '../helpers.ts';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.stop();
  engine = undefined;
});

/** An engine, a deployed TRIGGER → PARSE → HUMAN_REVIEW workflow, and a run waiting for review. */
async function waitingRun(storage: StorageAdapter = memoryStorage()) {
  engine = createEngine({ storage, steps: [fakeStep('PARSE', () => ({ text: 'parsed' }))] });
  await engine.start();
  const wf = await engine.workflows.create({
    name: 'json',
    steps: linear('PARSE', 'HUMAN_REVIEW'),
  });
  await engine.workflows.deploy(wf.id);
  const file = await engine.files.upload({ name: 'a.txt', data: 'a' });
  const created = await engine.workflowRuns.create({
    workflow: { id: wf.id },
    file: { id: file.id },
  });
  const run = await engine.workflowRuns.waitFor(created.id);
  expect(run.status).toBe('NEEDS_REVIEW');
  return { engine, run, file };
}

describe('workflowRuns.getJson', () => {
  it('is the JSON of get, kept while the run waits, and new after each change', async () => {
    const { engine, run } = await waitingRun();
    const first = await engine.workflowRuns.getJson(run.id);
    expect(first.status).toBe('NEEDS_REVIEW');
    expect(JSON.parse(first.json)).toEqual(await engine.workflowRuns.get(run.id));
    expect((await engine.workflowRuns.getJson(run.id)).json).toBe(first.json);

    await engine.workflowRuns.update(run.id, { metadata: { note: 'seen' } });
    const updated = await engine.workflowRuns.getJson(run.id);
    expect(JSON.parse(updated.json).metadata).toEqual({ note: 'seen' });

    await engine.workflowRuns.review(run.id, { decision: 'approve', reviewer: 'r@example.com' });
    const reviewed = await engine.workflowRuns.getJson(run.id);
    expect(reviewed.status).toBe('PROCESSED');
    expect(JSON.parse(reviewed.json)).toEqual(await engine.workflowRuns.get(run.id));
  });

  it("shows a deletion of the run's file at once", async () => {
    const { engine, run, file } = await waitingRun();
    expect(JSON.parse((await engine.workflowRuns.getJson(run.id)).json).files).toHaveLength(1);
    await engine.files.delete(file.id);
    const after = JSON.parse((await engine.workflowRuns.getJson(run.id)).json);
    expect(after.files).toEqual([]);
    expect(after).toEqual(await engine.workflowRuns.get(run.id));
  });

  it('looks at the files each time on storage other processes share (their deletions are unseen)', async () => {
    const memory = memoryStorage();
    // The same storage, saying that other processes write it too.
    const shared = new Proxy(memory, {
      get(target, key) {
        if (key === 'sharedByProcesses') return true;
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { engine, run, file } = await waitingRun(shared);
    expect(JSON.parse((await engine.workflowRuns.getJson(run.id)).json).files).toHaveLength(1);
    // Another process deletes the file: this engine's count of deletions does not move.
    await memory.commit({ deleteDocuments: [{ collection: 'files', id: file.id }] });
    expect(JSON.parse((await engine.workflowRuns.getJson(run.id)).json).files).toEqual([]);
  });

  it("keeps a finished run's text as well: asking again reads nothing from storage, and a change shows at once", async () => {
    const memory = memoryStorage();
    let reads = 0;
    const counted = new Proxy(memory, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key === 'getRun') {
          return (...args: Parameters<StorageAdapter['getRun']>) => {
            reads++;
            return memory.getRun(...args);
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { engine, run } = await waitingRun(counted);
    await engine.workflowRuns.review(run.id, { decision: 'approve', reviewer: 'r@example.com' });
    const first = await engine.workflowRuns.getJson(run.id);
    expect(first.status).toBe('PROCESSED');
    reads = 0;
    expect((await engine.workflowRuns.getJson(run.id)).json).toBe(first.json);
    expect(reads).toBe(0);
    await engine.workflowRuns.update(run.id, { metadata: { note: 'after' } });
    expect(JSON.parse((await engine.workflowRuns.getJson(run.id)).json).metadata).toEqual({
      note: 'after',
    });
    await engine.workflowRuns.delete(run.id);
    await expect(engine.workflowRuns.getJson(run.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('keeps nothing of a read that a change of the run overtook (no stale answer after it)', async () => {
    const memory = memoryStorage();
    // While `gate` is set, the next read of the run waits for it: a GET under way.
    let gate: Promise<void> | undefined;
    let readStarted = (): void => undefined;
    const gated = new Proxy(memory, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key === 'getRun') {
          return async (...args: Parameters<StorageAdapter['getRun']>) => {
            const record = await memory.getRun(...args);
            const waitFor = gate;
            gate = undefined;
            if (waitFor !== undefined) {
              readStarted();
              await waitFor;
            }
            return record;
          };
        }
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const { engine, run } = await waitingRun(gated);
    await engine.workflowRuns.review(run.id, { decision: 'approve', reviewer: 'r@example.com' });
    let open = (): void => undefined;
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const started = new Promise<void>((resolve) => {
      readStarted = resolve;
    });
    const overtaken = engine.workflowRuns.getJson(run.id);
    await started;
    // The run changes while the read holds the state from before.
    await engine.workflowRuns.update(run.id, { metadata: { note: 'new' } });
    open();
    expect(JSON.parse((await overtaken).json).metadata).toEqual({});
    expect(JSON.parse((await engine.workflowRuns.getJson(run.id)).json).metadata).toEqual({
      note: 'new',
    });
  });
});
