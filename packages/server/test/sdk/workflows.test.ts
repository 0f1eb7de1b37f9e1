import { Extend } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEWED_STEPS, startTestServer, type TestServer, TWO_STEPS } from '../helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

describe('workflows and versions through the SDK', () => {
  it('creates, retrieves, updates, lists and deploys a workflow; versions by number, draft, latest and id', async () => {
    const client = t.client();
    const created = await client.workflows.create({ name: 'Invoices', steps: TWO_STEPS });
    expect(created).toMatchObject({ object: 'workflow', name: 'Invoices' });
    expect(created.draftVersion).toMatchObject({ object: 'workflow_version', version: 'draft' });
    expect(created.draftVersion.steps).toHaveLength(2);

    const renamed = await client.workflows.update(created.id, { name: 'Invoices EU' });
    expect(renamed.name).toBe('Invoices EU');
    expect((await client.workflows.retrieve(created.id)).name).toBe('Invoices EU');
    expect((await client.workflows.list()).data.map((w) => w.id)).toContain(created.id);

    const v1 = await client.workflowVersions.create(created.id, {});
    expect(v1).toMatchObject({ object: 'workflow_version', version: '1' });
    const v2 = await client.workflowVersions.create(created.id, { steps: REVIEWED_STEPS });
    expect(v2.version).toBe('2');
    expect((await client.workflowVersions.list(created.id)).data.map((v) => v.version)).toEqual([
      '2',
      '1',
    ]);
    expect((await client.workflowVersions.retrieve(created.id, '1')).id).toBe(v1.id);
    expect((await client.workflowVersions.retrieve(created.id, 'latest')).version).toBe('2');
    expect((await client.workflowVersions.retrieve(created.id, 'draft')).version).toBe('draft');
    expect((await client.workflowVersions.retrieve(created.id, v1.id)).version).toBe('1');
    await expect(client.workflowVersions.retrieve(created.id, '9')).rejects.toBeInstanceOf(
      Extend.NotFoundError,
    );
  });

  it('refuses a definition with every issue named', async () => {
    const bad = t.client().workflows.create({
      name: 'Broken',
      steps: [{ name: 'trigger', type: 'TRIGGER', next: [{ step: 'nowhere' }] }] as never,
    });
    await expect(bad).rejects.toBeInstanceOf(Extend.BadRequestError);
    await expect(bad).rejects.toMatchObject({
      body: {
        code: 'INVALID_REQUEST',
        issues: expect.arrayContaining([
          expect.objectContaining({ path: expect.stringContaining('body.steps[0].next[0]') }),
        ]),
      },
    });
  });
});

