import { setTimeout as sleep } from 'node:timers/promises';
import { Extend } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEWED_STEPS, startTestServer, type TestServer } from '../helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

const ids = (page: { data: { id: string }[] }) => page.data.map((r) => r.id);

describe('lists sorted by updatedAt through the SDK', () => {
  it('lists runs by their last change, both directions, page by page, after an older run is updated', async () => {
    // Its own server: the lists hold exactly the runs this test makes.
    const client = t.client();
    const wf = await client.workflows.create({ name: 'Sorted', steps: REVIEWED_STEPS });
    await client.workflowVersions.create(wf.id, {});
    const runs: string[] = [];
    for (let i = 0; i < 3; i++) {
      // Held for review: nothing changes a run after this but the update below.
      const run = await client.workflowRuns.createAndPoll({
        workflow: { id: wf.id },
        file: { text: `sorted ${i}`, name: `sorted-${i}.txt` },
      });
      expect(run.status).toBe('NEEDS_REVIEW');
      runs.push(run.id);
      await sleep(5);
    }
    const [oldest, middle, newest] = runs as [string, string, string];
    const updated = await client.workflowRuns.update(oldest, { metadata: { note: 'again' } });
    // The SDK's WorkflowRun type has no updatedAt; the server's answer does.
    const updatedAt = (run: object) => Date.parse((run as { updatedAt: string }).updatedAt);
    expect(updatedAt(updated)).toBeGreaterThan(
      updatedAt(await client.workflowRuns.retrieve(newest)),
    );

    // Creation order stays the default.
    expect(ids(await client.workflowRuns.list())).toEqual([newest, middle, oldest]);
    expect(ids(await client.workflowRuns.list({ sortBy: 'updatedAt' }))).toEqual([
      oldest,
      newest,
      middle,
    ]);

    const pages: string[][] = [];
    let token: string | undefined;
    do {
      const page = await client.workflowRuns.list({
        sortBy: 'updatedAt',
        sortDir: 'asc',
        maxPageSize: 2,
        ...(token === undefined ? {} : { nextPageToken: token }),
      });
      pages.push(ids(page));
      token = page.nextPageToken;
    } while (token !== undefined);
    expect(pages).toEqual([[middle, newest], [oldest]]);

    // The same order through the file-name filter, and a workflow's runs.
    expect(
      ids(await client.workflowRuns.list({ sortBy: 'updatedAt', fileNameContains: 'sorted-' })),
    ).toEqual([oldest, newest, middle]);
    expect(
      ids(
        await client.workflowRuns.list({
          sortBy: 'updatedAt',
          sortDir: 'asc',
          workflowId: wf.id,
        }),
      ),
    ).toEqual([middle, newest, oldest]);

    // A token of one order does not continue the other.
    const byUpdate = await client.workflowRuns.list({ sortBy: 'updatedAt', maxPageSize: 1 });
    const mixed = client.workflowRuns.list({
      maxPageSize: 1,
      nextPageToken: byUpdate.nextPageToken as string,
    });
    await expect(mixed).rejects.toBeInstanceOf(Extend.BadRequestError);
    await expect(mixed).rejects.toMatchObject({
      body: {
        issues: [expect.objectContaining({ path: expect.stringContaining('nextPageToken') })],
      },
    });
  });

  it('lists workflows by their last change', async () => {
    const client = t.client(t.keys.b);
    const first = await client.workflows.create({ name: 'First', steps: REVIEWED_STEPS });
    await sleep(5);
    const second = await client.workflows.create({ name: 'Second', steps: REVIEWED_STEPS });
    await sleep(5);
    await client.workflows.update(first.id, { name: 'First, renamed' });
    expect(ids(await client.workflows.list({ sortBy: 'updatedAt' }))).toEqual([
      first.id,
      second.id,
    ]);
    expect(ids(await client.workflows.list({ sortBy: 'createdAt' }))).toEqual([
      second.id,
      first.id,
    ]);
  });

  it('lists extractors by their last change', async () => {
    // Workspace A holds no other extractor.
    const client = t.client();
    const config = {
      schema: { type: 'object', properties: { total: { type: ['number', 'null'] } } },
    } as never;
    const first = await client.extractors.create({ name: 'First', config });
    await sleep(5);
    const second = await client.extractors.create({ name: 'Second', config });
    await sleep(5);
    await client.extractors.update(first.id, { name: 'First, renamed' });
    expect(ids(await client.extractors.list({ sortBy: 'updatedAt' }))).toEqual([
      first.id,
      second.id,
    ]);
    expect(ids(await client.extractors.list({ sortBy: 'updatedAt', sortDir: 'asc' }))).toEqual([
      second.id,
      first.id,
    ]);
    expect(ids(await client.extractors.list())).toEqual([second.id, first.id]);
  });
});
