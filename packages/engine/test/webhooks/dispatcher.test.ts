import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStorage, type StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Real HTTP on a possibly busy machine: allow more than the default 5 s per test.
vi.setConfig({ testTimeout: 30_000 });

import type { EngineEvent } from '../../src/events/event-types.ts';
import { createWebhookDeliveriesService } from '../../src/resources/webhook-deliveries.ts';
import { createWebhookEndpointsService } from '../../src/resources/webhook-endpoints.ts';
import {
  createWebhookDispatcher,
  type WebhookDispatcherOptions,
} from '../../src/webhooks/dispatcher.ts';
import { planEventDeliveries } from '../../src/webhooks/plan-deliveries.ts';
import { MANUAL_RETRY_MARKER } from '../../src/webhooks/retry-policy.ts';
import { verifyWebhook } from '../../src/webhooks/sign.ts';
import {
  type ReceivedRequest,
  type Receiver,
  type Reply,
  startReceiver,
  testContext,
} from './helpers.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const adapters: [string, () => StorageAdapter][] = [
  ['memory', () => memoryStorage()],
  [
    'sqlite',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'docflow-webhooks-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return sqliteStorage({ path: join(dir, 'db.sqlite') });
    },
  ],
];

async function setup(
  makeStorage: () => StorageAdapter,
  reply: (request: ReceivedRequest) => Reply,
  options: Partial<WebhookDispatcherOptions> = {},
) {
  const storage = makeStorage();
  await storage.open();
  cleanups.push(() => storage.close());
  const ctx = testContext(storage);
  const receiver = await startReceiver(reply);
  cleanups.push(() => receiver.close());
  const endpoints = createWebhookEndpointsService(ctx);
  const endpoint = await endpoints.create({
    url: receiver.url,
    enabledEvents: ['workflow.created', 'extract_run.processed'],
  });
  const dispatcher = createWebhookDispatcher({
    storage,
    // The receiver listens on loopback, which the workflow URL policy refuses unless told.
    urlPolicy: { allowLoopback: true },
    schedule: [10, 20, 40],
    jitter: 0,
    timeoutMs: 2000,
    pollIntervalMs: 50,
    ...options,
  });
  cleanups.push(() => dispatcher.stop());
  const deliveries = createWebhookDeliveriesService(ctx, { notify: dispatcher.notify });
  let n = 0;
  async function emit(eventType = 'workflow.created'): Promise<EngineEvent> {
    n++;
    const event = { eventId: `evt_test_${n}`, eventType, payload: { id: `workflow_${n}`, n } };
    await storage.commit({ deliveries: await planEventDeliveries(ctx, event) });
    dispatcher.notify();
    return event;
  }
  return { storage, ctx, receiver, endpoint, endpoints, dispatcher, deliveries, emit };
}

function byEvent(receiver: Receiver): Map<string, ReceivedRequest[]> {
  const out = new Map<string, ReceivedRequest[]>();
  for (const r of receiver.requests) {
    const id = (JSON.parse(r.body) as EngineEvent).eventId;
    out.set(id, [...(out.get(id) ?? []), r]);
  }
  return out;
}

