import { connect } from 'node:net';
import { Extend } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUrlSigner } from '../../src/presign/url-signer.ts';
import {
  gatedParseSteps,
  REVIEWED_STEPS,
  startTestServer,
  type TestServer,
  TWO_STEPS,
} from '../helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ limits: { uploadBytes: 1024, bodyTimeoutMs: 300 } });
});
afterAll(async () => {
  await t.close();
});

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('POST /workflow_runs/{id}/review (docflow extension)', () => {
  it('approves or rejects a run that waits for review; 422 for a run that does not', async () => {
    const client = t.client();
    const wf = await client.workflows.create({
      name: 'Reviewed',
      steps: REVIEWED_STEPS,
    });
    await client.workflowVersions.create(wf.id, {});
    const [first, second] = await Promise.all([
      client.workflowRuns.createAndPoll({ workflow: { id: wf.id }, file: { text: 'one' } }),
      client.workflowRuns.createAndPoll({ workflow: { id: wf.id }, file: { text: 'two' } }),
    ]);
    expect(first.status).toBe('NEEDS_REVIEW');

    const approved = await t.fetch(
      `/workflow_runs/${first.id}/review`,
      json({ decision: 'approve', reviewer: 'ana@example.com' }),
    );
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({
      id: first.id,
      reviewed: true,
      reviewedByUser: 'ana@example.com',
    });
    const rejected = await t.fetch(
      `/workflow_runs/${second.id}/review`,
      json({ decision: 'reject', reviewer: 'bo@example.com', note: 'wrong vendor' }),
    );
    expect(await rejected.json()).toMatchObject({
      status: 'REJECTED',
      rejectionNote: 'wrong vendor',
    });

    const again = await t.fetch(
      `/workflow_runs/${second.id}/review`,
      json({ decision: 'approve', reviewer: 'ana@example.com' }),
    );
    expect(again.status).toBe(422);
    expect(await again.json()).toMatchObject({ code: 'INVALID_STATE' });
    const bad = await t.fetch(
      `/workflow_runs/${second.id}/review`,
      json({ decision: 'maybe', reviewer: 'x' }),
    );
    expect(await bad.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      issues: [{ path: 'body.decision' }],
    });
  });
});

describe('uploads', () => {
  const form = (...parts: [string, Blob | string, string?][]) => {
    const data = new FormData();
    for (const [name, value, filename] of parts) {
      if (typeof value === 'string') data.append(name, value);
      else data.append(name, value, filename);
    }
    return { method: 'POST', body: data };
  };

  it('cuts a file over the upload limit while it streams, and stores nothing', async () => {
    const before = (await t.client(t.keys.b).files.list({ maxPageSize: 100 })).data.length;
    const r = await t.fetch('/files/upload', {
      ...form(['file', new Blob(['x'.repeat(4096)]), 'big.txt']),
      key: t.keys.b,
    });
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({ code: 'REQUEST_TOO_LARGE' });
    expect((await t.client(t.keys.b).files.list({ maxPageSize: 100 })).data.length).toBe(before);
  });

  it('refuses uploads without a file part, with unknown parts or two files, and bodies that are not multipart', async () => {
    const none = await t.fetch('/files/upload', form(['note', 'hello']));
    expect(await none.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      issues: [{ path: 'body.note' }],
    });
    const empty = await t.fetch('/files/upload', form());
    expect(await empty.json()).toMatchObject({
      code: 'INVALID_REQUEST',
      issues: [{ path: 'body.file' }],
    });
    const two = await t.fetch(
      '/files/upload',
      form(['file', new Blob(['a']), 'a.txt'], ['file', new Blob(['b']), 'b.txt']),
    );
    expect(two.status).toBe(400);
    const other = await t.fetch('/files/upload', form(['attachment', new Blob(['a']), 'a.txt']));
    expect(await other.json()).toMatchObject({ issues: [{ path: 'body.attachment' }] });
    const notMultipart = await t.fetch('/files/upload', json({ file: 'x' }));
    expect(notMultipart.status).toBe(400);
  });

  it('names the upload after the part, and types it from its content', async () => {
    const r = await t.fetch(
      '/files/upload',
      form(['file', new Blob(['<html><body>hi</body></html>']), 'page.html']),
    );
    expect(await r.json()).toMatchObject({ object: 'file', name: 'page.html', type: 'HTML' });
  });
});

