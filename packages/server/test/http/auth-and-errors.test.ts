import { memoryStorage, StorageError } from '@docflow/storage';
import { Extend } from 'extend-ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/index.ts';
import { startTestServer, type TestServer, TWO_STEPS } from '../helpers.ts';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

async function errorOf(response: Response) {
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  return (await response.json()) as Record<string, unknown>;
}

describe('authentication', () => {
  it('answers 401 with the interface error body for a missing, malformed, unknown or revoked key', async () => {
    const missing = await fetch(`${t.origin}/files`, {
      headers: { 'x-extend-api-version': '2026-02-09' },
    });
    expect(missing.status).toBe(401);
    const body = await errorOf(missing);
    expect(body).toMatchObject({
      code: 'UNAUTHORIZED',
      retryable: false,
      message: expect.stringMatching(/Authorization/),
    });
    expect(body.requestId).toBe(missing.headers.get('x-request-id'));
    expect(body.docUrl).toBe(`${t.origin}/errors/UNAUTHORIZED`);
    expect(await (await fetch(body.docUrl as string)).json()).toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    });

    for (const authorization of [
      'Basic abc',
      'Bearer',
      'Bearer not-a-key',
      `Bearer ${t.keys.a}x`,
    ]) {
      const r = await fetch(`${t.origin}/files`, {
        headers: { authorization, 'x-extend-api-version': '2026-02-09' },
      });
      expect(r.status, authorization).toBe(401);
    }
    const unknown = t.client(`dfk_${'A'.repeat(43)}`).files.list();
    await expect(unknown).rejects.toBeInstanceOf(Extend.UnauthorizedError);
    await expect(unknown).rejects.toMatchObject({
      body: { code: 'UNAUTHORIZED', message: 'Unknown API key' },
    });

    const org = t.registry.ensureOrganization('acme');
    const { key, record } = createApiKey(t.registry, {
      scope: 'workspace',
      organizationId: org.id,
      workspaceId: t.workspaces.a.id,
    });
    expect((await t.client(key).files.list()).object).toBe('list');
    t.registry.revokeApiKey(record.id, new Date().toISOString());
    await expect(t.client(key).files.list()).rejects.toMatchObject({
      statusCode: 401,
      body: { message: 'The API key was revoked' },
    });
  });

  it('lets a workspace key reach its own workspace only (403 for another)', async () => {
    const own = await t
      .client(t.keys.a, { headers: { 'x-extend-workspace-id': t.workspaces.a.id } })
      .files.list();
    expect(own.object).toBe('list');
    const other = t
      .client(t.keys.a, { headers: { 'x-extend-workspace-id': t.workspaces.b.id } })
      .files.list();
    await expect(other).rejects.toBeInstanceOf(Extend.ForbiddenError);
  });

  it('requires the workspace header with an organization key, and keeps it inside its organization', async () => {
    const none = t.client(t.keys.org).files.list();
    await expect(none).rejects.toBeInstanceOf(Extend.BadRequestError);
    await expect(none).rejects.toMatchObject({
      body: { issues: [{ path: 'header.x-extend-workspace-id' }] },
    });
    const inA = t.client(t.keys.org, { headers: { 'x-extend-workspace-id': t.workspaces.a.id } });
    const uploaded = await inA.files.upload(new File(['org'], 'org.txt'), {});
    expect((await t.client(t.keys.a).files.retrieve(uploaded.id)).id).toBe(uploaded.id);
    const otherOrg = t.registry.ensureOrganization('globex');
    const outside = t.registry.ensureWorkspace(otherOrg.id, 'theirs');
    const refused = t
      .client(t.keys.org, { headers: { 'x-extend-workspace-id': outside.id } })
      .files.list();
    await expect(refused).rejects.toBeInstanceOf(Extend.ForbiddenError);
    const unknown = t
      .client(t.keys.org, { headers: { 'x-extend-workspace-id': 'ws_nope' } })
      .files.list();
    await expect(unknown).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe('API versions', () => {
  it('accepts 2026-02-09 only; another value or none is a 400 INVALID_REQUEST', async () => {
    const bad = await t.fetch('/files', { headers: { 'x-extend-api-version': '2025-04-21' } });
    expect(bad.status).toBe(400);
    expect(await errorOf(bad)).toMatchObject({
      code: 'INVALID_REQUEST',
      issues: [{ code: 'UNSUPPORTED_VERSION', path: 'header.x-extend-api-version' }],
    });
    const none = await fetch(`${t.origin}/files`, {
      headers: { authorization: `Bearer ${t.keys.a}` },
    });
    expect(none.status).toBe(400);
    expect(await errorOf(none)).toMatchObject({ issues: [{ code: 'REQUIRED' }] });
    const sdk = t.client().files.list({}, { extendApiVersion: '2024-12-23' } as never);
    await expect(sdk).rejects.toBeInstanceOf(Extend.BadRequestError);
  });
});

describe('the header word', () => {
  it('is configurable: with "service", requests and the OpenAPI document use x-service-…', async () => {
    const neutral = await startTestServer({ headerWord: 'service' });
    try {
      const auth = { authorization: `Bearer ${neutral.keys.a}` };
      const extend = await fetch(`${neutral.origin}/files`, {
        headers: { ...auth, 'x-extend-api-version': '2026-02-09' },
      });
      expect(await errorOf(extend)).toMatchObject({
        issues: [{ path: 'header.x-service-api-version' }],
      });
      const service = await fetch(`${neutral.origin}/files`, {
        headers: {
          ...auth,
          'x-service-api-version': '2026-02-09',
          'x-service-workspace-id': neutral.workspaces.a.id,
        },
      });
      expect(service.status).toBe(200);
      const document = (await (await fetch(`${neutral.origin}/openapi.json`)).json()) as {
        components: { parameters: { ApiVersion: { name: string } } };
      };
      expect(document.components.parameters.ApiVersion.name).toBe('x-service-api-version');
    } finally {
      await neutral.close();
    }
  });
});

describe('bad input', () => {
  it('names unknown query parameters and body keys instead of ignoring them', async () => {
    const query = await t.fetch('/files?nameContains=a&colour=red');
    expect(query.status).toBe(400);
    expect(await errorOf(query)).toMatchObject({
      issues: [{ code: 'UNKNOWN_PARAMETER', path: 'query.colour' }],
    });
    const body = await t.fetch('/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', stpes: [] }),
    });
    expect(await errorOf(body)).toMatchObject({
      code: 'INVALID_REQUEST',
      issues: [{ code: 'UNKNOWN_KEY', path: 'body.stpes' }],
    });
    const nested = await t.fetch('/workflow_runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        workflow: { id: 'workflow_x', versoin: '1' },
        file: { id: 'file_x' },
      }),
    });
    expect(await errorOf(nested)).toMatchObject({ issues: [{ path: 'body.workflow.versoin' }] });
    const shape = await t.fetch('/workflow_runs', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ workflow: { id: 'workflow_x' }, file: { id: 'file_x', colour: 1 } }),
    });
    expect(await errorOf(shape)).toMatchObject({
      issues: [{ code: 'UNKNOWN_KEY', path: 'body.file.colour' }],
    });
  });

  it('bounds maxPageSize, metadata and packages', async () => {
    for (const size of ['0', '1001', 'ten']) {
      const r = await t.fetch(`/files?maxPageSize=${size}`);
      expect(r.status, size).toBe(400);
      expect((await errorOf(r)).issues).toEqual([
        expect.objectContaining({ path: 'query.maxPageSize' }),
      ]);
    }
    const client = t.client();
    const wf = await client.workflows.create({
      name: 'limits',
      steps: TWO_STEPS,
    });
    await client.workflowVersions.create(wf.id, {});
    const big = client.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'x' },
      metadata: { blob: 'x'.repeat(11_000) },
    });
    await expect(big).rejects.toMatchObject({
      statusCode: 400,
      body: { issues: [{ code: 'METADATA_TOO_LARGE', path: 'body.metadata' }] },
    });
    const one = client.workflowRuns.create({
      workflow: { id: wf.id },
      package: { files: [{ id: 'file_a' }] },
    });
    await expect(one).rejects.toMatchObject({
      statusCode: 400,
      body: { issues: [{ path: 'body.package.files' }] },
    });
    const many = client.workflowRuns.create({
      workflow: { id: wf.id },
      package: { files: Array.from({ length: 51 }, (_, i) => ({ id: `file_${i}` })) },
    });
    await expect(many).rejects.toMatchObject({ statusCode: 400 });
    const both = client.workflowRuns.create({
      workflow: { id: wf.id },
      file: { text: 'a' },
      package: { files: [{ id: 'file_a' }, { id: 'file_b' }] },
    });
    await expect(both).rejects.toMatchObject({
      statusCode: 400,
      body: { issues: [{ code: 'FILE_OR_PACKAGE' }] },
    });
    const unknownFile = client.workflowRuns.create({
      workflow: { id: wf.id },
      file: { id: 'file_missing' },
    });
    await expect(unknownFile).rejects.toMatchObject({
      statusCode: 404,
      body: { issues: [{ path: 'body.file.id' }] },
    });
  });

  it('answers unknown routes, bad JSON and wrong content types with the error body', async () => {
    const route = await t.fetch('/nothing/here');
    expect(route.status).toBe(404);
    expect(await errorOf(route)).toMatchObject({ code: 'NOT_FOUND' });
    const json = await t.fetch('/workflows', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(json.status).toBe(400);
    expect(await errorOf(json)).toMatchObject({
      code: 'INVALID_REQUEST',
      message: expect.stringMatching(/JSON/),
    });
    const type = await t.fetch('/workflows', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'name=x',
    });
    expect(type.status).toBe(400);
  });
});

