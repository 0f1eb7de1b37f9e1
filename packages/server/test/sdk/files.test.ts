import { createReadStream, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Extend } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.ts';

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  dir = await mkdtemp(join(tmpdir(), 'docflow-server-files-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

describe('files through the SDK', () => {
  it('uploads a File, retrieves it with a presigned URL that serves its bytes, lists and deletes it', async () => {
    const client = t.client();
    const uploaded = await client.files.upload(
      new File(['Invoice 42\nTotal: 10.00 EUR\n'], 'invoice.txt', { type: 'text/plain' }),
      {},
    );
    expect(uploaded).toMatchObject({
      object: 'file',
      name: 'invoice.txt',
      type: 'TXT',
      presignedUrl: null,
    });
    expect(uploaded.id).toMatch(/^file_/);

    const got = await client.files.retrieve(uploaded.id);
    expect(got.id).toBe(uploaded.id);
    expect(got.presignedUrl).toMatch(new RegExp(`^${t.origin}/presigned/files/`));
    const download = await fetch(got.presignedUrl as string);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('Invoice 42\nTotal: 10.00 EUR\n');

    const list = await client.files.list({ nameContains: 'invoice' });
    expect(list.data.map((f) => f.id)).toContain(uploaded.id);

    const removed = await client.files.delete(uploaded.id);
    expect(removed.id).toBe(uploaded.id);
    await expect(client.files.retrieve(uploaded.id)).rejects.toBeInstanceOf(Extend.NotFoundError);
  });

  it('uploads from a path (a read stream, as the SDK documents it)', async () => {
    const path = join(dir, 'note.txt');
    writeFileSync(path, 'from a path');
    const uploaded = await t.client().files.upload(createReadStream(path), {});
    expect(uploaded).toMatchObject({ name: 'note.txt', type: 'TXT' });
  });

  it('pages through a list by hand with nextPageToken', async () => {
    const client = t.client(t.keys.b);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await client.files.upload(new File([`page ${i}`], `p${i}.txt`), {})).id);
    }
    const seen: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.files.list({
        maxPageSize: 2,
        ...(token ? { nextPageToken: token } : {}),
      });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((f) => f.id));
      token = page.nextPageToken;
    } while (token);
    expect(seen).toEqual([...ids].reverse());
  });

  it('refuses what docflow cannot do, naming it: convertToPdf and password', async () => {
    const client = t.client();
    const file = new File(['x'], 'x.txt');
    const converting = client.files.upload(file, { convertToPdf: true });
    await expect(converting).rejects.toBeInstanceOf(Extend.BadRequestError);
    await expect(converting).rejects.toMatchObject({
      body: { code: 'NOT_SUPPORTED', issues: [{ path: 'query.convertToPdf' }] },
    });
    const locked = client.files.upload(new File(['x'], 'x.pdf'), { password: 'secret' });
    await expect(locked).rejects.toMatchObject({
      statusCode: 400,
      body: { code: 'NOT_SUPPORTED' },
    });
  });
});
