/**
 * Issue 20: the 5-step linear no-op workflow on PostgreSQL, 16 clients in a closed loop, docflow
 * (the engine on `postgresStorage`, one process) beside DBOS Transact 5.3 running the same 5-step
 * workflow (`DBOS.registerWorkflow`, five `DBOS.runStep` of a no-op) on the same server, and the
 * raw floor: single-row INSERT commits per second from 16 connections (a Node loop, and pgbench
 * when it is installed). One throwaway server, started by this script with the installed
 * defaults (`fsync` and `synchronous_commit` on, so every commit waits for its WAL flush).
 *
 * Each subject runs in a fresh child process (its own heap, JIT and pools), in ROUNDS
 * interleaved rounds: DBOS, every docflow configuration, DBOS, …, DBOS; a docflow
 * measurement's ratio is taken against the mean of the DBOS measurements before and after it.
 * Each measurement gets a schema (docflow) or database (DBOS) of its own. Besides steps per
 * second, each reports the CPU its process and the server used per step (client and server
 * share the machine's cores, so on a loaded machine their sum is the steadier figure), and
 * docflow how many commits a transaction carried.
 *
 *   cd bench && npx tsx src/postgres/vs-dbos.ts
 *   cd bench && RUNS=4000 ROUNDS=5 npx tsx src/postgres/vs-dbos.ts
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { postgresStorage } from '@docflow/storage/postgres';
import { findPostgresBinaries, startTemporaryPostgres } from '@docflow/storage/testing/postgres';
import pg from 'pg';
import { CONCURRENCY, runClients, startLinearEngine } from '../engine/linear-noop.ts';
import { machineLine, median, scratchDir } from '../harness.ts';
import { buildCompiled, runCompiled } from './compiled-child.ts';
import { serverCpuMicros } from './server-cpu.ts';

const RUNS = Number(process.env.RUNS ?? 3000);
const WARMUP = Math.ceil(RUNS / 4);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const FLOOR_MS = 5000;

/** A docflow configuration measured against DBOS. */
interface DocflowConfig {
  readonly name: string;
  /** `scheduling.concurrency` (the engine's default is 16). */
  readonly engineConcurrency: number;
  readonly maxCommitsPerTransaction?: number;
  readonly maxCommitTransactions?: number;
}

const CONFIGS: readonly DocflowConfig[] = [
  { name: 'group commit (defaults), concurrency 16', engineConcurrency: 16 },
  { name: 'group commit (defaults)', engineConcurrency: 64 },
  {
    name: 'group commit, one transaction at a time',
    engineConcurrency: 64,
    maxCommitTransactions: 1,
  },
  {
    name: 'a transaction per commit, 8 at once',
    engineConcurrency: 64,
    maxCommitsPerTransaction: 1,
    maxCommitTransactions: 8,
  },
];

interface Result {
  readonly stepsPerSecond: number;
  readonly cpuMicrosPerStep: number;
  /** The server's CPU per step meanwhile (undefined without `/proc`). */
  readonly serverMicrosPerStep: number | undefined;
  /** docflow: commits per transaction of its group commit. */
  readonly commitsPerTransaction?: number;
}

/** Runs `loop` (RUNS runs of 5 steps) and measures it. */
async function measured(serverPid: number, loop: () => Promise<void>) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = serverCpuMicros(serverPid);
  await loop();
  const server1 = serverCpuMicros(serverPid);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  return {
    stepsPerSecond: (RUNS * 5) / seconds,
    cpuMicrosPerStep: (cpu.user + cpu.system) / (RUNS * 5),
    serverMicrosPerStep:
      server0 === undefined || server1 === undefined ? undefined : (server1 - server0) / (RUNS * 5),
  };
}