describe('workflow runs through the SDK', () => {
  async function deployed(steps = TWO_STEPS) {
    const client = t.client();
    const wf = await client.workflows.create({ name: 'Runs', steps });
    await client.workflowVersions.create(wf.id, {});
    return wf;
  }

  it('createAndPoll runs a two-step workflow on a text file to PROCESSED', async () => {
    const wf = await deployed();
    const run = await t.client().workflowRuns.createAndPoll(
      {
        workflow: { id: wf.id },
        file: { text: 'Invoice 7\nTotal 12.50 EUR', name: 'inv.txt' },
        metadata: { ref: 'A-7' },
      },
      { maxWaitMs: 30_000 },
    );
    expect(run).toMatchObject({
      object: 'workflow_run',
      status: 'PROCESSED',
      metadata: { ref: 'A-7' },
    });
    expect(run.stepRuns.map((s) => s.step.name)).toEqual(['trigger', 'parse']);
  });

  it('creates, retrieves, lists with filters, updates, cancels and deletes runs; batches share a batchId', async () => {
    const client = t.client();
    const wf = await deployed(REVIEWED_STEPS);
    const file = await client.files.upload(new File(['Order 1'], 'order-one.txt'), {});
    const run = await client.workflowRuns.create({
      workflow: { id: wf.id },
      file: { id: file.id },
    });
    expect(run.id).toMatch(/^workflow_run_/);
    expect((await client.workflowRuns.retrieve(run.id)).id).toBe(run.id);

    const byName = await client.workflowRuns.list({
      fileNameContains: 'ORDER-ONE',
      maxPageSize: 5,
    });
    expect(byName.data.map((r) => r.id)).toEqual([run.id]);
    expect(
      (await client.workflowRuns.list({ fileNameContains: file.id })).data.map((r) => r.id),
    ).toEqual([run.id]);
    expect((await client.workflowRuns.list({ workflowId: wf.id })).data.map((r) => r.id)).toEqual([
      run.id,
    ]);

    const updated = await client.workflowRuns.update(run.id, { metadata: { note: 'checked' } });
    expect(updated.metadata).toEqual({ note: 'checked' });

    const batch = await client.workflowRuns.createBatch({
      workflow: { id: wf.id },
      inputs: [{ file: { text: 'one' } }, { file: { text: 'two' } }],
    });
    expect(batch.batchId).toEqual(expect.any(String));
    const inBatch = await client.workflowRuns.list({ batchId: batch.batchId });
    expect(inBatch.data).toHaveLength(2);

    const cancelled = await client.workflowRuns.cancel(inBatch.data[0]?.id as string);
    expect(['CANCELLING', 'CANCELLED']).toContain(cancelled.status);
    const removed = await client.workflowRuns.delete(run.id);
    expect(removed.id).toBe(run.id);
    await expect(client.workflowRuns.retrieve(run.id)).rejects.toBeInstanceOf(Extend.NotFoundError);
  });

  it('lists runs by status and workflow, oldest or newest first, and pages through them by hand', async () => {
    // Workspace B: no other test of this file makes runs there, so the lists are exact.
    const client = t.client(t.keys.b);
    const reviewed = await client.workflows.create({ name: 'Listed', steps: REVIEWED_STEPS });
    await client.workflowVersions.create(reviewed.id, {});
    const plain = await client.workflows.create({ name: 'Plain', steps: TWO_STEPS });
    await client.workflowVersions.create(plain.id, {});
    const waiting: string[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await client.workflowRuns.createAndPoll({
        workflow: { id: reviewed.id },
        file: { text: `listed ${i}`, name: `listed-${i}.txt` },
      });
      expect(run.status).toBe('NEEDS_REVIEW');
      waiting.push(run.id);
    }
    const done = await client.workflowRuns.createAndPoll({
      workflow: { id: plain.id },
      file: { text: 'plain' },
    });
    const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);

    expect(ids(await client.workflowRuns.list({ status: 'NEEDS_REVIEW' }))).toEqual(
      [...waiting].reverse(),
    );
    expect(ids(await client.workflowRuns.list({ status: 'PROCESSED' }))).toEqual([done.id]);
    expect(
      ids(
        await client.workflowRuns.list({
          workflowId: reviewed.id,
          sortBy: 'createdAt',
          sortDir: 'asc',
        }),
      ),
    ).toEqual(waiting);
    expect(
      ids(await client.workflowRuns.list({ fileNameContains: 'LISTED-1', status: 'NEEDS_REVIEW' })),
    ).toEqual([waiting[1]]);

    const seen: string[] = [];
    let pages = 0;
    let token: string | undefined;
    do {
      const page = await client.workflowRuns.list({
        maxPageSize: 3,
        ...(token ? { nextPageToken: token } : {}),
      });
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...ids(page));
      pages++;
      token = page.nextPageToken;
    } while (token);
    expect(pages).toBe(2);
    expect(seen).toEqual([done.id, ...[...waiting].reverse()]);
    // sortBy=updatedAt: sort-by-updated.test.ts.
  });

  it('lists workflows and their versions oldest first on request', async () => {
    const client = t.client(t.keys.b);
    const first = await client.workflows.create({ name: 'Older', steps: TWO_STEPS });
    const second = await client.workflows.create({ name: 'Newer', steps: TWO_STEPS });
    const listed = (await client.workflows.list({ sortBy: 'createdAt', sortDir: 'asc' })).data;
    const order = listed.map((w) => w.id).filter((id) => id === first.id || id === second.id);
    expect(order).toEqual([first.id, second.id]);
    expect((await client.workflows.list({ maxPageSize: 1 })).data.map((w) => w.id)).toEqual([
      second.id,
    ]);
    await client.workflowVersions.create(first.id, {});
    await client.workflowVersions.create(first.id, {});
    const versions = (await client.workflowVersions.list(first.id, { sortDir: 'asc' })).data;
    expect(versions.map((v) => v.version)).toEqual(['1', '2']);
  });

  it('answers a finished run from memory, yet never stale: updates and deletes show at once, through HTTP or the engine', async () => {
    const client = t.client();
    const wf = await deployed();
    const run = await client.workflowRuns.createAndPoll({
      workflow: { id: wf.id },
      file: { text: 'cache' },
    });
    expect(run.status).toBe('PROCESSED');
    expect((await client.workflowRuns.retrieve(run.id)).metadata).toEqual({});
    await client.workflowRuns.update(run.id, { metadata: { step: 1 } });
    expect((await client.workflowRuns.retrieve(run.id)).metadata).toEqual({ step: 1 });
    // Embedding code changes the run through the engine the server hands out.
    const engine = await t.server.engineFor(t.workspaces.a.id);
    await engine.workflowRuns.update(run.id, { metadata: { step: 2 } });
    expect((await client.workflowRuns.retrieve(run.id)).metadata).toEqual({ step: 2 });
    await engine.workflowRuns.delete(run.id);
    await expect(client.workflowRuns.retrieve(run.id)).rejects.toBeInstanceOf(Extend.NotFoundError);
  });

  it("shows a review and a deletion of the run's file at once, whether the run was waiting or finished", async () => {
    const client = t.client();
    const reviewedWf = await deployed(REVIEWED_STEPS);
    const file = await client.files.upload(new File(['Order 9'], 'order-nine.txt'), {});
    const waiting = await client.workflowRuns.createAndPoll({
      workflow: { id: reviewedWf.id },
      file: { id: file.id },
    });
    expect(waiting.status).toBe('NEEDS_REVIEW');
    expect((await client.workflowRuns.retrieve(waiting.id)).status).toBe('NEEDS_REVIEW');
    const review = await t.fetch(`/workflow_runs/${waiting.id}/review`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'reject', reviewer: 'r@example.com', note: 'wrong order' }),
    });
    expect(review.status).toBe(200);
    const rejected = await client.workflowRuns.retrieve(waiting.id);
    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionNote: 'wrong order' });
    expect((await client.workflowRuns.retrieve(waiting.id)).status).toBe('REJECTED');

    // A finished run answered from memory, then its file deleted: the next answer shows it.
    const plain = await deployed();
    const done = await client.workflowRuns.createAndPoll({
      workflow: { id: plain.id },
      file: { id: file.id },
    });
    expect((await client.workflowRuns.retrieve(done.id)).files.map((f) => f.id)).toEqual([file.id]);
    await client.files.delete(file.id);
    for (const id of [done.id, waiting.id]) {
      const run = await client.workflowRuns.retrieve(id);
      expect(run.files, id).toEqual([]);
      expect(
        run.stepRuns.every((s) => s.files.length === 0),
        id,
      ).toBe(true);
    }
  });

  it('answers 422 for cancelling a run that ended (never 409)', async () => {
    const wf = await deployed();
    const run = await t
      .client()
      .workflowRuns.createAndPoll({ workflow: { id: wf.id }, file: { text: 'x' } });
    const again = t.client().workflowRuns.cancel(run.id);
    await expect(again).rejects.toBeInstanceOf(Extend.UnprocessableEntityError);
    await expect(again).rejects.toMatchObject({
      body: { code: 'INVALID_STATE', retryable: false },
    });
  });
});
