/**
 * `docflow api-keys` and `docflow serve` in subprocesses, with the service's SDK as the client:
 * keys, a graceful stop on SIGTERM, and SIGKILL in the middle of requests losing nothing that
 * was answered.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresForTests } from '@docflow/storage/testing';
import { ExtendClient } from 'extend-ai';
import { afterAll, describe, expect, it } from 'vitest';
import { docflow, workspace } from './run-cli.ts';

const pg = postgresForTests();
const BIN = fileURLToPath(new URL('../bin/docflow.mjs', import.meta.url));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `docflow serve` on a free port; resolves once it prints where it listens. */
function serve(
  cwd: string,
  db: string,
  storage: readonly string[] = [],
): Promise<{
  child: ChildProcess;
  origin: string;
  exited: Promise<number | null>;
  stderr: () => string;
}> {
  const child = spawn(
    process.execPath,
    [BIN, '--db', db, ...storage, 'serve', '--port', '0', '--quiet'],
    { cwd, env: { ...process.env, NO_COLOR: '1' } },
  );
  children.add(child);
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString('utf8');
      const match = /docflow serving (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, origin: match[1] as string, exited, stderr: () => stderr });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

async function createKey(
  cwd: string,
  db: string,
  ws = 'main',
): Promise<{ key: string; workspaceId: string }> {
  const made = await docflow(['--db', db, 'api-keys', 'create', '--workspace', ws, '--json'], {
    cwd,
  });
  expect(made.code).toBe(0);
  expect(made.stdout.trim().split('\n')).toHaveLength(1);
  return JSON.parse(made.stdout) as { key: string; workspaceId: string };
}

const TWO_STEPS = [
  { name: 'trigger', type: 'TRIGGER', next: [{ step: 'parse' }] },
  { name: 'parse', type: 'PARSE' },
] as never;

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

  it('loses nothing it answered when killed with SIGKILL in the middle of requests', async () => {
    const cwd = workspace();
    const { key } = await createKey(cwd, 'crash.db');
    const first = await serve(cwd, 'crash.db');
    const client = (origin: string) =>
      new ExtendClient({ token: key, baseUrl: origin, maxRetries: 0 });
    const wf = await client(first.origin).workflows.create({ name: 'crash', steps: TWO_STEPS });
    await client(first.origin).workflowVersions.create(wf.id, {});
    const answered: { runs: string[]; files: string[] } = { runs: [], files: [] };
    let stop = false;
    let enough: () => void = () => {};
    const thirty = new Promise<void>((resolve) => {
      enough = resolve;
    });
    const count = () => {
      if (answered.runs.length + answered.files.length >= 30) enough();
    };
    const load = async (n: number) => {
      const c = client(first.origin);
      while (!stop) {
        try {
          if (n % 2 === 0) {
            answered.files.push(
              (await c.files.upload(new File([`file ${n}`], `f${n}.txt`), {})).id,
            );
            count();
          } else {
            const run = await c.workflowRuns.create({
              workflow: { id: wf.id },
              file: { text: `run ${n}` },
            });
            answered.runs.push(run.id);
            count();
          }
        } catch {
          return; // the server died under this request
        }
      }
    };
    const clients = Array.from({ length: 6 }, (_, n) => load(n));
    await thirty;
    first.child.kill('SIGKILL');
    stop = true;
    await Promise.all(clients);
    await first.exited;

    const second = await serve(cwd, 'crash.db');
    const c = client(second.origin);
    for (const id of answered.files) expect((await c.files.retrieve(id)).id).toBe(id);
    for (const id of answered.runs) expect((await settled(c, id)).status, id).toBe('PROCESSED');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
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
