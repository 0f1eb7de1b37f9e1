/**
 * A/B of two builds of docflow on the workload of `vs-dbos.ts` (the 5-step no-op workflow, 16
 * clients, the engine's defaults, one throwaway PostgreSQL 15): this worktree against another
 * checkout (BASE, e.g. main's, built with `tsc -b` and with its `node_modules`), in interleaved
 * rounds (base, this, base, this, …), each measurement in a fresh child process of its tree's
 * `vs-dbos.ts` on a schema of its own. Prints steps per second and CPU µs per step of the
 * process and of the server, by round, and the medians' ratios.
 *
 *   git archive main | tar -x -C /tmp/base   # plus node_modules (cp -al), then tsc -b there
 *   cd bench && BASE=/tmp/base RUNS=2000 ROUNDS=3 npx tsx src/postgres/vs-tree.ts
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTemporaryPostgres } from '@docflow/storage/testing/postgres';
import { median } from '../harness.ts';
import { buildCompiled, runCompiled } from './compiled-child.ts';

const BASE = process.env.BASE;
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONFIG = process.env.CONFIG ?? 'group commit (defaults), concurrency 16';
if (BASE === undefined) throw new Error('BASE: the root of the checkout to compare with');

interface Result {
  readonly stepsPerSecond: number;
  readonly cpuMicrosPerStep: number;
  readonly serverMicrosPerStep: number;
}

const here = fileURLToPath(new URL('../../..', import.meta.url));
buildCompiled(here);
buildCompiled(BASE);
const server = await startTemporaryPostgres();
let n = 0;
const measure = (root: string): Result =>
  JSON.parse(
    runCompiled(
      join(root, 'bench', 'src', 'postgres', 'vs-dbos.ts'),
      [CONFIG, server.url, `ab_${n++}`, String(server.pid)],
      { cwd: join(root, 'bench') },
    ),
  ) as Result;
try {
  const base: Result[] = [];
  const head: Result[] = [];
  const loads: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    base.push(measure(BASE));
    head.push(measure(here));
    loads.push(loadavg()[0] as number);
  }
  const line = (name: string, results: readonly Result[]) =>
    `| ${name} | ${results.map((x) => x.stepsPerSecond.toFixed(0)).join(' / ')} | ${results.map((x) => `${x.cpuMicrosPerStep.toFixed(0)} / ${x.serverMicrosPerStep.toFixed(0)}`).join(', ')} | ${median(results.map((x) => x.cpuMicrosPerStep)).toFixed(0)} / ${median(results.map((x) => x.serverMicrosPerStep)).toFixed(0)} |`;
  console.log(
    `${CONFIG}; ${process.env.RUNS ?? 3000} runs; load average ${loads.map((l) => l.toFixed(1)).join(', ')}\n`,
  );
  console.log(
    '| build | steps/s, each round | CPU µs per step, process / server, each round | medians |',
  );
  console.log('|---|---|---|---|');
  console.log(line(`base (${BASE})`, base));
  console.log(line('this worktree', head));
  const cpu = (rs: readonly Result[]) =>
    median(rs.map((x) => x.cpuMicrosPerStep + x.serverMicrosPerStep));
  console.log(
    `\nthis / base: steps/s ${(median(head.map((x) => x.stepsPerSecond)) / median(base.map((x) => x.stepsPerSecond))).toFixed(2)}×, CPU per step (process + server) ${(cpu(head) / cpu(base)).toFixed(2)}×`,
  );
} finally {
  await server.stop();
}
