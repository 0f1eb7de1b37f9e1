import { memoryStorage } from '@docflow/storage';
import { beforeEach, describe, expect, it } from 'vitest';
import { type EngineError, isEngineError } from '../../src/errors.ts';
import { createWebhookEndpointsService } from '../../src/resources/webhook-endpoints.ts';
import { createWebhookSubscriptionsService } from '../../src/resources/webhook-subscriptions.ts';
import { testContext } from '../webhooks/helpers.ts';

async function rejection(promise: Promise<unknown>): Promise<EngineError> {
  try {
    await promise;
  } catch (error) {
    if (isEngineError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('webhookEndpoints', () => {
  let storage: ReturnType<typeof memoryStorage>;
  let endpoints: ReturnType<typeof createWebhookEndpointsService>;
  let subscriptions: ReturnType<typeof createWebhookSubscriptionsService>;

  beforeEach(async () => {
    storage = memoryStorage();
    await storage.open();
    const ctx = testContext(storage);
    endpoints = createWebhookEndpointsService(ctx);
    subscriptions = createWebhookSubscriptionsService(ctx);
  });

  it('creates an endpoint and returns the signing secret only from create', async () => {
    const created = await endpoints.create({
      url: 'https://example.com/hooks',
      name: 'Main',
      enabledEvents: ['extract_run.processed', 'workflow.deployed'],
    });
    expect(created).toMatchObject({
      object: 'webhook_endpoint',
      url: 'https://example.com/hooks',
      name: 'Main',
      enabledEvents: ['extract_run.processed', 'workflow.deployed'],
      apiVersion: '2026-02-09',
      deliveryFormat: 'json',
      signedUrlThresholdBytes: null,
    });
    expect(created.id).toMatch(/^wh_/);
    expect(created.signingSecret).toMatch(/^wss_[0-9a-f]{64}$/);
    const fetched = await endpoints.get(created.id);
    expect(fetched).not.toHaveProperty('signingSecret');
    const { signingSecret: _s, ...publicFields } = created;
    expect(fetched).toEqual(publicFields);
    const list = await endpoints.list();
    expect(list.object).toBe('list');
    expect(list.data.map((e) => e.id)).toEqual([created.id]);
    expect(list.data[0]).not.toHaveProperty('signingSecret');
  });

  it('allows empty enabledEvents and the signed-URL delivery settings', async () => {
    const created = await endpoints.create({
      url: 'http://127.0.0.1:9/x',
      deliveryFormat: 'signed_url',
      signedUrlThresholdBytes: 1024,
    });
    expect(created.enabledEvents).toEqual([]);
    expect(created.deliveryFormat).toBe('signed_url');
    expect(created.signedUrlThresholdBytes).toBe(1024);
  });

  it('rejects bad input with every offending path and stores nothing', async () => {
    const error = await rejection(
      endpoints.create({
        url: 'ftp://example.com',
        enabledEvents: ['workflow_run.completed', 'nope.happened', 'extract_run.failed'],
        apiVersion: '2025-04-21',
        deliveryFormat: 'xml' as 'json',
        extra: 1,
      } as never),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    const issues = error.details.issues ?? [];
    expect(issues.map((i) => [i.path, i.code]).sort()).toEqual(
      [
        ['apiVersion', 'UNSUPPORTED_API_VERSION'],
        ['deliveryFormat', 'INVALID_VALUE'],
        ['enabledEvents[0]', 'SUBSCRIPTION_ONLY_EVENT'],
        ['enabledEvents[1]', 'UNKNOWN_EVENT_TYPE'],
        ['extra', 'UNKNOWN_PROPERTY'],
        ['url', 'INVALID_URL'],
      ].sort(),
    );
    expect((await endpoints.list()).data).toEqual([]);
    const missing = await rejection(endpoints.create({} as never));
    expect(missing.details.issues?.[0]).toMatchObject({ path: 'url', code: 'REQUIRED' });
    const notUrl = await rejection(endpoints.create({ url: 'not a url' }));
    expect(notUrl.details.issues?.[0]).toMatchObject({ path: 'url', code: 'INVALID_URL' });
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', /169\.254\.169\.254 is a metadata address/],
    ['http://[fd00:ec2::254]/hooks', /fd00:ec2::254 is a metadata address/],
    ['http://[::ffff:169.254.169.254]/hooks', /is a metadata address/],
    ['http://169.254.10.1/hooks', /is a link-local address/],
    ['https://user:pass@hooks.example.com/in', /carries credentials/],
    ['ftp://hooks.example.com/in', /uses ftp/],
  ])('refuses %s with the field path, and stores nothing', async (url, reason) => {
    const error = await rejection(endpoints.create({ url }));
    expect(error.details.issues).toEqual([
      { code: 'INVALID_URL', path: 'url', message: expect.stringMatching(reason) },
    ]);
    const created = await endpoints.create({ url: 'https://hooks.example.com/in' });
    const update = await rejection(endpoints.update(created.id, { url }));
    expect(update.details.issues?.[0]).toMatchObject({ code: 'INVALID_URL', path: 'url' });
    expect((await endpoints.list()).data.map((e) => e.url)).toEqual([
      'https://hooks.example.com/in',
    ]);
  });

  it('updates only the fields sent and never the api version', async () => {
    const created = await endpoints.create({ url: 'https://a.example/h', name: 'A' });
    const updated = await endpoints.update(created.id, { enabledEvents: ['parse_run.processed'] });
    expect(updated).toMatchObject({
      name: 'A',
      url: 'https://a.example/h',
      enabledEvents: ['parse_run.processed'],
    });
    expect(await endpoints.get(created.id)).toEqual(updated);
    const error = await rejection(
      endpoints.update(created.id, { apiVersion: '2025-04-21' } as never),
    );
    expect(error.details.issues?.[0]).toMatchObject({
      path: 'apiVersion',
      code: 'IMMUTABLE_FIELD',
    });
    const bad = await rejection(endpoints.update(created.id, { url: 'mailto:x@y' }));
    expect(bad.code).toBe('VALIDATION_FAILED');
    expect((await endpoints.get(created.id)).url).toBe('https://a.example/h');
  });

  it('deletes an endpoint with its subscriptions', async () => {
    const a = await endpoints.create({ url: 'https://a.example/h' });
    const b = await endpoints.create({ url: 'https://b.example/h' });
    for (let i = 0; i < 3; i++) {
      await subscriptions.create({
        webhookEndpointId: a.id,
        resourceType: 'workflow',
        resourceId: `workflow_${i}`,
        enabledEvents: ['workflow_run.completed'],
      });
    }
    const keep = await subscriptions.create({
      webhookEndpointId: b.id,
      resourceType: 'workflow',
      resourceId: 'workflow_0',
      enabledEvents: ['workflow_run.failed'],
    });
    expect(await endpoints.delete(a.id)).toEqual({
      object: 'webhook_endpoint',
      id: a.id,
      deleted: true,
    });
    expect((await rejection(endpoints.get(a.id))).code).toBe('NOT_FOUND');
    expect((await subscriptions.list({ maxPageSize: 100 })).data.map((s) => s.id)).toEqual([
      keep.id,
    ]);
    expect((await rejection(endpoints.delete(a.id))).code).toBe('NOT_FOUND');
  });

  it('pages with maxPageSize and nextPageToken', async () => {
    for (let i = 0; i < 5; i++) await endpoints.create({ url: `https://e${i}.example/h` });
    const first = await endpoints.list({ maxPageSize: 2 });
    expect(first.data).toHaveLength(2);
    expect(first.nextPageToken).toBeDefined();
    const seen = new Set(first.data.map((e) => e.id));
    let token = first.nextPageToken;
    while (token !== undefined) {
      const page = await endpoints.list({ maxPageSize: 2, nextPageToken: token });
      for (const e of page.data) seen.add(e.id);
      token = page.nextPageToken;
    }
    expect(seen.size).toBe(5);
    expect((await endpoints.list()).data).toHaveLength(5);
    expect((await rejection(endpoints.list({ maxPageSize: 0 }))).code).toBe('VALIDATION_FAILED');
  });
});
