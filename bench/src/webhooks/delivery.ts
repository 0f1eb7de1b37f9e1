/**
 * Sustained webhook delivery through the outbox on SQLite, beside a bare fetch loop posting the
 * same bodies to the same loopback receiver with the same concurrency (the floor).
 *
 * Run: cd bench && npx tsx src/webhooks/delivery.ts [events] [concurrency]
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { sqliteStorage } from '@docflow/storage/sqlite';
import { systemClock } from '../../../packages/engine/src/clock.ts';
import { createWebhookEndpointsService } from '../../../packages/engine/src/resources/webhook-endpoints.ts';
import {
  createWebhookDispatcher,
  type EngineEvent,
  planEventDeliveries,
} from '../../../packages/engine/src/webhooks/index.ts';
import { type Measurement, machineLine, report, scratchDir } from '../harness.ts';

const EVENTS = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = Number(process.argv[3] ?? 10);
/** Events per commit: saturated runs commit in bulk, paced runs like a busy engine would. */
const BULK_BATCH = 100;
const PACED_BATCH = 5;

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function makeEvents(prefix: string, count: number): EngineEvent[] {
  return Array.from({ length: count }, (_, i) => ({
    eventId: `evt_${prefix}_${i}`,
    eventType: 'workflow_run.completed',
    payload: {
      object: 'workflow_run',
      id: `workflow_run_${i}`,
      status: 'PROCESSED',
      workflow: { id: 'workflow_bench', version: '1' },
      metadata: { customer: 'acme', index: i },
      outputs: [{ total: { amount: 1234.5, iso_4217: 'EUR' }, invoice_number: `INV-${i}` }],
    },
  }));
}