/** Sends `head` and `body` on a raw socket, then nothing; resolves with what the server answers. */
function stall(head: string, body: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const url = new URL(t.origin);
    const socket = connect(Number(url.port), url.hostname, () => socket.write(head + body));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
    });
    socket.on('close', () => resolve({ text, closed: true }));
    socket.on('error', reject);
  });
}

describe('a body that stops arriving', () => {
  const headers = (type: string, length: number) =>
    `POST /workflows HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keys.a}\r\nx-extend-api-version: 2026-02-09\r\ncontent-type: ${type}\r\ncontent-length: ${length}\r\n\r\n`;

  it('is cut off with 400 REQUEST_TIMEOUT and the connection closed (JSON)', async () => {
    const { text, closed } = await stall(headers('application/json', 100), '{"name":');
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(text).toContain('"code":"REQUEST_TIMEOUT"');
    expect(closed).toBe(true);
  });

  it('is cut off when a multipart upload sends its first part header and then nothing', async () => {
    const boundary = 'xyz';
    const head = `POST /files/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.keys.a}\r\nx-extend-api-version: 2026-02-09\r\ncontent-type: multipart/form-data; boundary=${boundary}\r\ntransfer-encoding: chunked\r\n\r\n`;
    const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n`;
    const chunk = `${part.length.toString(16)}\r\n${part}\r\n`;
    const { text } = await stall(head, chunk);
    expect(text).toMatch(/^HTTP\/1\.1 400/);
    expect(text).toContain('"code":"REQUEST_TIMEOUT"');
  });
});

describe('presigned URLs', () => {
  it('refuse an altered or expired URL with 403', async () => {
    const client = t.client();
    const file = await client.files.upload(new File(['secret bytes'], 's.txt'), {});
    const url = new URL((await client.files.retrieve(file.id)).presignedUrl as string);
    expect((await fetch(url)).status).toBe(200);
    const tampered = new URL(url);
    tampered.searchParams.set('signature', '0'.repeat(64));
    const r1 = await fetch(tampered);
    expect(r1.status).toBe(403);
    expect(await r1.json()).toMatchObject({ code: 'PRESIGNED_URL_INVALID' });
    const longer = new URL(url);
    longer.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await fetch(longer)).status).toBe(403);
    const otherWorkspace = new URL(url.href.replace(t.workspaces.a.id, t.workspaces.b.id));
    expect((await fetch(otherWorkspace)).status).toBe(403);
    const signer = createUrlSigner(t.registry.serverSecret());
    const expired = t.origin + signer.sign(url.pathname, new Date(Date.now() - 1000));
    const r2 = await fetch(expired);
    expect(r2.status).toBe(403);
    expect(await r2.json()).toMatchObject({ code: 'PRESIGNED_URL_EXPIRED' });
    const expires = Number(url.searchParams.get('expires')) * 1000 - Date.now();
    expect(expires).toBeGreaterThan(14 * 60_000);
    expect(expires).toBeLessThanOrEqual(15 * 60_000);
  });
});

describe('synchronous endpoints out of time', () => {
  it('answer 422 SYNC_TIMEOUT with the runId, never 5xx: the run exists and goes on', async () => {
    const { steps, release } = gatedParseSteps();
    const slow = await startTestServer({ steps, limits: { syncTimeoutMs: 200 } });
    try {
      const client = slow.client();
      const file = await client.files.upload(new File(['slow'], 'slow.txt'), {});
      const sync = client.parse({ file: { id: file.id } });
      await expect(sync).rejects.toBeInstanceOf(Extend.UnprocessableEntityError);
      const error = (await sync.catch((e: unknown) => e)) as {
        body: { runId: string; code: string };
      };
      expect(error.body.code).toBe('SYNC_TIMEOUT');
      expect((await client.parseRuns.retrieve(error.body.runId)).status).toBe('PROCESSING');
      release();
      const done = await client.parseRuns.createAndPoll({ file: { id: file.id } });
      expect(done.status).toBe('PROCESSED');
    } finally {
      release();
      await slow.close();
    }
  });

  it('answer 200 with a FAILED run when the run fails (a run-level failure is not an HTTP error)', async () => {
    const client = t.client();
    const wf = await client.workflows.create({
      name: 'url',
      steps: TWO_STEPS,
    });
    await client.workflowVersions.create(wf.id, {});
    const run = await client.workflowRuns.create({
      workflow: { id: wf.id },
      file: { url: `${t.origin}/no/such/file.pdf` },
    });
    expect(run).toMatchObject({ status: 'FAILED', failureReason: 'UNABLE_TO_DOWNLOAD_FILE' });
  });
});