/** docflow's steps per second on `schema` of `url`. */
async function docflow(
  url: string,
  schema: string,
  config: DocflowConfig,
  serverPid: number,
): Promise<Result> {
  const storage = postgresStorage(
    { connectionString: url },
    {
      schema,
      ...(config.maxCommitsPerTransaction === undefined
        ? {}
        : { maxCommitsPerTransaction: config.maxCommitsPerTransaction }),
      ...(config.maxCommitTransactions === undefined
        ? {}
        : { maxCommitTransactions: config.maxCommitTransactions }),
    },
  );
  const { engine, workflowId, fileId } = await startLinearEngine(storage, config.engineConcurrency);
  await runClients(engine, workflowId, fileId, WARMUP);
  const before = (await storage.info()).commits;
  const result = await measured(serverPid, () => runClients(engine, workflowId, fileId, RUNS));
  const after = (await storage.info()).commits;
  await engine.stop();
  return {
    ...result,
    commitsPerTransaction:
      (after.commits - before.commits) / (after.transactions - before.transactions),
  };
}

/** DBOS Transact's steps per second, its system database `database` on the server of `url`. */
async function dbos(url: string, database: string, serverPid: number): Promise<Result> {
  const noStep = async () => null;
  const fiveSteps = DBOS.registerWorkflow(
    async () => {
      for (let i = 1; i <= 5; i++) await DBOS.runStep(noStep, { name: `s${i}` });
    },
    { name: 'fiveSteps' },
  );
  const systemDatabaseUrl = new URL(url);
  systemDatabaseUrl.pathname = `/${database}`;
  DBOS.setConfig({ name: 'bench', systemDatabaseUrl: systemDatabaseUrl.href, logLevel: 'error' });
  await DBOS.launch();
  const loop = async (count: number) => {
    let next = 0;
    const client = async () => {
      while (next < count) {
        next++;
        await fiveSteps();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, client));
  };
  await loop(WARMUP);
  const result = await measured(serverPid, () => loop(RUNS));
  await DBOS.shutdown();
  return result;
}