async function waitUntil(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(adapters)('webhook dispatcher on %s storage', (_name, makeStorage) => {
  it('delivers each event once, signed, with the api version', async () => {
    const t = await setup(makeStorage, () => ({ status: 200 }));
    t.dispatcher.start();
    const events = [await t.emit(), await t.emit(), await t.emit('extract_run.processed')];
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const got = byEvent(t.receiver);
    expect([...got.keys()].sort()).toEqual(events.map((e) => e.eventId).sort());
    for (const request of t.receiver.requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(verifyWebhook(request.body, request.headers, t.endpoint.signingSecret)).toMatchObject({
        apiVersion: '2026-02-09',
      });
      const event = JSON.parse(request.body) as EngineEvent;
      expect(event).toEqual(events.find((e) => e.eventId === event.eventId));
    }
    const list = await t.deliveries.list({ status: 'succeeded', maxPageSize: 100 });
    expect(list.data).toHaveLength(3);
    for (const d of list.data) {
      expect(d.attempts).toHaveLength(1);
      expect(d.attempts[0]).toMatchObject({ status: 200 });
      expect(d.webhookEndpointId).toBe(t.endpoint.id);
    }
  });

  it('names its headers with the header word it is given', async () => {
    const t = await setup(makeStorage, () => ({ status: 200 }), { headerWord: 'extend' });
    t.dispatcher.start();
    await t.emit();
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const [request] = t.receiver.requests;
    expect(request?.headers['x-extend-api-version']).toBe('2026-02-09');
    expect(request?.headers['x-service-request-signature']).toBeUndefined();
    const options = { headerWord: 'extend' };
    expect(
      verifyWebhook(request?.body ?? '', request?.headers ?? {}, t.endpoint.signingSecret, options),
    ).toMatchObject({ apiVersion: '2026-02-09' });
    expect(() =>
      verifyWebhook(request?.body ?? '', request?.headers ?? {}, t.endpoint.signingSecret),
    ).toThrow(/x-service-request-timestamp/);
  });

  it('retries 5xx until the receiver succeeds, recording every attempt', async () => {
    const failures = new Map<string, number>();
    const t = await setup(makeStorage, (r) => {
      const id = (JSON.parse(r.body) as EngineEvent).eventId;
      const seen = (failures.get(id) ?? 0) + 1;
      failures.set(id, seen);
      return seen <= 2 ? { status: seen === 1 ? 500 : 502 } : { status: 204 };
    });
    const events = [await t.emit(), await t.emit()];
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const got = byEvent(t.receiver);
    for (const e of events) expect(got.get(e.eventId)).toHaveLength(3);
    const [delivery] = (await t.deliveries.list({ eventId: events[0]?.eventId })).data;
    expect(delivery?.status).toBe('succeeded');
    expect(delivery?.attempts.map((a) => [a.status, a.error])).toEqual([
      [500, 'HTTP 500'],
      [502, 'HTTP 502'],
      [204, undefined],
    ]);
    for (const a of delivery?.attempts ?? []) expect(a.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('gives up after the schedule, leaving the delivery failed, and retry() sends it again', async () => {
    let healthy = false;
    const t = await setup(makeStorage, () => (healthy ? { status: 200 } : { status: 503 }), {
      schedule: [10, 20],
    });
    const event = await t.emit();
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(t.receiver.requests).toHaveLength(3);
    const [failed] = (await t.deliveries.list({ status: 'failed' })).data;
    expect(failed?.eventId).toBe(event.eventId);
    expect(failed?.attempts.map((a) => a.status)).toEqual([503, 503, 503]);
    await expect(t.deliveries.retry('whd_missing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    healthy = true;
    t.dispatcher.start();
    const requeued = await t.deliveries.retry(failed?.id ?? '');
    expect(requeued.status).toBe('pending');
    await expect(t.deliveries.retry(requeued.id)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(t.receiver.requests).toHaveLength(4);
    const done = await t.deliveries.get(requeued.id);
    expect(done.status).toBe('succeeded');
    expect(done.attempts.map((a) => a.status ?? a.error)).toEqual([
      503,
      503,
      503,
      MANUAL_RETRY_MARKER,
      200,
    ]);
  });

  it('times out a hanging receiver and retries', async () => {
    const t = await setup(makeStorage, (r) => (r.n === 1 ? 'hang' : { status: 200 }), {
      timeoutMs: 1000,
      leaseMs: 5000,
    });
    const event = await t.emit();
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(byEvent(t.receiver).get(event.eventId)).toHaveLength(2);
    const [d] = (await t.deliveries.list()).data;
    expect(d?.attempts[0]?.error).toBe('timeout after 1000 ms');
    expect(d?.attempts[0]?.status).toBeUndefined();
    expect(d?.status).toBe('succeeded');
  });

  it('retries when the receiver closes the socket', async () => {
    const t = await setup(makeStorage, (r) => (r.n <= 2 ? 'destroy' : { status: 200 }));
    const event = await t.emit();
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(byEvent(t.receiver).get(event.eventId)).toHaveLength(3);
    const [d] = (await t.deliveries.list()).data;
    expect(d?.attempts[0]?.error).toMatch(/^connection error/);
    expect(d?.status).toBe('succeeded');
  });

  it('honours Retry-After on 429', async () => {
    const t = await setup(makeStorage, (r) =>
      r.n === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 },
    );
    await t.emit();
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const [first, second] = t.receiver.requests;
    expect(t.receiver.requests).toHaveLength(2);
    // The schedule says 10 ms; the receiver asked for 1 s.
    expect((second?.receivedAtMs ?? 0) - (first?.receivedAtMs ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it('fails permanently on other 4xx, retries 408', async () => {
    const t = await setup(makeStorage, (r) => {
      const event = JSON.parse(r.body) as EngineEvent;
      if (event.eventType === 'workflow.created') return { status: 400 };
      return r.n <= 2 ? { status: 408 } : { status: 200 };
    });
    const bad = await t.emit('workflow.created');
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const timeout = await t.emit('extract_run.processed');
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    const got = byEvent(t.receiver);
    expect(got.get(bad.eventId)).toHaveLength(1);
    expect(got.get(timeout.eventId)).toHaveLength(2);
    expect((await t.deliveries.list({ eventId: bad.eventId })).data[0]?.status).toBe('failed');
    expect((await t.deliveries.list({ eventId: timeout.eventId })).data[0]?.status).toBe(
      'succeeded',
    );
  });

  it('wakes on notify without waiting for the poll', async () => {
    const t = await setup(makeStorage, () => ({ status: 200 }), { pollIntervalMs: 60_000 });
    t.dispatcher.start();
    // Let the loop reach its (long) idle wait first.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.emit();
    await waitUntil(() => t.receiver.requests.length === 1);
    expect(t.receiver.requests).toHaveLength(1);
  });

  it('wakes for every scheduled retry without waiting for the poll', async () => {
    const seen = new Map<string, number>();
    const t = await setup(
      makeStorage,
      (r) => {
        const id = (JSON.parse(r.body) as EngineEvent).eventId;
        seen.set(id, (seen.get(id) ?? 0) + 1);
        return (seen.get(id) ?? 0) <= 2 ? { status: 500 } : { status: 200 };
      },
      { pollIntervalMs: 60_000, schedule: [10, 200] },
    );
    t.dispatcher.start();
    const events = [await t.emit(), await t.emit(), await t.emit()];
    // With a one-minute poll, only the retry wake-ups can finish this within the test timeout.
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    for (const e of events) expect(seen.get(e.eventId)).toBe(3);
  });

  it('claims a retry that fell due while the claim before it ran', async () => {
    // Claims take 40 ms here: a retry due 10 ms after its failure falls due during the claim
    // that follows the failure, which did not serve it. With a one-minute poll, only claiming
    // again at once delivers it within the test timeout.
    const t = await setup(
      () => {
        const storage = makeStorage();
        const claim = storage.claimDeliveries.bind(storage);
        storage.claimDeliveries = async (options) => {
          const records = await claim(options);
          await new Promise((resolve) => setTimeout(resolve, 40));
          return records;
        };
        return storage;
      },
      (r) => (r.n === 1 ? { status: 500 } : { status: 200 }),
      { pollIntervalMs: 60_000, schedule: [10] },
    );
    t.dispatcher.start();
    const event = await t.emit();
    await t.dispatcher.drain({ timeoutMs: 5000 });
    expect(byEvent(t.receiver).get(event.eventId)).toHaveLength(2);
  });

  it('fails deliveries whose endpoint was deleted', async () => {
    const t = await setup(makeStorage, () => ({ status: 200 }));
    const event = await t.emit();
    await t.endpoints.delete(t.endpoint.id);
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(t.receiver.requests).toHaveLength(0);
    const [d] = (await t.deliveries.list({ eventId: event.eventId })).data;
    expect(d?.status).toBe('failed');
    expect(d?.attempts[0]?.error).toBe('endpoint deleted');
  });

  it('gives in-flight deliveries back on stop and sends them later', async () => {
    let hang = true;
    const t = await setup(makeStorage, () => (hang ? 'hang' : { status: 200 }), {
      timeoutMs: 5000,
    });
    t.dispatcher.start();
    const event = await t.emit();
    await waitUntil(() => t.receiver.requests.length === 1);
    await t.dispatcher.stop();
    const [d] = (await t.deliveries.list()).data;
    expect(d?.status).toBe('pending');
    expect(d?.attempts).toEqual([]);
    hang = false;
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(byEvent(t.receiver).get(event.eventId)).toHaveLength(2);
    expect((await t.deliveries.get(d?.id ?? '')).status).toBe('succeeded');
  });
});

describe('webhook dispatcher under the URL policy', () => {
  it('refuses a loopback endpoint unless allowed: the delivery fails at once with the reason, nothing is sent', async () => {
    const t = await setup(
      () => memoryStorage(),
      () => ({ status: 200 }),
      { urlPolicy: {} },
    );
    const event = await t.emit();
    await t.dispatcher.drain({ timeoutMs: 20_000 });
    expect(t.receiver.requests).toHaveLength(0);
    const [delivery] = (await t.deliveries.list({ eventId: event.eventId })).data;
    expect(delivery?.status).toBe('failed');
    expect(delivery?.attempts).toEqual([
      expect.objectContaining({
        error: expect.stringMatching(
          /refused by the workflow URL policy: 127\.0\.0\.1 is a loopback address \(allow with urlPolicy\.allowLoopback\)/,
        ),
      }),
    ]);
  });

  it('reads at most 64 KiB of a receiver answering 200 MB, and drops the connection', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    let closed: Promise<boolean> | undefined;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        closed = new Promise((resolve) => res.on('close', () => resolve(res.writableFinished)));
        res.writeHead(200);
        const more = (): void => {
          while (sent < 200 * 1024 * 1024) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', more);
              return;
            }
          }
          res.end();
        };
        more();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    );
    const storage = memoryStorage();
    await storage.open();
    const ctx = testContext(storage);
    await createWebhookEndpointsService(ctx).create({
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
      enabledEvents: ['workflow.created'],
    });
    const dispatcher = createWebhookDispatcher({
      storage,
      urlPolicy: { allowLoopback: true },
      pollIntervalMs: 50,
    });
    cleanups.push(() => dispatcher.stop());
    const event = { eventId: 'evt_big_answer', eventType: 'workflow.created', payload: {} };
    await storage.commit({ deliveries: await planEventDeliveries(ctx, event) });
    await dispatcher.drain({ timeoutMs: 20_000 });
    const [delivery] = (
      await createWebhookDeliveriesService(ctx, { notify: () => {} }).list({
        eventId: event.eventId,
      })
    ).data;
    expect(delivery?.status).toBe('succeeded');
    expect(await closed).toBe(false);
    // Far less than the 200 MB the receiver meant to send got written before the drop.
    expect(sent).toBeLessThan(50 * 1024 * 1024);
  });
});
