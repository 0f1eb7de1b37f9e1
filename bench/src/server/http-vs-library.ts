/**
 * @docflow/server against its peers, in interleaved rounds:
 * - `GET /workflow_runs/{id}` (key, version header, workspace, engine read, JSON) against a bare
 *   Fastify route answering the same bytes, both loaded by autocannon (32 connections) in short
 *   alternating slices (a shared machine's load moves less within a pair); beside requests per
 *   second, the CPU time the serving process spends per request, which the load does not skew;
 * - `POST /workflow_runs` of a two-step run (TRIGGER, PARSE) from 32 concurrent clients against
 *   the library's `workflowRuns.create` with 32 concurrent callers, on the same executors;
 * - the SDK's `createAndPoll` latency (p50/p99), which the SDK's one-second polling dominates.
 * The server, the bare route and the library run in one child process; the load comes from this
 * one.
 *
 *   cd bench && npx tsx src/server/http-vs-library.ts [GET rounds] [GET seconds per slice] [POST rounds] [runs per side]
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ExtendClient } from 'extend-ai';
import { machineLine } from '../harness.ts';

const GET_ROUNDS = Number(process.argv[2] ?? 9);
const SECONDS = Number(process.argv[3] ?? 2);
const POST_ROUNDS = Number(process.argv[4] ?? 5);
/** Runs each side creates per round (and waits for). */
const RUNS = Number(process.argv[5] ?? 1500);
const CONNECTIONS = 32;

interface Ready {
  origin: string;
  bareOrigin: string;
  key: string;
  runId: string;
  waitingId: string;
  workflowId: string;
  fileId: string;
  bytes: number;
}

const child = fork(fileURLToPath(new URL('./_server-child.ts', import.meta.url)), [], {
  execArgv: ['--import', 'tsx'],
});
const messages: { type: string; [k: string]: unknown }[] = [];
const waiting: ((m: { type: string; [k: string]: unknown }) => void)[] = [];
child.on('message', (m: { type: string }) => {
  const w = waiting.shift();
  if (w) w(m);
  else messages.push(m);
});
const next = <T>() =>
  new Promise<T>((resolve) => {
    const m = messages.shift();
    if (m) resolve(m as T);
    else waiting.push(resolve as never);
  });
async function ask<T>(message: object): Promise<T> {
  child.send(message);
  return next<T>();
}

const ready = await next<Ready>();
const headers = { authorization: `Bearer ${ready.key}`, 'x-extend-api-version': '2026-02-09' };

async function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  return result;
}
/** Requests per second, and the serving process's CPU microseconds per request. */
interface Load {
  rate: number;
  cpu: number;
}
const cpuNow = () => ask<{ micros: number }>({ type: 'cpu' }).then((m) => m.micros);
const load = async (options: autocannon.Options): Promise<Load> => {
  const before = await cpuNow();
  const result = await cannon(options);
  const cpu = (await cpuNow()) - before;
  return { rate: result.requests.average, cpu: cpu / result.requests.total };
};

interface Rates {
  createsPerSecond: number;
  runsPerSecond: number;
}

const getServer = (id: string) => load({ url: `${ready.origin}/workflow_runs/${id}`, headers });
const getBare = (id: string) => load({ url: `${ready.bareOrigin}/workflow_runs/${id}` });
/** RUNS runs created over HTTP by 32 clients, then finished: creates/s and runs/s as the library's. */
const postServer = async (): Promise<Rates> => {
  const t0 = performance.now();
  await cannon({
    url: `${ready.origin}/workflow_runs`,
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ workflow: { id: ready.workflowId }, file: { id: ready.fileId } }),
    amount: RUNS,
    // autocannon ends a run of `amount` requests at its next sample tick (1 s by default), which
    // rounded every POST round up to whole seconds: sample often so the round ends with its runs.
    sampleInt: 10,
  });
  const created = performance.now() - t0;
  await ask({ type: 'idle' });
  return {
    createsPerSecond: (RUNS * 1000) / created,
    runsPerSecond: (RUNS * 1000) / (performance.now() - t0),
  };
};
const postLibrary = () => ask<Rates>({ type: 'library', concurrency: CONNECTIONS, count: RUNS });

console.log(`${machineLine()}, load average ${loadavg()[0]?.toFixed(1)}`);
console.log(
  `${GET_ROUNDS} interleaved GET rounds of ${SECONDS} s slices, ${POST_ROUNDS} POST rounds of ${RUNS} runs per side; ${CONNECTIONS} connections; run JSON ${ready.bytes} bytes\n`,
);

// Warm-up: JIT, SQLite pages, connection pools.
await getServer(ready.runId);
await getBare(ready.runId);
await getServer(ready.waitingId);
await postServer();
await postLibrary();

