import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StorageAdapter } from '@docflow/storage';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/events/event-types.ts';
import { createWebhookEndpointsService } from '../../src/resources/webhook-endpoints.ts';
import { createWebhookDispatcher } from '../../src/webhooks/dispatcher.ts';
import { verifyWebhook } from '../../src/webhooks/sign.ts';
import { startReceiver, testContext } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const child = fileURLToPath(new URL('./fixtures/crash-child.ts', import.meta.url));

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function allEventIds(storage: StorageAdapter): Promise<Set<string>> {
  const ids = new Set<string>();
  let pageToken: string | undefined;
  do {
    const page = await storage.listDeliveries({
      pageSize: 1000,
      ...(pageToken === undefined ? {} : { pageToken }),
    });
    for (const d of page.items) ids.add(d.eventId);
    pageToken = page.nextPageToken;
  } while (pageToken !== undefined);
  return ids;
}

describe('webhook outbox across SIGKILL', () => {
  it('delivers every committed delivery at least once after a kill during delivery', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docflow-crash-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const path = join(dir, 'db.sqlite');
    const received: string[] = [];
    const receiver = await startReceiver((r) => {
      received.push((JSON.parse(r.body) as EngineEvent).eventId);
      return { status: 200, delayMs: 30 };
    });
    cleanups.push(() => receiver.close());

    const setupStorage = sqliteStorage({ path });
    await setupStorage.open();
    const endpoint = await createWebhookEndpointsService(testContext(setupStorage)).create({
      url: receiver.url,
      enabledEvents: ['workflow.created'],
    });
    await setupStorage.close();

    const proc = spawn(process.execPath, ['--import', 'tsx', child, path, '200'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    cleanups.push(() => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    });
    const reported = new Set<string>();
    let stderr = '';
    proc.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let buffered = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      proc.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill once the child has committed a good number and is mid-delivery.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`child too slow: ${stderr}`)), 30_000);
      proc.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) {
          if (line.startsWith('committed ')) reported.add(line.slice('committed '.length));
        }
        if (reported.size >= 100 && received.length >= 20) {
          clearTimeout(timer);
          proc.kill('SIGKILL');
          resolve();
        }
      });
      proc.on('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    expect(await exited).toBe('SIGKILL');
    const receivedBeforeRestart = new Set(received);

    const storage = sqliteStorage({ path });
    await storage.open();
    cleanups.push(() => storage.close());
    const committed = await allEventIds(storage);
    for (const id of reported) expect(committed.has(id)).toBe(true);
    // The kill came in the middle: some deliveries were still outstanding, some held by the
    // dead child's lease (claimed, request in flight, outcome never recorded).
    expect(receivedBeforeRestart.size).toBeLessThan(committed.size);
    const leased = await storage.listDeliveries({ status: 'pending', pageSize: 1000 });
    expect(leased.items.some((d) => d.leaseOwner === 'child')).toBe(true);

    const requestsBefore = receiver.requests.length;
    const dispatcher = createWebhookDispatcher({
      storage,
      owner: 'restarted',
      urlPolicy: { allowLoopback: true },
      concurrency: 8,
      schedule: [10, 20, 40, 80, 160],
      jitter: 0,
      pollIntervalMs: 100,
    });
    cleanups.push(() => dispatcher.stop());
    await dispatcher.drain({ timeoutMs: 30_000 });
    expect(new Set(received)).toEqual(committed);
    const pending = await storage.listDeliveries({ status: 'pending' });
    expect(pending.items).toEqual([]);
    for (const r of receiver.requests.slice(requestsBefore)) {
      verifyWebhook(r.body, r.headers, endpoint.signingSecret);
    }
  }, 60_000);
});