describe('statuses the SDK maps to its error classes', () => {
  it('answers 429 with Retry-After once a key exceeds its rate', async () => {
    const limited = await startTestServer({ limits: { rateLimit: { max: 3, windowMs: 60_000 } } });
    try {
      const client = limited.client();
      for (let i = 0; i < 3; i++) await client.files.list();
      const fourth = client.files
        .list()
        .withRawResponse()
        .catch((e: unknown) => e);
      const error = (await fourth) as InstanceType<typeof Extend.TooManyRequestsError>;
      expect(error).toBeInstanceOf(Extend.TooManyRequestsError);
      expect(error.body).toMatchObject({ code: 'RATE_LIMITED', retryable: true });
      expect(Number(error.rawResponse?.headers.get('retry-after'))).toBeGreaterThan(0);
      // Keys are counted apart.
      expect((await limited.client(limited.keys.b).files.list()).object).toBe('list');
    } finally {
      await limited.close();
    }
  });

  it('answers 500 INTERNAL_ERROR, retryable, when storage fails, and stores nothing', async () => {
    let failing = false;
    const broken = await startTestServer({
      workspaceStorage: () => {
        const storage = memoryStorage();
        const commit = storage.commit.bind(storage);
        storage.commit = (changes, options) =>
          failing
            ? Promise.reject(new StorageError('DATABASE_ERROR', 'disk gone', { retryable: true }))
            : commit(changes, options);
        return storage;
      },
    });
    try {
      const client = broken.client();
      failing = true;
      const create = client.workflows.create({ name: 'lost' });
      await expect(create).rejects.toBeInstanceOf(Extend.InternalServerError);
      await expect(create).rejects.toMatchObject({
        body: { code: 'INTERNAL_ERROR', retryable: true },
      });
      failing = false;
      expect((await client.workflows.list()).data).toEqual([]);
    } finally {
      await broken.close();
    }
  });
});
