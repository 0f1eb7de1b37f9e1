/**
 * `docflow serve` killed with SIGKILL while uploads and run creations are in flight, then
 * started again on the same database: every request that was answered 2xx is there, nothing is
 * half-stored (no file without its bytes, no bytes without their file), and the runs go on.
 */
import { join } from 'node:path';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { ExtendClient } from 'extend-ai';
import { describe, expect, it } from 'vitest';
import { workspace } from './run-cli.ts';
import { createKey, serve, TWO_STEPS } from './serve-process.ts';

/** Uploads big enough that a kill lands while one streams in (256 KB each). */
const UPLOAD_BYTES = 256 * 1024;

describe('docflow serve killed mid-request', () => {
  it('keeps every answered file and run, stores nothing by halves, and resumes the runs', async () => {
    const cwd = workspace();
    const { key, workspaceId } = await createKey(cwd, 'crash.db');
    const first = await serve(cwd, 'crash.db');
    const client = (origin: string) =>
      new ExtendClient({ token: key, baseUrl: origin, maxRetries: 0 });
    const wf = await client(first.origin).workflows.create({ name: 'crash', steps: TWO_STEPS });
    await client(first.origin).workflowVersions.create(wf.id, {});

    const answered = { files: new Map<string, number>(), runs: [] as string[] };
    let inFlightAtKill = 0;
    let killed = false;
    let enough: () => void = () => {};
    const enoughAnswered = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const noteAnswer = () => {
      if (answered.files.size + answered.runs.length >= 40) enough();
    };
    // Each client uploads a file, then starts a run on it (or on text), until the kill.
    const load = async (n: number) => {
      const c = client(first.origin);
      for (let i = 0; !killed; i++) {
        try {
          const text = `client ${n} file ${i}\n`.padEnd(UPLOAD_BYTES, '.');
          const file = await c.files.upload(new File([text], `c${n}-${i}.txt`), {});
          answered.files.set(file.id, UPLOAD_BYTES);
          noteAnswer();
          const run = await c.workflowRuns.create({
            workflow: { id: wf.id },
            file: i % 2 === 0 ? { id: file.id } : { text: `run ${n}.${i}` },
          });
          answered.runs.push(run.id);
          noteAnswer();
        } catch (error) {
          if (!killed) throw error;
          inFlightAtKill++;
          return;
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, n) => load(n));
    await enoughAnswered;
    killed = true;
    first.child.kill('SIGKILL');
    await Promise.all(clients);
    await first.exited;
    // The kill caught requests on their way: the test tests what it says.
    expect(inFlightAtKill).toBeGreaterThan(0);

    const second = await serve(cwd, 'crash.db');
    const c = client(second.origin);
    for (const [id, size] of answered.files) {
      const file = await c.files.retrieve(id);
      const bytes = await (await fetch(file.presignedUrl as string)).arrayBuffer();
      expect(bytes.byteLength, id).toBe(size);
    }
    for (const id of answered.runs) expect((await settled(c, id)).status, id).toBe('PROCESSED');
    // Runs that were created but not answered go on too: none is left behind, unfinished.
    let token: string | undefined;
    do {
      const page = await c.workflowRuns.list({
        maxPageSize: 100,
        ...(token ? { nextPageToken: token } : {}),
      });
      for (const run of page.data) {
        expect((await settled(c, run.id)).status, run.id).toBe('PROCESSED');
      }
      token = page.nextPageToken;
    } while (token);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // What the workspace's database holds: every file has its bytes, and all bytes a file.
    const storage = sqliteStorage({
      path: join(cwd, 'crash.db.workspaces', `${workspaceId}.db`),
      readOnly: true,
    });
    await storage.open();
    try {
      const fileKeys = new Set<string>();
      let pageToken: string | undefined;
      do {
        const page = await storage.listDocuments('files', { pageSize: 500, pageToken });
        for (const doc of page.items) {
          expect(doc.blobKey, doc.id).toEqual(expect.any(String));
          const bytes = await storage.blobs.get(doc.blobKey as string);
          expect(bytes?.byteLength, doc.id).toBe((doc.data.metadata as { size: number }).size);
          fileKeys.add(doc.blobKey as string);
        }
        pageToken = page.nextPageToken;
      } while (pageToken);
      for (const id of answered.files.keys()) expect(fileKeys).toContain(`file/${id}`);
      const blobKeys = await storage.blobs.keys?.('file/');
      expect(blobKeys).toBeDefined();
      expect(new Set(blobKeys)).toEqual(fileKeys);
    } finally {
      await storage.close();
    }
  });
});

/** The run once it settles (the restarted server resumes what the killed one left). */
async function settled(c: ExtendClient, id: string) {
  for (;;) {
    const run = await c.workflowRuns.retrieve(id);
    if (!['PENDING', 'PROCESSING', 'CANCELLING'].includes(run.status)) return run;
    await new Promise((r) => setTimeout(r, 25));
  }
}