/** A loopback receiver recording when each eventId first arrived. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let waiter: { count: number; resolve: () => void } | undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const { eventId } = JSON.parse(Buffer.concat(chunks).toString()) as EngineEvent;
      if (!arrivals.has(eventId)) arrivals.set(eventId, now);
      res.writeHead(200, { 'content-length': '2' });
      res.end('ok');
      if (waiter !== undefined && arrivals.size >= waiter.count) waiter.resolve();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    arrivals,
    waitFor(count: number) {
      return new Promise<void>((resolve) => {
        if (arrivals.size >= count) resolve();
        else waiter = { count, resolve };
      });
    },
    reset() {
      arrivals.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Run extends Measurement {
  readonly elapsedMs: number;
  readonly cpuUsPerOp: number;
  readonly latencies: readonly number[];
}

function measurement(
  name: string,
  count: number,
  elapsedMs: number,
  latencies: readonly number[],
  cpu: NodeJS.CpuUsage,
): Run {
  return {
    name,
    opsPerSecond: (count * 1000) / elapsedMs,
    medianMs: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    samples: count,
    elapsedMs,
    cpuUsPerOp: (cpu.user + cpu.system) / count,
    latencies,
  };
}

function combine(name: string, runs: readonly Run[]): Run {
  const count = runs.reduce((n, r) => n + r.samples, 0);
  const elapsedMs = runs.reduce((n, r) => n + r.elapsedMs, 0);
  const cpu = runs.reduce((n, r) => n + r.cpuUsPerOp * r.samples, 0);
  const latencies = runs.flatMap((r) => r.latencies);
  return measurement(name, count, elapsedMs, latencies, { user: cpu, system: 0 });
}

async function floor(
  url: string,
  events: EngineEvent[],
  receiver: Awaited<ReturnType<typeof startReceiver>>,
) {
  receiver.reset();
  const sentAt = new Map<string, number>();
  let next = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  async function worker() {
    for (;;) {
      const event = events[next++];
      if (event === undefined) return;
      const body = JSON.stringify(event);
      sentAt.set(event.eventId, performance.now());
      const res = await fetch(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      await res.arrayBuffer();
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  const latencies = events.map(
    (e) => (receiver.arrivals.get(e.eventId) ?? Number.NaN) - (sentAt.get(e.eventId) ?? 0),
  );
  return measurement(
    `bare fetch loop (${CONCURRENCY} concurrent)`,
    events.length,
    elapsed,
    latencies,
    cpu,
  );
}

async function outbox(
  url: string,
  events: EngineEvent[],
  receiver: Awaited<ReturnType<typeof startReceiver>>,
  ratePerSecond?: number,
) {
  receiver.reset();
  const dir = scratchDir('docflow-bench-webhooks-');
  const storage = sqliteStorage({ path: join(dir, 'bench.sqlite') });
  await storage.open();
  const ctx = {
    storage,
    clock: systemClock,
    newId: (prefix: string) => `${prefix}${randomBytes(10).toString('hex')}`,
    nowIso: () => new Date().toISOString(),
  };
  await createWebhookEndpointsService(ctx).create({ url, enabledEvents: ['workflow.created'] });
  // workflow_run.* go through a subscription; a global event type keeps the bench to one table.
  const routed = events.map((e) => ({ ...e, eventType: 'workflow.created' }));
  // The receiver listens on loopback, which the URL policy refuses unless told.
  const dispatcher = createWebhookDispatcher({
    storage,
    concurrency: CONCURRENCY,
    urlPolicy: { allowLoopback: true },
  });
  dispatcher.start();
  const committedAt = new Map<string, number>();
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const step = ratePerSecond === undefined ? BULK_BATCH : PACED_BATCH;
  for (let i = 0; i < routed.length; i += step) {
    const batch = routed.slice(i, i + step);
    if (ratePerSecond !== undefined) {
      const due = start + (i * 1000) / ratePerSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const deliveries = (await Promise.all(batch.map((e) => planEventDeliveries(ctx, e)))).flat();
    await storage.commit({ deliveries });
    const now = performance.now();
    for (const e of batch) committedAt.set(e.eventId, now);
    dispatcher.notify();
  }
  await receiver.waitFor(routed.length);
  const elapsed = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  await dispatcher.stop();
  await storage.close();
  const latencies = routed.map(
    (e) => (receiver.arrivals.get(e.eventId) ?? Number.NaN) - (committedAt.get(e.eventId) ?? 0),
  );
  const label =
    ratePerSecond === undefined
      ? `outbox on SQLite, saturated (${CONCURRENCY} concurrent)`
      : `outbox on SQLite at ${Math.round(ratePerSecond)}/s (${CONCURRENCY} concurrent)`;
  return measurement(label, routed.length, elapsed, latencies, cpu);
}

const receiver = await startReceiver();
console.log(machineLine());
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
// Warm up both paths: undici's fetch needs thousands of requests to reach its steady speed.
await floor(receiver.url, makeEvents('warm', 5000), receiver);
await outbox(receiver.url, makeEvents('warmo', 2000), receiver);

// Interleaved rounds (the machine may be shared): each round runs the floor and the outbox on
// ROUND events, alternating which goes first; totals are over all rounds (10,000 events each).
const ROUNDS = 5;
const perRound = Math.ceil(EVENTS / ROUNDS);
const floors: Run[] = [];
const outboxes: Run[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const runFloor = () => floor(receiver.url, makeEvents(`floor${r}`, perRound), receiver);
  const runOutbox = () => outbox(receiver.url, makeEvents(`sat${r}`, perRound), receiver);
  if (r % 2 === 0) {
    floors.push(await runFloor());
    outboxes.push(await runOutbox());
  } else {
    outboxes.push(await runOutbox());
    floors.push(await runFloor());
  }
  console.log(
    `round ${r + 1}: floor ${floors[r]?.opsPerSecond.toFixed(0)}/s (${floors[r]?.cpuUsPerOp.toFixed(0)} µs CPU each), outbox ${outboxes[r]?.opsPerSecond.toFixed(0)}/s (${outboxes[r]?.cpuUsPerOp.toFixed(0)} µs CPU each)`,
  );
}
const bare = combine(`bare fetch loop (${CONCURRENCY} concurrent)`, floors);
const saturated = combine(`outbox on SQLite, saturated (${CONCURRENCY} concurrent)`, outboxes);
const paced = await outbox(
  receiver.url,
  makeEvents('paced', EVENTS),
  receiver,
  saturated.opsPerSecond / 2,
);
report(`Webhook delivery, ${EVENTS} events, commit → receipt latency`, [
  { subject: saturated, peer: bare, target: '≥ 0.5' },
  { subject: paced, peer: bare },
]);
console.log(
  `CPU per delivery: outbox ${saturated.cpuUsPerOp.toFixed(0)} µs, floor ${bare.cpuUsPerOp.toFixed(0)} µs (receiver included in both)`,
);
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await receiver.close();
