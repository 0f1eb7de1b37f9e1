import { memoryStorage } from '@docflow/storage';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Real HTTP on a possibly busy machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 30_000 });

import type { EngineEvent } from '../../src/events/event-types.ts';
import { createWebhookDeliveriesService } from '../../src/resources/webhook-deliveries.ts';
import {
  createWebhookEndpointsService,
  type WebhookEndpointCreateInput,
} from '../../src/resources/webhook-endpoints.ts';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { createLoopbackBlobServer } from '../../src/webhooks/loopback-blob-server.ts';
import { planEventDeliveries } from '../../src/webhooks/plan-deliveries.ts';
import { verifyWebhook } from '../../src/webhooks/sign.ts';
import { startReceiver, testContext } from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(
  settings: Partial<WebhookEndpointCreateInput>,
  withProvider = true,
  reply = () => ({ status: 200 }),
) {
  const storage = memoryStorage();
  await storage.open();
  cleanups.push(() => storage.close());
  const ctx = testContext(storage);
  const receiver = await startReceiver(reply);
  cleanups.push(() => receiver.close());
  const blobs = createLoopbackBlobServer({ storage, secret: 'blob-secret' });
  await blobs.listen();
  cleanups.push(() => blobs.close());
  const endpoint = await createWebhookEndpointsService(ctx).create({
    url: receiver.url,
    enabledEvents: ['parse_run.processed'],
    ...settings,
  });
  const dispatcher = createWebhookDispatcher({
    storage,
    urlPolicy: { allowLoopback: true },
    schedule: [10],
    jitter: 0,
    pollIntervalMs: 50,
    ...(withProvider ? { signedUrlProvider: blobs.signedUrlProvider } : {}),
  });
  cleanups.push(() => dispatcher.stop());
  const event: EngineEvent = {
    eventId: 'evt_big',
    eventType: 'parse_run.processed',
    payload: { id: 'pr_1', text: 'x'.repeat(2000) },
  };
  await storage.commit({ deliveries: await planEventDeliveries(ctx, event) });
  await dispatcher.drain({ timeoutMs: 20_000 });
  const deliveries = createWebhookDeliveriesService(ctx, { notify: dispatcher.notify });
  return { storage, receiver, blobs, endpoint, event, dispatcher, deliveries };
}

describe('signed-URL delivery', () => {
  it('sends { object: signed_data_url, id, data: url } for signed_url endpoints; the URL serves the payload', async () => {
    const t = await setup({ deliveryFormat: 'signed_url' });
    const [request] = t.receiver.requests;
    expect(request).toBeDefined();
    verifyWebhook(request?.body ?? '', request?.headers ?? {}, t.endpoint.signingSecret);
    const body = JSON.parse(request?.body ?? '{}') as EngineEvent & { payload: { data: string } };
    expect(body.eventId).toBe(t.event.eventId);
    expect(body.eventType).toBe(t.event.eventType);
    expect(body.payload).toEqual({
      object: 'signed_data_url',
      id: 'pr_1',
      data: expect.any(String),
    });
    const url = new URL(body.payload.data);
    expect(url.origin).toBe(t.blobs.origin);
    const expires = Number(url.searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(3_500_000);
    expect(expires * 1000 - Date.now()).toBeLessThanOrEqual(3_600_000);
    const download = await fetch(url);
    expect(download.status).toBe(200);
    expect(await download.json()).toEqual(t.event.payload);
  });

  it('switches to a signed URL above the byte threshold only', async () => {
    const above = await setup({ signedUrlThresholdBytes: 100 });
    const aboveBody = JSON.parse(above.receiver.requests[0]?.body ?? '{}') as EngineEvent;
    expect(typeof aboveBody.payload.data).toBe('string');
    const below = await setup({ signedUrlThresholdBytes: 100_000 });
    expect(JSON.parse(below.receiver.requests[0]?.body ?? '{}')).toEqual(below.event);
  });

  it('refuses altered and expired URLs', async () => {
    const t = await setup({ deliveryFormat: 'signed_url' });
    const body = JSON.parse(t.receiver.requests[0]?.body ?? '{}') as { payload: { data: string } };
    const url = new URL(body.payload.data);
    const forged = new URL(url);
    forged.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    expect((await fetch(forged)).status).toBe(403);
    const [delivery] = (await t.deliveries.list()).data;
    const expired = t.blobs.signUrl(delivery?.id ?? '', new Date(Date.now() - 1000));
    const expiredResponse = await fetch(expired);
    expect(expiredResponse.status).toBe(403);
    expect(await expiredResponse.json()).toMatchObject({ code: 'URL_EXPIRED' });
    expect(
      (await fetch(t.blobs.signUrl('whd_unknown', new Date(Date.now() + 60_000)))).status,
    ).toBe(404);
  });

  it('makes a new URL on each manual retry', async () => {
    const t = await setup({ deliveryFormat: 'signed_url' }, true, () => ({ status: 410 }));
    const [failed] = (await t.deliveries.list({ status: 'failed' })).data;
    expect(failed).toBeDefined();
    await t.deliveries.retry(failed?.id ?? '');
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const urls = t.receiver.requests.map(
      (r) => (JSON.parse(r.body) as { payload: { data: string } }).payload.data,
    );
    expect(urls).toHaveLength(2);
    expect(urls[0]).not.toBe(urls[1]);
  });

  it('fails clearly without a signed URL provider', async () => {
    const t = await setup({ deliveryFormat: 'signed_url' }, false);
    expect(t.receiver.requests).toHaveLength(0);
    const [d] = (await t.deliveries.list()).data;
    expect(d?.status).toBe('failed');
    expect(d?.attempts[0]?.error).toMatch(/signedUrlProvider/);
  });
});