const gets: { get: Load; bare: Load; active: Load; activeBare: Load }[] = [];
for (let round = 0; round < GET_ROUNDS; round++) {
  // Each pair is measured back to back, the side measured first alternating between rounds.
  const pair = async (server: () => Promise<Load>, peer: () => Promise<Load>) => {
    if (round % 2 === 0) {
      const s = await server();
      return [s, await peer()] as const;
    }
    const p = await peer();
    return [await server(), p] as const;
  };
  const [get, bare] = await pair(
    () => getServer(ready.runId),
    () => getBare(ready.runId),
  );
  const [active, activeBare] = await pair(
    () => getServer(ready.waitingId),
    () => getBare(ready.waitingId),
  );
  gets.push({ get, bare, active, activeBare });
}
const posts: { post: Rates; lib: Rates }[] = [];
for (let round = 0; round < POST_ROUNDS; round++) {
  const flip = round % 2 === 1;
  const post = flip ? undefined : await postServer();
  const lib = await postLibrary();
  posts.push({ post: post ?? (await postServer()), lib });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const f0 = (n: number) => n.toFixed(0);
const f2 = (n: number) => n.toFixed(2);
console.log(
  "GET /workflow_runs/{id} against a bare Fastify route answering the same bytes: req/s, and the serving process's CPU µs per request:\n",
);
console.log(
  '| round | finished run | bare | ratio (≥ 0.6) | run waiting for review | bare | ratio (≥ 0.6) | CPU µs: finished, waiting, bare |',
);
console.log('|---|---|---|---|---|---|---|---|');
gets.forEach((r, i) => {
  console.log(
    `| ${i + 1} | ${f0(r.get.rate)} | ${f0(r.bare.rate)} | ${f2(r.get.rate / r.bare.rate)} | ${f0(r.active.rate)} | ${f0(r.activeBare.rate)} | ${f2(r.active.rate / r.activeBare.rate)} | ${f0(r.get.cpu)}, ${f0(r.active.cpu)}, ${f0(r.bare.cpu)} |`,
  );
});
const cpuBare = median(gets.flatMap((r) => [r.bare.cpu, r.activeBare.cpu]));
console.log(
  `| median | | | ${f2(median(gets.map((r) => r.get.rate / r.bare.rate)))} | | | ${f2(median(gets.map((r) => r.active.rate / r.activeBare.rate)))} | ${f0(median(gets.map((r) => r.get.cpu)))}, ${f0(median(gets.map((r) => r.active.cpu)))}, ${f0(cpuBare)} |\n`,
);
console.log(
  `CPU per request, bare / server (the req/s ratio of a server that is the bottleneck): finished ${f2(cpuBare / median(gets.map((r) => r.get.cpu)))}, waiting ${f2(cpuBare / median(gets.map((r) => r.active.cpu)))}\n`,
);
console.log(
  "POST /workflow_runs (two-step runs, 32 clients) against the library's workflowRuns.create (32 callers):\n",
);
console.log(
  '| round | HTTP runs/s | library runs/s | ratio (≥ 0.5) | HTTP creates/s | library creates/s | ratio |',
);
console.log('|---|---|---|---|---|---|---|');
posts.forEach((r, i) => {
  console.log(
    `| ${i + 1} | ${f0(r.post.runsPerSecond)} | ${f0(r.lib.runsPerSecond)} | ${f2(r.post.runsPerSecond / r.lib.runsPerSecond)} | ${f0(r.post.createsPerSecond)} | ${f0(r.lib.createsPerSecond)} | ${f2(r.post.createsPerSecond / r.lib.createsPerSecond)} |`,
  );
});
console.log(
  `| median | | | ${f2(median(posts.map((r) => r.post.runsPerSecond / r.lib.runsPerSecond)))} | | | ${f2(median(posts.map((r) => r.post.createsPerSecond / r.lib.createsPerSecond)))} |\n`,
);

// The SDK's createAndPoll: create, then retrieve until settled (its own 1 s polling).
const client = new ExtendClient({ token: ready.key, baseUrl: ready.origin });
const latencies: number[] = [];
await Promise.all(
  Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const run = await client.workflowRuns.createAndPoll({
        workflow: { id: ready.workflowId },
        file: { id: ready.fileId },
      });
      if (run.status !== 'PROCESSED') throw new Error(`run ${run.id} ${run.status}`);
      latencies.push(performance.now() - t0);
    }
  }),
);
latencies.sort((a, b) => a - b);
const pct = (p: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] as number;
console.log(
  `SDK createAndPoll, ${latencies.length} runs from 8 clients: p50 ${pct(0.5).toFixed(0)} ms, p99 ${pct(0.99).toFixed(0)} ms`,
);

// The child answers 'stop' by closing its servers and exiting, not with a message: waiting for a
// reply left the top-level await unsettled once the child was gone (exit code 13).
const exited = once(child, 'exit');
child.send({ type: 'stop' });
await exited;
