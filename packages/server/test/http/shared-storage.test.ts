import { createEngine } from '@docflow/engine';
import { builtinSteps } from '@docflow/steps';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, TWO_STEPS } from '../helpers.ts';

/** One storage that says other processes write it too (as PostgreSQL does). */
function sharedStorage(): StorageAdapter {
  return new Proxy(memoryStorage(), {
    get(target, key) {
      if (key === 'sharedByProcesses') return true;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

let t: TestServer;
let storage: StorageAdapter;
beforeAll(async () => {
  storage = sharedStorage();
  t = await startTestServer({ workspaceStorage: () => storage });
});
afterAll(async () => {
  await t.close();
});

describe('a workspace whose storage other processes share', () => {
  it('answers a finished run from storage every time: what another process changes shows at once', async () => {
    const client = t.client();
    const wf = await client.workflows.create({ name: 'Shared', steps: TWO_STEPS });
    await client.workflowVersions.create(wf.id, {});
    const run = await client.workflowRuns.createAndPoll({
      workflow: { id: wf.id },
      file: { text: 'shared' },
    });
    expect(run.status).toBe('PROCESSED');
    expect((await client.workflowRuns.retrieve(run.id)).metadata).toEqual({});

    // Another process's engine on the same storage changes the run, then deletes it.
    const other = createEngine({ storage, steps: builtinSteps() });
    await other.start();
    try {
      await other.workflowRuns.update(run.id, { metadata: { by: 'other process' } });
      expect((await client.workflowRuns.retrieve(run.id)).metadata).toEqual({
        by: 'other process',
      });
      await other.workflowRuns.delete(run.id);
      await expect(client.workflowRuns.retrieve(run.id)).rejects.toMatchObject({
        statusCode: 404,
      });
    } finally {
      await other.stop();
    }
  });
});