/** Single-row INSERT commits per second from CONCURRENCY connections, each its own transaction. */
async function nodeFloor(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query('CREATE TABLE IF NOT EXISTS floor (id bigserial PRIMARY KEY, payload text)');
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }),
  );
  let commits = 0;
  const end = performance.now() + FLOOR_MS;
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (c) => {
      while (performance.now() < end) {
        await c.query({
          name: 'floor',
          text: 'INSERT INTO floor (payload) VALUES ($1)',
          values: ['x'.repeat(100)],
        });
        commits++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(clients.map((c) => c.end()));
  await admin.end();
  return commits / seconds;
}

/** The same with pgbench (16 clients, 2 threads), or undefined where it is not installed. */
function pgbenchFloor(url: string, port: number): number | undefined {
  const bin = findPostgresBinaries();
  const pgbench = bin === undefined ? undefined : join(bin, 'pgbench');
  if (pgbench === undefined || !existsSync(pgbench)) return undefined;
  const script = join(scratchDir('docflow-pgbench-'), 'insert.sql');
  writeFileSync(script, "INSERT INTO floor (payload) VALUES (repeat('x', 100));\n");
  const result = spawnSync(
    pgbench,
    [
      '-h',
      '127.0.0.1',
      '-p',
      String(port),
      '-U',
      'postgres',
      '-n',
      '-c',
      String(CONCURRENCY),
      '-j',
      '2',
      '-T',
      String(FLOOR_MS / 1000),
      '-M',
      'prepared',
      '-f',
      script,
      'postgres',
    ],
    { encoding: 'utf8' },
  );
  const match = /tps = ([\d.]+)/.exec(result.stdout);
  if (match === null) throw new Error(`pgbench failed: ${result.stderr}`);
  void url;
  return Number(match[1]);
}

const [subject, url, target, pid] = process.argv.slice(2);
if (subject !== undefined && url !== undefined && target !== undefined) {
  // A child: one measurement, printed as JSON.
  const config = CONFIGS.find((c) => c.name === subject);
  const serverPid = Number(pid);
  const result = config
    ? await docflow(url, target, config, serverPid)
    : await dbos(url, target, serverPid);
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
} else {
  // What users run is the compiled packages: build them and resolve `@docflow/*` there.
  buildCompiled(fileURLToPath(new URL('../../..', import.meta.url)));
  const server = await startTemporaryPostgres();
  try {
    let n = 0;
    const measure = (name: string): Result =>
      JSON.parse(
        runCompiled(fileURLToPath(import.meta.url), [
          name,
          server.url,
          `bench_${n++}`,
          String(server.pid),
        ]),
      ) as Result;
    const floorNode = await nodeFloor(server.url);
    const floorPgbench = pgbenchFloor(server.url, server.port);
    const peers = [measure('dbos')];
    const rounds: Result[][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      rounds.push(CONFIGS.map((c) => measure(c.name)));
      peers.push(measure('dbos'));
    }
    const peerAt = (r: number) =>
      ((peers[r]?.stepsPerSecond ?? 0) + (peers[r + 1]?.stepsPerSecond ?? 0)) / 2;
    const list = (values: readonly number[], digits = 0, suffix = '') =>
      values.map((v) => `${v.toFixed(digits)}${suffix}`).join(' / ');
    console.log(
      `### 5-step linear no-op workflow on PostgreSQL vs DBOS Transact 5.3 (${RUNS} runs after ${WARMUP} unmeasured, ${CONCURRENCY} clients, ${ROUNDS} interleaved rounds)\n`,
    );
    console.log(
      `${machineLine()}; PostgreSQL ${(await serverVersion(server.url)) ?? '?'} on loopback, installed defaults (synchronous_commit on)\n`,
    );
    // CPU per step, medians: its process's, the server's, and DBOS's sum over docflow's.
    const cpu = (results: readonly Result[]) => {
      const client = median(results.map((x) => x.cpuMicrosPerStep));
      const server = results.every((x) => x.serverMicrosPerStep !== undefined)
        ? median(results.map((x) => x.serverMicrosPerStep as number))
        : undefined;
      return { client, server, both: server === undefined ? undefined : client + server };
    };
    const dbosCpu = cpu(peers);
    const cells = (c: ReturnType<typeof cpu>) =>
      `${c.client.toFixed(0)} / ${c.server?.toFixed(0) ?? '?'}`;
    console.log(
      '| subject | steps/s, each round | CPU µs per step, process / server (medians) | commits per transaction | vs DBOS, each round | median | vs DBOS, CPU per step (both) |',
    );
    console.log('|---|---|---|---|---|---|---|');
    CONFIGS.forEach((c, i) => {
      const results = rounds.map((round) => round[i] as Result);
      const ratios = results.map((x, r) => x.stepsPerSecond / peerAt(r));
      const own = cpu(results);
      const cpuRatio =
        own.both === undefined || dbosCpu.both === undefined
          ? '?'
          : `${(dbosCpu.both / own.both).toFixed(1)}×`;
      const perTransaction = median(results.map((x) => x.commitsPerTransaction ?? 1));
      console.log(
        `| docflow, ${c.name} | ${list(results.map((x) => x.stepsPerSecond))} | ${cells(own)} | ${perTransaction.toFixed(1)} | ${list(ratios, 1, '×')} | **${median(ratios).toFixed(1)}×** | ${cpuRatio} |`,
      );
    });
    console.log(
      `| DBOS Transact 5.3 (before, between and after the rounds) | ${list(peers.map((p) => p.stepsPerSecond))} | ${cells(dbosCpu)} | – | 1× | 1× | 1× |`,
    );
    console.log(
      `\nRaw floor, single-row INSERT commits/s with ${CONCURRENCY} connections (each its own transaction): Node loop ${floorNode.toFixed(0)}${floorPgbench === undefined ? '' : `, pgbench ${floorPgbench.toFixed(0)}`}.`,
    );
  } finally {
    await server.stop();
  }
}

async function serverVersion(url: string): Promise<string | undefined> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query('SHOW server_version')).rows[0]?.server_version as string | undefined;
  } finally {
    await c.end();
  }
}
