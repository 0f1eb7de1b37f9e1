/**
 * `docflow api-keys` and `docflow serve` in subprocesses, with the service's SDK as the client:
 * keys and a graceful stop on SIGTERM (serve-crash.test.ts kills it mid-request).
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { postgresForTests } from '@docflow/storage/testing';
import { ExtendClient } from 'extend-ai';
import { describe, expect, it } from 'vitest';
import { docflow, workspace } from './run-cli.ts';
import { createKey, serve, TWO_STEPS } from './serve-process.ts';

const pg = postgresForTests();

describe.concurrent('docflow api-keys', () => {
  it('creates a key shown once, lists keys without them, and revokes by id', async () => {
    const cwd = workspace();
    const { key, workspaceId } = await createKey(cwd, 'keys.db', 'acme-prod');
    expect(key).toMatch(/^dfk_[A-Za-z0-9_-]{43}$/);
    expect(workspaceId).toMatch(/^ws_/);
    const list = await docflow(['--db', 'keys.db', 'api-keys', 'list', '--json'], { cwd });
    const keys = JSON.parse(list.stdout) as {
      id: string;
      workspaceId: string;
      revokedAt: string | null;
    }[];
    expect(keys).toEqual([expect.objectContaining({ workspaceId, revokedAt: null })]);
    expect(list.stdout).not.toContain(key);
    const table = await docflow(['--db', 'keys.db', 'api-keys', 'list'], { cwd });
    expect(table.stdout).toContain('acme-prod');
    expect(table.stdout).not.toContain(key);
    const revoked = await docflow(
      ['--db', 'keys.db', 'api-keys', 'revoke', keys[0]?.id as string],
      { cwd },
    );
    expect(revoked.code).toBe(0);
    const after = JSON.parse(
      (await docflow(['--db', 'keys.db', 'api-keys', 'list', '--json'], { cwd })).stdout,
    );
    expect(after[0].revokedAt).toEqual(expect.any(String));
    expect(
      (await docflow(['--db', 'keys.db', 'api-keys', 'revoke', 'key_nope'], { cwd })).code,
    ).toBe(1);
    expect((await docflow(['--db', 'keys.db', 'api-keys', 'create'], { cwd })).code).toBe(2);
    const org = await docflow(
      [
        '--db',
        'keys.db',
        'api-keys',
        'create',
        '--scope',
        'organization',
        '--organization',
        'acme',
        '--json',
      ],
      { cwd },
    );
    expect(JSON.parse(org.stdout)).toMatchObject({
      key: expect.stringMatching(/^dfk_/),
      organizationId: expect.stringMatching(/^org_/),
    });
  });
});

describe.skipIf(pg.skip)('docflow serve --postgres', () => {
  it("keeps each workspace's runs in PostgreSQL, where a second server finds them", async () => {
    const cwd = workspace();
    const { key } = await createKey(cwd, 'serve.db');
    const storage = ['--postgres', pg.url, '--postgres-schema', pg.schema()];
    const first = await serve(cwd, 'serve.db', storage);
    const client = new ExtendClient({ token: key, baseUrl: first.origin, maxRetries: 0 });
    const wf = await client.workflows.create({ name: 'served', steps: TWO_STEPS });
    await client.workflowVersions.create(wf.id, {});
    const run = await client.workflowRuns.createAndPoll({
      workflow: { id: wf.id },
      file: { text: 'served' },
    });
    expect(run.status).toBe('PROCESSED');
    expect(first.stderr()).toContain('workspaces on PostgreSQL');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(existsSync(join(cwd, 'serve.db.workspaces'))).toBe(false);
    const second = await serve(cwd, 'serve.db', storage);
    const again = new ExtendClient({ token: key, baseUrl: second.origin, maxRetries: 0 });
    expect((await again.workflowRuns.retrieve(run.id)).status).toBe('PROCESSED');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  });
});

describe.concurrent('docflow serve', () => {
  it('serves the SDK, and on SIGTERM finishes and exits 0; a revoked key stops working at once', async () => {
    const cwd = workspace();
    const { key } = await createKey(cwd, 'serve.db');
    const server = await serve(cwd, 'serve.db');
    const client = new ExtendClient({ token: key, baseUrl: server.origin, maxRetries: 0 });
    const wf = await client.workflows.create({ name: 'served', steps: TWO_STEPS });
    await client.workflowVersions.create(wf.id, {});
    const run = await client.workflowRuns.createAndPoll({
      workflow: { id: wf.id },
      file: { text: 'served' },
    });
    expect(run.status).toBe('PROCESSED');
    const keys = JSON.parse(
      (await docflow(['--db', 'serve.db', 'api-keys', 'list', '--json'], { cwd })).stdout,
    );
    await docflow(['--db', 'serve.db', 'api-keys', 'revoke', keys[0].id], { cwd });
    await expect(client.workflows.list()).rejects.toMatchObject({ statusCode: 401 });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toContain('stopping');
  });
});

describe.concurrent('docflow serve --allow-loopback', () => {
  it("lets runs' document URLs on this machine in; without it they fail to download", async () => {
    const files = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('Invoice 7: total 12.00 EUR');
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/invoice.txt`;
    try {
      const cwd = workspace();
      const { key } = await createKey(cwd, 'serve.db');
      for (const flags of [['--allow-loopback'], []]) {
        const server = await serve(cwd, 'serve.db', [], flags);
        const client = new ExtendClient({ token: key, baseUrl: server.origin, maxRetries: 0 });
        const wf = await client.workflows.create({ name: 'by url', steps: TWO_STEPS });
        await client.workflowVersions.create(wf.id, {});
        const run = await client.workflowRuns.createAndPoll({
          workflow: { id: wf.id },
          file: { url },
        });
        if (flags.length > 0) {
          expect(run.status).toBe('PROCESSED');
          expect(server.stderr()).not.toContain('document URLs and webhooks to this machine');
        } else {
          expect(run).toMatchObject({ status: 'FAILED' });
          expect(JSON.stringify(run)).toContain('UNABLE_TO_DOWNLOAD_FILE');
          expect(server.stderr()).toContain('--allow-loopback lets a local server in');
        }
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
      }
    } finally {
      files.close();
    }
  });
});
