/**
 * Issue 4: docflow's 5-step linear workflow of no-op executors on SQLite (every configuration of
 * `CONFIGS`) beside LangGraph.js running an equivalent 5-node graph with its SQLite checkpointer,
 * same number of runs, same 16 clients. One script: each subject runs in a fresh child process of
 * it (so that no subject inherits another's heap, JIT state or threads), LangGraph first and
 * again last. Reports steps per second and the ratio.
 *
 *   cd bench && npx tsx src/engine/vs-langgraph.ts
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { machineLine, scratchDir } from '../harness.ts';
import { CONCURRENCY, CONFIGS, linearThroughput, WARMUP } from './linear-noop.ts';

const RUNS = Number(process.env.RUNS ?? 2000);

/**
 * LangGraph's steps per second. `sync` saves each step's checkpoint before the next step starts,
 * the guarantee docflow gives (a transition is committed before it is acted on); LangGraph's
 * default, `async`, saves it while the next step already runs.
 */
async function langGraphStepsPerSecond(durability: 'sync' | 'async'): Promise<number> {
  const State = Annotation.Root({
    n: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  });
  const path = join(scratchDir('docflow-langgraph-'), 'lg.db');
  const checkpointer = SqliteSaver.fromConnString(path);
  const names = ['s1', 's2', 's3', 's4', 's5'] as const;
  let builder = new StateGraph(State) as unknown as StateGraph<typeof State.spec>;
  for (const name of names)
    builder = builder.addNode(name, (s: { n: number }) => ({ n: s.n + 1 })) as never;
  builder = builder.addEdge(START, 's1' as never) as never;
  for (let i = 0; i < names.length - 1; i++)
    builder = builder.addEdge(names[i] as never, names[i + 1] as never) as never;
  builder = builder.addEdge('s5' as never, END) as never;
  const graph = builder.compile({ checkpointer });
  let thread = 0;
  const loop = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next++;
        await graph.invoke({ n: 0 }, { configurable: { thread_id: `t${thread++}` }, durability });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  };
  await loop(WARMUP);
  const t0 = performance.now();
  await loop(RUNS);
  return (RUNS * 5) / ((performance.now() - t0) / 1000);
}

type Result = Awaited<ReturnType<typeof linearThroughput>>;
const subject = process.argv[2];
if (subject !== undefined) {
  // A child: measure one subject and print its result as JSON.
  const config = CONFIGS.find((c) => c.name === subject);
  const result: Result | number = config
    ? await linearThroughput(config)
    : await langGraphStepsPerSecond(subject === 'langgraph-async' ? 'async' : 'sync');
  process.stdout.write(JSON.stringify(result));
} else {
  // What users run is the compiled packages (their published `exports` point at `dist/`): build
  // them, and resolve `@docflow/*` there with the `docflow-compiled` condition. One row measures
  // the TypeScript sources under tsx, as the tests and examples run them.
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  execFileSync(join(root, 'node_modules', '.bin', 'tsc'), ['-b', root], { stdio: 'inherit' });
  const measure = <T>(name: string, compiled = true): T =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...(compiled ? ['--conditions=docflow-compiled'] : []),
          '--import',
          'tsx',
          fileURLToPath(import.meta.url),
          name,
        ],
        { encoding: 'utf8', env: process.env },
      ),
    ) as T;
  const lg = measure<number>('langgraph-sync');
  const lgAsync = measure<number>('langgraph-async');
  const rows: (readonly [string, Result])[] = CONFIGS.map((c) => [c.name, measure<Result>(c.name)]);
  rows.push(['batched, TypeScript sources under tsx', measure<Result>('batched', false)]);
  // LangGraph again at the end: the machine may have changed under the run.
  const lgAfter = measure<number>('langgraph-sync');
  const peer = Math.max(lg, lgAfter);
  console.log(
    `### 5-step linear no-op workflow on SQLite vs LangGraph.js (${RUNS} runs after ${WARMUP} unmeasured, ${CONCURRENCY} clients)\n`,
  );
  console.log(`${machineLine()}\n`);
  console.log(
    '| docflow configuration (compiled packages unless said) | steps/s | transitions/s | CPU µs per step | bytes stored per step | vs LangGraph `sync` (steps/s) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const [name, r] of rows) {
    console.log(
      `| ${name} | ${r.stepsPerSecond.toFixed(0)} | ${r.transitionsPerSecond.toFixed(0)} | ${r.cpuMicrosPerStep.toFixed(0)} | ${r.bytesPerStep?.toFixed(0) ?? '–'} | ${(r.stepsPerSecond / peer).toFixed(1)}× |`,
    );
  }
  console.log(
    `| LangGraph.js + SqliteSaver, \`durability: 'sync'\` (first / last; the better is the base) | ${lg.toFixed(0)} / ${lgAfter.toFixed(0)} | – | – | – | 1× |`,
  );
  console.log(
    `| LangGraph.js + SqliteSaver, \`durability: 'async'\` (its default; not equivalent) | ${lgAsync.toFixed(0)} | – | – | – | ${(lgAsync / peer).toFixed(1)}× |`,
  );
}
