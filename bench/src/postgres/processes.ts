/**
 * Issue 20, several engine processes on one PostgreSQL database (a throwaway server started
 * here, installed defaults: `synchronous_commit` on).
 *
 * 1. Throughput: the 5-step no-op workflow, 16 closed-loop clients in all, spread over 1, 2 and 3
 *    engine processes (each creates its runs and works; the queue is shared), in interleaved
 *    rounds (1, 2, 3, 1, 2, 3, …), each measurement on a fresh schema. Steps per second of all
 *    processes together, and the ratio to one process in the same round.
 * 2. Recovery: a process with runs in flight (steps of STEP_MS) is killed with SIGKILL; another
 *    process, already running, resumes each of its in-flight steps. The delay from the kill to
 *    each resumption, against the target: the lease (LEASE_MS) plus one second.
 *
 *   cd bench && npx tsx src/postgres/processes.ts
 *   cd bench && ROUNDS=5 SECONDS=15 npx tsx src/postgres/processes.ts
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { startTemporaryPostgres } from '@docflow/storage/testing/postgres';
import { machineLine } from '../harness.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const SECONDS = Number(process.env.SECONDS ?? 8);
const CLIENTS = 16;
const LEASE_MS = Number(process.env.LEASE_MS ?? 3000);
const STEP_MS = 2500;
const RECOVERY_RUNS = 24;

const tsx = createRequire(import.meta.url).resolve('tsx');
const child = join(import.meta.dirname, 'engine-process.ts');

interface Child {
  readonly proc: ChildProcess;
  /** Lines with the time they arrived (performance.now()). */
  readonly lines: { at: number; text: string }[];
  line(pattern: RegExp): Promise<RegExpExecArray>;
  readonly exited: Promise<void>;
}

function start(args: string[]): Child {
  const proc = spawn(process.execPath, ['--import', tsx, child, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: { at: number; text: string }[] = [];
  const waiting = new Set<() => void>();
  let buffer = '';
  proc.stdout?.on('data', (chunk: Buffer) => {
    const at = performance.now();
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const text of parts) lines.push({ at, text });
    if (process.env.DEBUG_CHILDREN)
      for (const text of parts) console.error(`child ${proc.pid}: ${text}`);
    for (const w of waiting) w();
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    proc,
    lines,
    exited,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          for (const { text } of lines) {
            const match = pattern.exec(text);
            if (match) {
              waiting.delete(look);
              resolve(match);
              return;
            }
          }
        };
        waiting.add(look);
        void exited.then(() => reject(new Error(`child exited before ${pattern}`)));
        look();
      }),
  };
}

const server = await startTemporaryPostgres({ settings: { max_connections: 300 } });
let schemas = 0;
const schema = () => `bench_processes_${++schemas}`;

async function throughput(processes: number): Promise<number> {
  const name = schema();
  const clients = Array.from(
    { length: processes },
    (_, i) => Math.floor(CLIENTS / processes) + (i < CLIENTS % processes ? 1 : 0),
  );
  // The first process creates the schema (migrations take an advisory lock; the others wait).
  const children = clients.map((c) =>
    start([server.url, name, 'throughput', String(c), String(SECONDS)]),
  );
  await Promise.all(children.map((c) => c.line(/^ready$/)));
  for (const c of children) c.proc.kill('SIGUSR2');
  const done = await Promise.all(children.map((c) => c.line(/^done (\d+)$/)));
  await Promise.all(children.map((c) => c.exited));
  const runs = done.reduce((sum, m) => sum + Number(m[1]), 0);
  console.error(`${processes} process(es): ${runs} runs in ${SECONDS} s`);
  return (runs * 5) / SECONDS;
}

async function recovery(): Promise<{ delays: number[] }> {
  const name = schema();
  const victim = start([
    server.url,
    name,
    'recovery',
    String(LEASE_MS),
    String(STEP_MS),
    String(RECOVERY_RUNS),
  ]);
  await victim.line(/^ready$/);
  const survivor = start([server.url, name, 'recovery', String(LEASE_MS), String(STEP_MS), '0']);
  await survivor.line(/^ready$/);
  await new Promise((r) => setTimeout(r, 300));
  const killedAt = performance.now();
  victim.proc.kill('SIGKILL');
  await victim.exited;
  // Steps the victim started less than a step's time before it died were in flight.
  const inFlight = new Set(
    victim.lines
      .filter((l) => l.text.startsWith('start ') && killedAt - l.at < STEP_MS)
      .map((l) => l.text.slice(6)),
  );
  const resumed = new Map<string, number>();
  const deadline = performance.now() + LEASE_MS + 30_000;
  while (resumed.size < inFlight.size && performance.now() < deadline) {
    for (const l of survivor.lines) {
      const key = l.text.startsWith('start ') ? l.text.slice(6) : undefined;
      if (key !== undefined && inFlight.has(key) && !resumed.has(key)) {
        resumed.set(key, l.at - killedAt);
      }
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  survivor.proc.kill('SIGKILL');
  await survivor.exited;
  if (resumed.size < inFlight.size) {
    throw new Error(
      `${inFlight.size - resumed.size} of ${inFlight.size} in-flight steps never resumed`,
    );
  }
  return { delays: [...resumed.values()].sort((a, b) => a - b) };
}

try {
  const byProcesses = new Map<number, number[]>([
    [1, []],
    [2, []],
    [3, []],
  ]);
  const ratios = new Map<number, number[]>([
    [2, []],
    [3, []],
  ]);
  for (let round = 0; round < ROUNDS; round++) {
    const one = await throughput(1);
    byProcesses.get(1)?.push(one);
    for (const n of [2, 3]) {
      const s = await throughput(n);
      byProcesses.get(n)?.push(s);
      ratios.get(n)?.push(s / one);
    }
    console.error(
      `round ${round + 1}: ${[...byProcesses].map(([n, v]) => `${n}: ${Math.round(v.at(-1) ?? 0)}`).join(', ')} steps/s`,
    );
  }
  const recoveries: number[][] = [];
  for (let round = 0; round < ROUNDS; round++) recoveries.push((await recovery()).delays);

  const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const lines = [
    `### Several engine processes on one PostgreSQL (${new Date().toISOString().slice(0, 10)})`,
    '',
    `${machineLine()}; load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end.`,
    `${ROUNDS} interleaved rounds, ${SECONDS} s each after a 1 s warm-up, ${CLIENTS} clients in all.`,
    '',
    '| Engine processes | Steps/s (mean) | By round | vs one process (same round) |',
    '| --- | ---: | --- | --- |',
    ...[1, 2, 3].map((n) => {
      const v = byProcesses.get(n) ?? [];
      const r = ratios.get(n);
      return `| ${n} | ${Math.round(mean(v))} | ${v.map(Math.round).join(', ')} | ${r ? r.map((x) => `${x.toFixed(2)}×`).join(', ') : '1'} |`;
    }),
    '',
    `Recovery (lease ${LEASE_MS} ms, target ${LEASE_MS + 1000} ms): delay from SIGKILL to each in-flight step resuming in the other process, by round:`,
    '',
    ...recoveries.map(
      (d, i) =>
        `- round ${i + 1}: ${d.length} steps, first ${Math.round(d[0] ?? 0)} ms, median ${Math.round(d[Math.floor(d.length / 2)] ?? 0)} ms, last ${Math.round(d.at(-1) ?? 0)} ms (${(d.at(-1) ?? 0) <= LEASE_MS + 1000 ? 'within' : 'NOT within'} the target)`,
    ),
  ];
  console.log(lines.join('\n'));
} finally {
  await server.stop();
}
